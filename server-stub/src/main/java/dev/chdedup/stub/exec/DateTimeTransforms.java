package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The transforms of one date or time into a part of it or the start of a period, after ClickHouse's DateTimeTransforms.h:
 * toYear, toMonth, toHour, ..., toRelative*Num, toStartOfYear ... toStartOfFifteenMinutes, toStartOfSecond ...
 * toStartOfNanosecond, toLastDayOfMonth, toISOYear, toYYYYMMDD.... Each takes a Date, Date32, DateTime or DateTime64 (the
 * time of day parts and the starts of periods shorter than a day no Date, toStartOfSecond and finer only a DateTime64),
 * and an optional constant time zone that replaces the value's own. Parts are unsigned integers of the engine's widths;
 * starts of days and longer are Dates and shorter ones DateTimes in the value's (or the given) zone, as with
 * enable_extended_results_for_datetime_functions off.
 */
final class DateTimeTransforms {
    private DateTimeTransforms() {
    }

    /** Which date and time types a transform takes. */
    enum Accepts { DATES_AND_TIMES, TIMES, DATETIME64 }

    /** A transform of one value, read in a zone. */
    interface Transform {
        Object apply(Object v, DataType u, ZoneId z);
    }

    static boolean handles(String n) {
        switch (n) {
            case "toYear": case "toQuarter": case "toMonth": case "toDayOfYear": case "toDayOfMonth": case "toHour": case "toMinute":
            case "toSecond": case "toMillisecond": case "toMicrosecond": case "toNanosecond": case "toISOYear": case "toISOWeek":
            case "toYYYYMM": case "toYYYYMMDD": case "toYYYYMMDDhhmmss": case "toDaysSinceYearZero": case "toDaysInMonth":
            case "toRelativeYearNum": case "toRelativeQuarterNum": case "toRelativeMonthNum": case "toRelativeWeekNum":
            case "toRelativeDayNum": case "toRelativeHourNum": case "toRelativeMinuteNum": case "toRelativeSecondNum":
            case "toMonthNumSinceEpoch": case "toYearNumSinceEpoch": case "toStartOfYear": case "toStartOfISOYear":
            case "toStartOfQuarter": case "toStartOfMonth": case "toMonday": case "toLastDayOfMonth": case "toStartOfDay":
            case "toStartOfHour": case "toStartOfMinute": case "toStartOfFiveMinutes": case "toStartOfTenMinutes":
            case "toStartOfFifteenMinutes": case "timeSlot": case "toStartOfSecond": case "toStartOfMillisecond":
            case "toStartOfMicrosecond": case "toStartOfNanosecond":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        switch (name) {
            case "toYear": return part(name, args, DataTypes.UINT16, (v, u, z) -> (long) DateLUT.date(v, u, z).getYear());
            case "toQuarter": return part(name, args, DataTypes.UINT8, (v, u, z) -> (long) (DateLUT.date(v, u, z).getMonthValue() + 2) / 3);
            case "toMonth": return part(name, args, DataTypes.UINT8, (v, u, z) -> (long) DateLUT.date(v, u, z).getMonthValue());
            case "toDayOfYear": return part(name, args, DataTypes.UINT16, (v, u, z) -> (long) DateLUT.date(v, u, z).getDayOfYear());
            case "toDayOfMonth": return part(name, args, DataTypes.UINT8, (v, u, z) -> (long) DateLUT.date(v, u, z).getDayOfMonth());
            case "toDaysInMonth": return part(name, args, DataTypes.UINT8, (v, u, z) -> (long) DateLUT.date(v, u, z).lengthOfMonth());
            case "toHour": return time(name, args, DataTypes.UINT8, (v, u, z) -> Math.floorMod(DateLUT.localSeconds(v, u, z), 86400L) / 3600);
            case "toMinute": return time(name, args, DataTypes.UINT8, (v, u, z) -> Math.floorMod(DateLUT.localSeconds(v, u, z), 3600L) / 60);
            case "toSecond": return time(name, args, DataTypes.UINT8, (v, u, z) -> (long) DateLUT.second(wholeSeconds(v, u), z, DateLUT.outOfTable(v, u)));
            case "toMillisecond": return time(name, args, DataTypes.UINT16, (v, u, z) -> subSecond(v, u, 3));
            case "toMicrosecond": return time(name, args, DataTypes.UINT32, (v, u, z) -> subSecond(v, u, 6));
            case "toNanosecond": return time(name, args, DataTypes.UINT32, (v, u, z) -> subSecond(v, u, 9));
            case "toISOYear": return part(name, args, DataTypes.UINT16, (v, u, z) -> (long) DateLUT.isoYear(DateLUT.dayNum(v, u, z)));
            case "toISOWeek": return part(name, args, DataTypes.UINT8, (v, u, z) -> (long) DateLUT.isoWeek(DateLUT.dayNum(v, u, z)));
            case "toYYYYMM": return part(name, args, DataTypes.UINT32, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return (long) d.getYear() * 100 + d.getMonthValue();
            });
            case "toYYYYMMDD": return part(name, args, DataTypes.UINT32, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return (long) d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth();
            });
            case "toYYYYMMDDhhmmss": return part(name, args, DataTypes.UINT64, (v, u, z) -> {
                long local = DateLUT.localSeconds(v, u, z);
                LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(local, 86400L));
                long s = Math.floorMod(local, 86400L);
                return ((long) d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth()) * 1000000L
                    + s / 3600 * 10000 + s / 60 % 60 * 100 + s % 60;
            });
            case "toDaysSinceYearZero": {
                // the engine checks the zone argument but reads the value in its own zone
                DateLUT.zoneArgument(name, args, 1);
                List<Evaluator> value = args.isEmpty() ? args : args.subList(0, 1);
                return part(name, value, DataTypes.UINT32, (v, u, z) -> DateLUT.dayNum(v, u, z) + 719528L);
            }
            case "toRelativeYearNum": return part(name, args, DataTypes.UINT16, (v, u, z) -> (long) DateLUT.date(v, u, z).getYear());
            case "toRelativeQuarterNum": return part(name, args, DataTypes.UINT32, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return (long) d.getYear() * 4 + (d.getMonthValue() - 1) / 3;
            });
            case "toRelativeMonthNum": return transform(name, args, Accepts.DATES_AND_TIMES, 1, DataTypes.UINT32, 16, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return (long) d.getYear() * 12 + d.getMonthValue();
            });
            case "toRelativeWeekNum": return transform(name, args, Accepts.DATES_AND_TIMES, 1, DataTypes.UINT32, 16, DateLUT::relativeWeek);
            case "toRelativeDayNum": return transform(name, args, Accepts.DATES_AND_TIMES, 1, DataTypes.UINT32, 16, (v, u, z) -> DateLUT.dayNum(v, u, z));
            case "toRelativeHourNum": return part(name, args, DataTypes.UINT32, (v, u, z) -> relativeHour(DateLUT.seconds(v, u, z), z, false));
            case "toRelativeMinuteNum": return part(name, args, DataTypes.UINT32, (v, u, z) -> Math.floorDiv(DateLUT.seconds(v, u, z), 60L));
            case "toRelativeSecondNum": return part(name, args, DataTypes.UINT32, (v, u, z) -> DateLUT.seconds(v, u, z));
            case "toMonthNumSinceEpoch": return transform(name, args, Accepts.DATES_AND_TIMES, 1, DataTypes.UINT32, 16, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return (d.getYear() - 1970L) * 12 + d.getMonthValue() - 1;
            });
            case "toYearNumSinceEpoch": return part(name, args, DataTypes.UINT16, (v, u, z) -> DateLUT.date(v, u, z).getYear() - 1970L);
            case "toStartOfYear": return part(name, args, DataTypes.DATE, (v, u, z) -> DateLUT.date(v, u, z).withDayOfYear(1).toEpochDay());
            case "toStartOfISOYear": return part(name, args, DataTypes.DATE,
                // the engine finds the ISO year of the day held to Date's range
                (v, u, z) -> DateLUT.firstDayOfIsoYear(DateLUT.isoYear(Math.min(DateLUT.dayNum(v, u, z), 65535))));
            case "toStartOfQuarter": return part(name, args, DataTypes.DATE, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1).toEpochDay();
            });
            case "toStartOfMonth": return part(name, args, DataTypes.DATE, (v, u, z) -> DateLUT.date(v, u, z).withDayOfMonth(1).toEpochDay());
            case "toLastDayOfMonth": return part(name, args, DataTypes.DATE, (v, u, z) -> {
                LocalDate d = DateLUT.date(v, u, z);
                return d.withDayOfMonth(d.lengthOfMonth()).toEpochDay();
            });
            case "toMonday": return part(name, args, DataTypes.DATE, (v, u, z) -> DateLUT.monday(DateLUT.dayNum(v, u, z)));
            case "toStartOfDay": {
                DataType t = dateTimeResult(name, args, 1);
                return transform(name, args, Accepts.DATES_AND_TIMES, 1, t, (v, u, z) -> {
                    long day = u instanceof DateType ? (Long) v : Math.floorDiv(DateLUT.toLocal(wholeSeconds(v, u), z), 86400L);
                    return startOfDay(day, u instanceof DateTimeType || u instanceof DateType && !((DateType) u).is32, z);
                });
            }
            case "toStartOfHour": return startOf(name, args, 3600);
            case "toStartOfMinute": return startOf(name, args, 60);
            case "toStartOfFiveMinutes": return startOf(name, args, 300);
            case "toStartOfTenMinutes": return startOf(name, args, 600);
            case "toStartOfFifteenMinutes": return startOf(name, args, 900);
            case "timeSlot": {
                // the engine's TimeSlotImpl divides toward zero
                DataType t = dateTimeResult(name, args, 1);
                return transform(name, args, Accepts.TIMES, 1, t, (v, u, z) -> wholeSeconds(v, u) / 1800 * 1800);
            }
            case "toStartOfSecond": return startOfSubSecond(name, args, 0);
            case "toStartOfMillisecond": return startOfSubSecond(name, args, 3);
            case "toStartOfMicrosecond": return startOfSubSecond(name, args, 6);
            case "toStartOfNanosecond": return startOfSubSecond(name, args, 9);
            default: throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Function with name `" + name + "` does not exist");
        }
    }

    /** A part of a date or time (a Date takes part), typed {@code result}, its value wrapped to the type's width. */
    private static Evaluator part(String name, List<Evaluator> args, DataType result, Transform fn) {
        if (result instanceof DateType && args.size() > 1 && args.get(0).type().unwrap() instanceof DateType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The timezone argument of function " + name
                + " is allowed only when the 1st argument has the type DateTime or DateTime64");
        }
        return transform(name, args, Accepts.DATES_AND_TIMES, 1, result, fn);
    }

    /** A part of the time of day: a DateTime or DateTime64 only. */
    private static Evaluator time(String name, List<Evaluator> args, DataType result, Transform fn) {
        return transform(name, args, Accepts.TIMES, 1, result, fn);
    }

    private static long subSecond(Object v, DataType u, int digits) {
        if (!(u instanceof DateTime64Type)) {
            return 0;
        }
        DateTime64Type t = (DateTime64Type) u;
        long frac = Math.floorMod((Long) v, t.scale());
        return t.precision <= digits ? frac * Functions.pow10(digits - t.precision) : frac / Functions.pow10(t.precision - digits);
    }

    /**
     * The hour number of an instant as DateLUTImpl counts it: for toRelativeHourNum whole hours of the epoch, but before
     * the epoch or in a zone whose offset was not always whole hours since, the hours of the time less the offset at the
     * epoch, a day later (the engine counts from a day before the epoch there); for dateDiff's {@code extended} count
     * (toStableRelativeHourNum) always the hours of the time less that offset.
     */
    static long relativeHour(long sec, ZoneId z, boolean extended) {
        int offsetAtEpoch = z.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds();
        if (!extended && sec >= 0 && DateLUT.wholeSinceEpoch(z, 3600)) {
            return sec / 3600;
        }
        return Math.floorDiv(sec - offsetAtEpoch + (extended ? 0 : 86400), 3600L);
    }

    /** The DateTime type a start of a period of {@code name} has: in the zone argument at {@code tzAt}, else the value's. */
    static DataType dateTimeResult(String name, List<Evaluator> args, int tzAt) {
        String tz = DateLUT.zoneArgument(name, args, tzAt);
        return DataTypes.dateTime(tz != null ? tz : args.isEmpty() ? null : DateLUT.tzName(args.get(0).type()));
    }

    private static Evaluator startOf(String name, List<Evaluator> args, long unit) {
        DataType t = dateTimeResult(name, args, 1);
        return transform(name, args, Accepts.TIMES, 1, t, (v, u, z) -> {
            long sec = wholeSeconds(v, u);
            if (unit == 3600) {
                return DateLUT.roundDown(sec, 3600, z, DateLUT.outOfTable(v, u));
            }
            return DateLUT.roundDownMinutes(sec, unit, z, DateLUT.outOfTable(v, u));
        });
    }

    /**
     * The instant day {@code day} starts at; {@code saturated}, the first day starting at or after the epoch when it
     * starts before, as the engine's saturated table of days has it (which it reads for a DateTime's day, and for a
     * Date's in toStartOfDay).
     */
    static long startOfDay(long day, boolean saturated, ZoneId z) {
        long start = DateLUT.fromDayNum(day, z);
        return start < 0 && saturated ? Math.max(start, DateLUT.fromDayNum(day + 1, z)) : start;
    }

    /** The whole seconds of a DateTime, or of a DateTime64 cut toward zero, as the engine splits it for a start of a period. */
    static long wholeSeconds(Object v, DataType u) {
        return u instanceof DateTime64Type ? (Long) v / ((DateTime64Type) u).scale() : (Long) v;
    }

    /** toStartOfSecond ... toStartOfNanosecond: a DateTime64 cut to {@code digits} of a second, of its own type or zone. */
    private static Evaluator startOfSubSecond(String name, List<Evaluator> args, int digits) {
        Functions.argumentCount(name, args, 1, 1);
        DataType u = args.get(0).type().unwrap();
        if (!(u instanceof DateTime64Type)) {
            if (u instanceof DateTimeType || u instanceof DateType || u instanceof NothingType) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal argument of type " + u.name() + " for function " + name);
            }
            throw illegalType(name, args.get(0).type(), Accepts.DATES_AND_TIMES);
        }
        DateTime64Type dt = (DateTime64Type) u;
        String tz = DateLUT.zoneArgument(name, args, 1);
        int precision = Math.max(dt.precision, digits == 0 ? 0 : digits);
        DataType t = DataTypes.dateTime64(precision, tz != null ? tz : dt.tz);
        long unit = dt.precision > digits ? Functions.pow10(dt.precision - digits) : 1;
        long widen = Functions.pow10(precision - dt.precision);
        return Functions.defaultForNulls(t, args.subList(0, 1), v -> Math.floorDiv((Long) v[0], unit) * unit * widen);
    }

    static ChException illegalType(String name, DataType t, Accepts accepts) {
        DataType u = t.unwrap();
        if (accepts == Accepts.TIMES && u instanceof DateType) {
            return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal argument of type " + u.name() + " for function " + name);
        }
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name
            + ". Should be Date, Date32, DateTime or DateTime64");
    }

    static boolean isDateOrTime(DataType u) {
        return u instanceof DateType || u instanceof DateTimeType || u instanceof DateTime64Type;
    }

    /**
     * The transform of the first argument, a date or time of the kinds {@code accepts} names, computed in the zone
     * argument at {@code tzAt} when given, else the value's; typed {@code result} (Nullable as its argument); the literal
     * NULL gives NULL.
     */
    static Evaluator transform(String name, List<Evaluator> args, Accepts accepts, int tzAt, DataType result, Transform fn) {
        int bits = result instanceof IntType && !((IntType) result).signed ? ((IntType) result).bits : 64;
        return transform(name, args, accepts, tzAt, result, bits, fn);
    }

    /**
     * {@link #transform}, with the engine's narrowing of values out of the result's range: a Date is held to its range,
     * a DateTime too but one of a DateTime64 wrapped to 32 bits; an unsigned integer computed in {@code bits} bits
     * is held to them for a Date32 and wrapped to them for a DateTime64, as the engine's transforms narrow them.
     */
    static Evaluator transform(String name, List<Evaluator> args, Accepts accepts, int tzAt, DataType result, int bits, Transform fn) {
        Functions.argumentCount(name, args, 1, tzAt);
        Evaluator a = args.get(0);
        DataType u = a.type().unwrap();
        boolean ok = accepts == Accepts.DATES_AND_TIMES ? isDateOrTime(u)
            : accepts == Accepts.TIMES ? u instanceof DateTimeType || u instanceof DateTime64Type : u instanceof DateTime64Type;
        if (!ok && !(u instanceof NothingType)) {
            throw illegalType(name, a.type(), accepts);
        }
        String tz = DateLUT.zoneArgument(name, args, tzAt);
        ZoneId fixed = tz == null ? null : dev.chdedup.stub.types.TimeZones.load(tz);
        boolean date32 = u instanceof DateType && ((DateType) u).is32;
        boolean extended = date32 || u instanceof DateTime64Type;
        long max = bits >= 64 ? Long.MAX_VALUE : (1L << bits) - 1;
        DataType ru = result;
        return Functions.defaultForNulls(result, List.of(a), v -> {
            Object r = fn.apply(v[0], u, fixed != null ? fixed : DateLUT.zoneOf(u));
            if (!(r instanceof Long)) {
                return r;
            }
            long x = (Long) r;
            if (ru instanceof DateType && !((DateType) ru).is32) {
                return Math.max(0, Math.min(x, 65535));
            }
            if (ru instanceof DateTimeType) {
                // the instant of a DateTime64 or a Date is cast to 32 bits, those of a Date32 or DateTime held to them
                boolean wraps = u instanceof DateTime64Type || u instanceof DateType && !date32;
                return wraps ? Math.floorMod(x, 1L << 32) : Math.max(0, Math.min(x, 0xFFFFFFFFL));
            }
            if (bits < 64 && extended) {
                return date32 ? Math.max(0, Math.min(x, max)) : x & max;
            }
            return bits < 64 ? x & max : x;
        });
    }
}
