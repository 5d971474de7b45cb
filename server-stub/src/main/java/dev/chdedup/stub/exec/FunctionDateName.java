package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.NothingType;
import java.time.LocalDate;
import java.util.List;

/**
 * dateName and monthName, after ClickHouse's dateName.cpp and monthName.cpp: a part of a date or time as text, read in
 * the optional zone (dateName) or the value's: year, quarter, month (its English name), week (the ISO week), dayofyear,
 * day, weekday (its English name), hour, minute and second (a DateTime's or DateTime64's only, ILLEGAL_TYPE_OF_ARGUMENT
 * for a Date as toHour has it). Another part is BAD_ARGUMENTS. monthName takes a Date, DateTime or DateTime64.
 */
final class FunctionDateName {
    private FunctionDateName() {
    }

    static Evaluator dateName(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 2, 1);
        if (!Functions.isString(args.get(0).type()) || !args.get(0).constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of 1st argument of function "
                + name + ". Must be a constant string.");
        }
        String part = Functions.constString(args.get(0));
        DataType u = args.get(1).type().unwrap();
        if (!DateTimeTransforms.isDateOrTime(u) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of 2nd argument of function "
                + name + ". Must be a date or a date with time.");
        }
        boolean time = part.equals("hour") || part.equals("minute") || part.equals("second");
        if (!List.of("year", "quarter", "month", "week", "dayofyear", "day", "weekday", "hour", "minute", "second").contains(part)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid date part " + part + " for function " + name);
        }
        if (time && u instanceof DateType) {
            String fn = part.equals("hour") ? "toHour" : part.equals("minute") ? "toMinute" : "toSecond";
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal argument of type " + u.name() + " for function " + fn);
        }
        List<Evaluator> rest = args.subList(1, args.size());
        return DateTimeTransforms.transform(name, rest, DateTimeTransforms.Accepts.DATES_AND_TIMES, 1, DataTypes.STRING, (v, t, z) -> {
            long local = DateLUT.localSeconds(v, t, z);
            LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(local, 86400L));
            long s = Math.floorMod(local, 86400L);
            String text;
            switch (part) {
                case "year": text = Integer.toString(d.getYear()); break;
                case "quarter": text = Integer.toString((d.getMonthValue() + 2) / 3); break;
                case "month": text = FunctionFormatDateTime.MONTHS[d.getMonthValue() - 1]; break;
                case "week": text = Integer.toString(DateLUT.isoWeek(d.toEpochDay())); break;
                case "dayofyear": text = Integer.toString(d.getDayOfYear()); break;
                case "day": text = Integer.toString(d.getDayOfMonth()); break;
                case "weekday": text = FunctionFormatDateTime.WEEKDAYS[d.getDayOfWeek().getValue() - 1]; break;
                case "hour": text = Long.toString(s / 3600); break;
                case "minute": text = Long.toString(s / 60 % 60); break;
                default: text = Long.toString(s % 60); break;
            }
            return ByteStrings.fromText(text);
        });
    }

    static Evaluator monthName(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 1, 0);
        DataType u = args.get(0).type().unwrap();
        boolean ok = u instanceof DateType && !((DateType) u).is32 || u instanceof DateTimeType || u instanceof DateTime64Type;
        if (!ok && !(u instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "datetime", name, "Date or DateTime", args.get(0).type());
        }
        return DateTimeTransforms.transform(name, args, DateTimeTransforms.Accepts.DATES_AND_TIMES, 1, DataTypes.STRING,
            (v, t, z) -> ByteStrings.fromText(FunctionFormatDateTime.MONTHS[DateLUT.date(v, t, z).getMonthValue() - 1]));
    }
}
