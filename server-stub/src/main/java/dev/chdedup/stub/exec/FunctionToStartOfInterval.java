package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TimeZones;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * toStartOfInterval (and its aliases time_bucket and date_bin) and dateTrunc, after ClickHouse's toStartOfInterval.cpp,
 * date_trunc.cpp and the ToStartOfInterval transforms of DateTimeTransforms.h. toStartOfInterval(t, INTERVAL n unit
 * [, origin] [, 'zone']) is a DateTime64 of the unit's precision for nano-, micro- and milliseconds, a DateTime for
 * seconds to days and a Date for weeks and longer (of t's own kind when an origin of the same kind is given); months
 * are counted from January 1900 and weeks from Monday 1970-01-05, as DateLUT counts them; with an origin the interval is
 * found for the time elapsed since the origin, read as a time since the epoch, and added to it (months from the
 * origin's day of the month). dateTrunc(unit, t[, 'zone']) is toStartOfInterval(t, INTERVAL 1 unit) with a Date32's and
 * a DateTime64's results kept extended (Date32, DateTime64(0)).
 */
final class FunctionToStartOfInterval {
    private FunctionToStartOfInterval() {
    }

    static boolean handles(String n) {
        return n.equals("toStartOfInterval") || n.equals("dateTrunc");
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        return name.equals("dateTrunc") ? dateTrunc(name, args) : toStartOfInterval(name, args);
    }

    private static int unitDigits(String unit) {
        return unit.equals("nanosecond") ? 9 : unit.equals("microsecond") ? 6 : unit.equals("millisecond") ? 3 : -1;
    }

    private static boolean isLong(String unit) {
        return unit.equals("week") || unit.equals("month") || unit.equals("quarter") || unit.equals("year");
    }

    private static Evaluator toStartOfInterval(String name, List<Evaluator> args) {
        if (args.size() < 2 || args.size() > 4) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", must be 2, 3 or 4");
        }
        Evaluator a = args.get(0);
        DataType u = a.type().unwrap();
        if (!DateTimeTransforms.isDateOrTime(u) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of 1st argument of function "
                + name + ", expected a Date, Date32, DateTime or DateTime64");
        }
        DataType it = args.get(1).type().unwrap();
        if (!(it instanceof DataTypeInterval)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of 2nd argument of function "
                + name + ", expected a time interval");
        }
        String unit = ((DataTypeInterval) it).unit;
        int digits = unitDigits(unit);
        boolean isDate = u instanceof DateType && !((DateType) u).is32;
        Evaluator origin = null;
        int tzAt = 2;
        if (args.size() >= 3) {
            DataType t3 = args.get(2).type().unwrap();
            if (Functions.isString(t3)) {
                if (args.size() == 4) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t3.name() + " of 3rd argument of function " + name
                        + ". The third argument must a Date/Date32/DateTime/DateTime64 with a constant origin");
                }
                if (isDate && isLong(unit)) {
                    throw timezoneNotAllowed(name, unit);
                }
            } else if (DateTimeTransforms.isDateOrTime(t3)) {
                if (!sameKind(u, t3)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Datetime argument and origin argument for function " + name
                        + " must have the same type");
                }
                if (u instanceof DateTime64Type && ((DateTime64Type) u).precision != ((DateTime64Type) t3).precision) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Datetime argument and origin argument for function " + name
                        + " must have the same scale");
                }
                origin = args.get(2);
                tzAt = 3;
                if (args.size() == 4) {
                    if (!Functions.isString(args.get(3).type())) {
                        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(3).type().name()
                            + " of 4th argument of function " + name + ". This argument is optional and must be a constant String with timezone name");
                    }
                    if (isDate && isLong(unit)) {
                        throw timezoneNotAllowed(name, unit);
                    }
                }
            } else {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t3.name() + " of 3rd argument of function " + name
                    + ". This argument is optional and must be a constant String with timezone name or a Date/Date32/DateTime/DateTime64 with a"
                    + " constant origin");
            }
        }
        String tz = DateLUT.zoneArgument(name, args, tzAt);
        String resultTz = tz != null ? tz : DateLUT.tzName(a.type());
        DataType result;
        if (origin != null && !(digits >= 0)) {
            result = u instanceof DateTime64Type ? DataTypes.dateTime64(((DateTime64Type) u).precision, resultTz)
                : u instanceof DateTimeType ? DataTypes.dateTime(resultTz) : u;
        } else if (digits >= 0) {
            result = DataTypes.dateTime64(digits, resultTz);
        } else if (isLong(unit)) {
            result = DataTypes.DATE;
        } else {
            result = DataTypes.dateTime(resultTz);
        }
        Evaluator n = args.get(1);
        if (!n.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column for 2nd argument of function " + name + ", must be a const time interval");
        }
        Object nv = n.eval(new Object[0]);
        long units = nv == null ? 1 : (Long) nv;
        if (units <= 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Value for 2nd argument of function " + name + " must be positive");
        }
        checkKind(u, unit);
        boolean timeZoneMatters = u instanceof DateTimeType || u instanceof DateTime64Type || result instanceof DateTimeType
            || result instanceof DateTime64Type;
        ZoneId fixed = tz != null ? TimeZones.load(tz) : timeZoneMatters ? null : ZoneOffset.UTC;
        Object originValue = origin == null ? null : origin.eval(new Object[0]);
        DataType rt = result;
        Evaluator value = a;
        return Functions.defaultForNulls(result, List.of(value), v -> {
            ZoneId z = fixed != null ? fixed : DateLUT.zoneOf(u);
            long r = originValue == null ? execute(v[0], u, unit, units, z, rt) : withOrigin((Long) v[0], (Long) originValue, u, unit, units, z, rt);
            return wrap(r, rt, u);
        });
    }

    private static ChException timezoneNotAllowed(String name, String unit) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A timezone argument of function " + name + " with interval type "
            + DateOrDateTimeAddInterval.capitalized(unit) + " is allowed only when the 1st argument has the type DateTime or DateTime64");
    }

    private static boolean sameKind(DataType a, DataType b) {
        return a.getClass() == b.getClass() && (!(a instanceof DateType) || ((DateType) a).is32 == ((DateType) b).is32);
    }

    /** The engine refuses sub-second units for all but DateTime64 and units below a day for dates, when it runs. */
    private static void checkKind(DataType u, String unit) {
        if (unitDigits(unit) >= 0 && !(u instanceof DateTime64Type)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal interval kind for argument data type "
                + (u instanceof DateType && !((DateType) u).is32 ? "Date" : "DateTime"));
        }
        if ((unit.equals("second") || unit.equals("minute") || unit.equals("hour")) && u instanceof DateType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal interval kind for argument data type Date");
        }
    }

    /**
     * A result in its type's range as the engine narrows it: a Date of a Date or DateTime held to its range, of a Date32
     * or DateTime64 wrapped; a DateTime of a DateTime held to its range, of the others wrapped to 32 bits.
     */
    private static long wrap(long r, DataType t, DataType from) {
        boolean extended = from instanceof DateTime64Type || from instanceof DateType && ((DateType) from).is32;
        if (t instanceof DateType && !((DateType) t).is32) {
            return extended ? Math.floorMod(r, 1L << 16) : Math.max(0, Math.min(r, 65535));
        }
        if (t instanceof DateTimeType) {
            return from instanceof DateTimeType ? Math.max(0, Math.min(r, 0xFFFFFFFFL)) : Math.floorMod(r, 1L << 32);
        }
        return r;
    }

    /** The start of the interval of a value, in the result type's units (days, seconds or ticks). */
    static long execute(Object v, DataType u, String unit, long n, ZoneId z, DataType result) {
        int digits = unitDigits(unit);
        if (digits >= 0) {
            long x = (Long) v;
            int p = ((DateTime64Type) u).precision;
            if (p <= digits) {
                long ticks = Math.multiplyExact(x, Functions.pow10(digits - p));
                return Math.floorDiv(ticks, n) * n;
            }
            return Math.floorDiv(x, n * Functions.pow10(p - digits)) * n;
        }
        long day = u instanceof DateType ? (Long) v : DateLUT.dayNum(secondsOf(v, u), DataTypes.DATETIME, z);
        if (u instanceof DateTimeType) {
            // a DateTime's day is the engine's unsigned day number: a day before 1970 is 1970-01-01
            day = Math.max(day, 0);
        }
        switch (unit) {
            case "year": return startOfYearInterval(day, n);
            case "quarter": return startOfMonthInterval(day, n * 3);
            case "month": return startOfMonthInterval(day, n);
            case "week": return n == 1 ? DateLUT.monday(day) : 4 + Math.floorDiv(day - 4, n * 7) * (n * 7);
            case "day": {
                long start = n == 1 ? day : Math.floorDiv(day, n) * n;
                if (inTable(day)) {
                    // a day read from the engine's table of days is one of its days
                    start = Math.max(DateLUT.LUT_FIRST_DAY, Math.min(start, DateLUT.LUT_LAST_DAY));
                }
                return DateTimeTransforms.startOfDay(start, u instanceof DateTimeType, z);
            }
            default: return startOfTimeInterval(secondsOf(v, u), unit, n, z, DateLUT.outOfTable(v, u));
        }
    }

    /** Whole seconds of a DateTime, or of a DateTime64 cut toward zero as the engine divides it. */
    private static Long secondsOf(Object v, DataType u) {
        if (u instanceof DateTime64Type) {
            return (Long) v / ((DateTime64Type) u).scale();
        }
        return (Long) v;
    }

    /** Whether a day is one of the engine's table of days (1900 to 2299), which it otherwise computes apart. */
    private static boolean inTable(long day) {
        return day >= DateLUT.LUT_FIRST_DAY && day <= DateLUT.LUT_LAST_DAY;
    }

    private static long startOfYearInterval(long day, long years) {
        LocalDate d = LocalDate.ofEpochDay(day);
        long year = d.getYear() / years * years;
        if (years > 1 && inTable(day)) {
            // in its table the engine holds the year to the table's first
            year = Math.max(year, 1900);
        }
        return LocalDate.of((int) year, 1, 1).toEpochDay();
    }

    private static long startOfMonthInterval(long day, long months) {
        LocalDate d = LocalDate.ofEpochDay(day);
        if (months == 1) {
            return d.withDayOfMonth(1).toEpochDay();
        }
        long index = (d.getYear() - 1900L) * 12 + d.getMonthValue() - 1;
        long start = Math.floorDiv(index, months) * months;
        return LocalDate.of((int) (1900 + Math.floorDiv(start, 12)), (int) Math.floorMod(start, 12) + 1, 1).toEpochDay();
    }

    /** toStartOfSecondInterval, toStartOfMinuteInterval and toStartOfHourInterval of DateLUTImpl. */
    private static long startOfTimeInterval(long sec, String unit, long n, ZoneId z, boolean outside) {
        switch (unit) {
            case "second":
                if (n == 1) {
                    return sec;
                }
                return n % 60 == 0 ? DateLUT.roundDownMinutes(sec, n, z, outside) : DateLUT.roundDown(sec, n, z, outside);
            case "minute":
                return DateLUT.roundDownMinutes(sec, n * 60, z, outside);
            default: {
                if (n == 1) {
                    return DateLUT.roundDown(sec, 3600, z, outside);
                }
                if (outside) {
                    // outside its table the engine counts the hours from the start of the day, whatever the offset changes
                    return DateLUT.fromDayStart(sec, n * 3600, z);
                }
                long local = DateLUT.toLocal(sec, z);
                long day = Math.floorDiv(local, 86400L);
                long time = Math.floorMod(local, 86400L);
                return DateLUT.fromLocal(day * 86400L + time / (n * 3600) * (n * 3600), z);
            }
        }
    }

    /**
     * The start of the interval with an origin: the interval of the time since the origin (read as a time since the
     * epoch) added to the origin; months counted from the origin's day of the month, as the engine's transforms do.
     */
    private static long withOrigin(long t, long origin, DataType u, String unit, long n, ZoneId z, DataType result) {
        if (origin > t) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The origin must be before the end date / date with time");
        }
        boolean dates = u instanceof DateType;
        long scale = u instanceof DateTime64Type ? ((DateTime64Type) u).scale() : 1;
        long delta = dates ? (t - origin) * 86400 : t - origin;
        long o = dates ? origin * 86400 : origin;
        int digits = unitDigits(unit);
        if (digits >= 0) {
            int p = ((DateTime64Type) u).precision;
            long start = execute(delta, u, unit, n, z, result);
            long originInResult = p <= digits ? origin * Functions.pow10(digits - p) : origin / Functions.pow10(p - digits);
            return originInResult + start;
        }
        long deltaSeconds = delta / scale;
        long offsetSeconds;
        if (unit.equals("month") || unit.equals("quarter") || unit.equals("year")) {
            long months = unit.equals("month") ? n : unit.equals("quarter") ? n * 3 : n * 12;
            long originSeconds = o / scale;
            LocalDate at = LocalDate.ofEpochDay(Math.floorDiv(DateLUT.toLocal(deltaSeconds + originSeconds, z), 86400L));
            LocalDate from = LocalDate.ofEpochDay(Math.floorDiv(DateLUT.toLocal(originSeconds, z), 86400L));
            long add = at.getMonthValue() - from.getMonthValue() - (at.getDayOfMonth() < from.getDayOfMonth() ? 1 : 0)
                + (at.getYear() - from.getYear()) * 12L;
            long startOfOrigin = DateLUT.fromDayNum(from.toEpochDay(), z);
            offsetSeconds = DateLUT.fromDayNum(from.plusMonths(add / months * months).toEpochDay(), z) - startOfOrigin;
        } else if (unit.equals("week") || unit.equals("day")) {
            long days = unit.equals("week") ? n * 7 : n;
            long day = Math.floorDiv(DateLUT.toLocal(deltaSeconds, z), 86400L);
            offsetSeconds = DateLUT.fromDayNum(day / days * days, z);
        } else {
            offsetSeconds = startOfTimeInterval(deltaSeconds, unit, n, z, false);
        }
        if (dates) {
            return origin + offsetSeconds / 86400;
        }
        return o + offsetSeconds * scale;
    }

    /** dateTrunc(unit, value[, zone]): toStartOfInterval of one unit, extended for Date32 and DateTime64. */
    private static Evaluator dateTrunc(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 2, 1);
        if (!Functions.isString(args.get(0).type()) || !args.get(0).constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function " + name + " must be constant string:"
                + " name of datepart");
        }
        String given = Functions.constString(args.get(0)).toLowerCase(Locale.ROOT);
        String unit = ConversionFunctions.INTERVAL_UNITS.contains(given) ? given : null;
        if (unit == null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "First argument for function " + name + " must be constant string: name of datepart");
        }
        Evaluator a = args.get(1);
        DataType u = a.type().unwrap();
        if (!DateTimeTransforms.isDateOrTime(u) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument for function " + name);
        }
        boolean belowDay = unit.equals("second") || unit.equals("minute") || unit.equals("hour");
        if (u instanceof DateType && belowDay) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + u.name() + " of argument for function " + name);
        }
        List<Evaluator> inner = args.size() == 3 ? List.of(a, interval(unit), args.get(2)) : List.of(a, interval(unit));
        Evaluator start = toStartOfInterval(name, inner);
        DataType st = start.type().unwrap();
        boolean extended = u instanceof DateTime64Type || u instanceof DateType && ((DateType) u).is32;
        if (!extended || st instanceof DateTime64Type) {
            return start;
        }
        DataType target = st instanceof DateType ? DataTypes.DATE32 : DataTypes.dateTime64(0, ((DateTimeType) st).tz);
        String tz = DateLUT.zoneArgument(name, args, 2);
        ZoneId fixed = tz != null ? TimeZones.load(tz) : null;
        return Functions.defaultForNulls(target, List.of(a), v -> {
            ZoneId z = fixed != null ? fixed : u instanceof DateType ? ZoneOffset.UTC : DateLUT.zoneOf(u);
            return execute(v[0], u, unit, 1, z, target);
        });
    }

    private static Evaluator interval(String unit) {
        return Evaluator.constant(new DataTypeInterval(unit), 1L);
    }
}
