package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import java.time.ZoneId;
import java.util.List;

/**
 * The functions of a date and a week mode, after ClickHouse's FunctionCustomWeekToSomething.h: toWeek and toYearWeek
 * (MySQL's week modes 0 to 9, DateLUT's yearWeek), toStartOfWeek and toLastDayOfWeek (the week starting on Sunday unless
 * the mode's bit 0 makes it Monday) and toDayOfWeek (mode 0: Monday is 1, 1: Monday is 0, 2: Sunday is 0, 3: Sunday is
 * 1). The mode is a constant UInt8 (ILLEGAL_COLUMN when not constant), then an optional constant time zone. toWeek,
 * toYearWeek and toDayOfWeek also take a String, read as parseDateTimeBestEffort reads it.
 */
final class FunctionCustomWeekToSomething {
    private FunctionCustomWeekToSomething() {
    }

    static boolean handles(String n) {
        return n.equals("toWeek") || n.equals("toYearWeek") || n.equals("toStartOfWeek") || n.equals("toLastDayOfWeek")
            || n.equals("toDayOfWeek");
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 1, 2);
        boolean mayBeString = !name.equals("toStartOfWeek") && !name.equals("toLastDayOfWeek");
        Evaluator a = args.get(0);
        DataType u = a.type().unwrap();
        if (!(DateTimeTransforms.isDateOrTime(u) || mayBeString && Functions.isString(u) || u instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "date_or_datetime", name,
                "Date, Date32, DateTime, DateTime64" + (mayBeString ? " or String" : ""), a.type());
        }
        int mode = 0;
        if (args.size() > 1) {
            Evaluator m = args.get(1);
            DataType mt = m.type().unwrap();
            if (!(mt instanceof IntType) || ((IntType) mt).bits != 8 || ((IntType) mt).signed) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, name.equals("toDayOfWeek") ? "mode" : "week_mode", name,
                    "UInt8", m.type());
            }
            if (!m.constant()) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
            }
            mode = (int) Functions.constLong(m);
        }
        String tz = DateLUT.zoneArgument(name, args, 2);
        if (tz != null && !mayBeString && u instanceof dev.chdedup.stub.types.DateType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The timezone argument of function " + name
                + " is allowed only when the 1st argument is DateTime or DateTime64");
        }
        ZoneId fixed = tz == null ? null : dev.chdedup.stub.types.TimeZones.load(tz);
        int weekMode = mode;
        DataType result = name.equals("toYearWeek") ? DataTypes.UINT32 : name.equals("toStartOfWeek") || name.equals("toLastDayOfWeek")
            ? DataTypes.DATE : DataTypes.UINT8;
        return Functions.defaultForNulls(result, List.of(a), v -> {
            ZoneId z = fixed != null ? fixed : DateLUT.zoneOf(u);
            long day = Functions.isString(u) ? Math.floorDiv(DateLUT.toLocal(ParseDateTimeBestEffort.seconds((String) v[0], z), z), 86400L)
                : DateLUT.dayNum(v[0], u, z);
            switch (name) {
                // a DateTime's day is the engine's unsigned day number there: a day before 1970 is 1970-01-01
                case "toWeek": return (long) DateLUT.yearWeek(u instanceof dev.chdedup.stub.types.DateTimeType ? Math.max(day, 0) : day, weekMode)[1];
                case "toYearWeek": {
                    int[] yw = DateLUT.yearWeek(day, weekMode | DateLUT.YEAR);
                    return (long) yw[0] * 100 + yw[1];
                }
                case "toStartOfWeek": return Math.max(0, Math.min(DateLUT.firstDayOfWeek(day, weekMode), 65535));
                case "toLastDayOfWeek": return Math.max(0, Math.min(DateLUT.lastDayOfWeek(day, weekMode), 65535));
                default: return (long) dayOfWeek(day, weekMode);
            }
        });
    }

    /** DateLUTImpl::toDayOfWeek(v, mode): Monday or Sunday first, counted from 0 or 1. */
    static int dayOfWeek(long day, int mode) {
        int m = mode & 3;
        int res = DateLUT.dayOfWeek(day);
        if (m == 2 || m == 3) {
            res = res % 7 + 1;
        }
        if (m == 1 || m == 2) {
            res--;
        }
        return res;
    }
}
