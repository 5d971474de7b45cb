package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.SessionTimeZone;
import dev.chdedup.stub.types.Values;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * changeYear, changeMonth, changeDay, changeHour, changeMinute and changeSecond, after ClickHouse's changeDate.cpp: one
 * part of a date or time set to an integer, the others kept; a day past the month's end runs into the next month; a
 * value outside the part's range (a year outside the type's, 0000-9999 for a DateTime64, a month 1-12, a day 1-31, an
 * hour 0-23...) gives the type's earliest value, a year past it its latest, and the result is clamped to the type. A
 * Date changed in its time becomes a DateTime, a Date32 a DateTime64(3).
 */
final class FunctionChangeDate {
    private FunctionChangeDate() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "changeYear": case "changeMonth": case "changeDay": case "changeHour": case "changeMinute": case "changeSecond":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 2, 0);
        DataType u = args.get(0).type().unwrap();
        if (!DateTimeTransforms.isDateOrTime(u) && !(u instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "date_or_datetime", name, "Date or date with time",
                args.get(0).type());
        }
        DataType vt = args.get(1).type().unwrap();
        if (!TypeRules.isInteger(vt) && !(vt instanceof NothingType) || vt instanceof dev.chdedup.stub.types.BoolType
            || vt instanceof dev.chdedup.stub.types.BigIntType) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "value", name, "Integer", args.get(1).type());
        }
        String part = name.substring("change".length());
        boolean timePart = part.equals("Hour") || part.equals("Minute") || part.equals("Second");
        DataType result = u;
        if (timePart && u instanceof DateType) {
            result = ((DateType) u).is32 ? DataTypes.dateTime64(3, null) : DataTypes.DATETIME;
        }
        DataType rt = result;
        return Functions.defaultForNulls(result, args, v -> {
            double value = Values.toNumber(v[1], args.get(1).type()).doubleValue();
            return changed(part, v[0], u, rt, value);
        });
    }

    private static Object changed(String part, Object v, DataType u, DataType rt, double value) {
        ZoneId z = u instanceof DateType ? (rt instanceof DateType ? java.time.ZoneOffset.UTC : SessionTimeZone.current()) : DateLUT.zoneOf(rt);
        long fraction = 0;
        int scale = rt instanceof DateTime64Type ? ((DateTime64Type) rt).precision : 0;
        long ticks = Functions.pow10(scale);
        long local;
        if (u instanceof DateType) {
            local = (Long) v * 86400L;
        } else if (u instanceof DateTime64Type) {
            long x = (Long) v;
            fraction = x % ticks;
            local = DateLUT.toLocal(x / ticks, z);
        } else {
            local = DateLUT.toLocal((Long) v, z);
        }
        LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(local, 86400L));
        long s = Math.floorMod(local, 86400L);
        long[] c = {d.getYear(), d.getMonthValue(), d.getDayOfMonth(), s / 3600, s / 60 % 60, s % 60};
        boolean isDate = rt instanceof DateType;
        boolean date32 = isDate && ((DateType) rt).is32;
        int minYear = isDate && !date32 || rt instanceof DateTimeType ? 1970 : date32 ? 1900 : 0;
        int maxYear = isDate ? (date32 ? 2299 : 2149) : rt instanceof DateTimeType ? 2106 : 9999;
        long min;
        long max;
        if (isDate) {
            min = date32 ? FunctionMakeDate.DAY_1900_01_01 : 0;
            max = date32 ? FunctionMakeDate.DAY_2299_12_31 : FunctionMakeDate.DAY_2149_06_06;
        } else if (rt instanceof DateTimeType) {
            min = 0;
            max = 0xFFFFFFFFL;
        } else {
            min = DateLUT.fromDayNum(FunctionMakeDate.DAY_0000_01_01, z) * ticks;
            max = DateLUT.fromLocal(FunctionMakeDate.DAY_9999_12_31 * 86400 + 86399, z) * ticks + ticks - 1;
        }
        switch (part) {
            case "Year":
                if (value < minYear) {
                    return min;
                }
                if (value > maxYear) {
                    return max;
                }
                c[0] = (long) value;
                break;
            case "Month":
                if (value < 1 || value > 12) {
                    return min;
                }
                c[1] = (long) value;
                break;
            case "Day":
                if (value < 1 || value > 31) {
                    return min;
                }
                c[2] = (long) value;
                break;
            default: {
                int at = part.equals("Hour") ? 3 : part.equals("Minute") ? 4 : 5;
                if (value < 0 || value > (at == 3 ? 23 : 59)) {
                    return min;
                }
                c[at] = (long) value;
                break;
            }
        }
        long day = LocalDate.of((int) c[0], (int) c[1], 1).toEpochDay() + c[2] - 1;
        long result;
        if (isDate) {
            result = day;
        } else {
            long sec = DateLUT.fromLocal(day * 86400 + c[3] * 3600 + c[4] * 60 + c[5], z);
            result = rt instanceof DateTimeType ? sec : sec * ticks + fraction;
        }
        return Math.max(min, Math.min(result, max));
    }
}
