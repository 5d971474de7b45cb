package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.SessionTimeZone;
import dev.chdedup.stub.types.TimeZones;
import dev.chdedup.stub.types.Values;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * Dates and times made of numbers, after ClickHouse's makeDate.cpp: makeDate and makeDate32 (year, month, day or year,
 * day of year, each read as a Float32 and cut to an integer; a day beyond the month's end runs into the next month; a
 * value out of the type's years, months 1-12, days 1-31 or days of year 1-365 gives 1970-01-01), YYYYMMDDToDate[32],
 * makeDateTime and YYYYMMDDhhmmssToDateTime (hours, minutes and seconds up to 99 carried over; before 1900 the
 * earliest time, after 2299 the latest, then clamped to DateTime's range), makeDateTime64 (a fraction clamped to the
 * precision's digits, precision 3 unless given) and YYYYMMDDhhmmssToDateTime64, each in the optional constant zone.
 */
final class FunctionMakeDate {
    private FunctionMakeDate() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "makeDate": case "makeDate32": case "makeDateTime": case "makeDateTime64": case "YYYYMMDDToDate": case "YYYYMMDDToDate32":
            case "YYYYMMDDhhmmssToDateTime": case "YYYYMMDDhhmmssToDateTime64": case "fromDaysSinceYearZero": case "fromDaysSinceYearZero32":
                return true;
            default:
                return false;
        }
    }

    private static final String[] DATE_TIME_ARGS = {"year", "month", "day", "hour", "minute", "second"};

    static Evaluator compile(String name, List<Evaluator> args) {
        switch (name) {
            case "makeDate": case "makeDate32": {
                boolean d32 = name.equals("makeDate32");
                if (args.size() != 2 && args.size() != 3) {
                    Functions.argumentCount(name, args, 3, 0);
                }
                String[] names = args.size() == 3 ? new String[] {"year", "month", "day"} : new String[] {"year", "dayofyear"};
                numbers(name, args, names);
                return Functions.defaultForNulls(d32 ? DataTypes.DATE32 : DataTypes.DATE, args, v -> {
                    float year = f32(v[0], args.get(0));
                    if (args.size() == 3) {
                        return makeDate(d32, year, f32(v[1], args.get(1)), f32(v[2], args.get(2)));
                    }
                    float dayOfYear = f32(v[1], args.get(1));
                    if (!(year >= minYear(d32) && year <= maxYear(d32) && dayOfYear >= 1 && dayOfYear <= 365)) {
                        return 0L;
                    }
                    long day = LocalDate.of((int) year, 1, 1).toEpochDay() + (int) dayOfYear - 1;
                    return day <= maxDay(d32) ? day : 0L;
                });
            }
            case "YYYYMMDDToDate": case "YYYYMMDDToDate32": {
                boolean d32 = name.endsWith("32");
                Functions.argumentCount(name, args, 1, 0);
                numbers(name, args, new String[] {"YYYYMMDD"});
                return Functions.defaultForNulls(d32 ? DataTypes.DATE32 : DataTypes.DATE, args, v -> {
                    long n = rounded(name, v[0], args.get(0));
                    return makeDate(d32, n / 10000, n / 100 % 100, n % 100);
                });
            }
            case "makeDateTime": {
                Functions.argumentCount(name, args, 6, 1);
                numbers(name, args.subList(0, 6), DATE_TIME_ARGS);
                String tz = timezone(name, args, 6);
                return Functions.defaultForNulls(DataTypes.dateTime(tz), args.subList(0, 6), v -> {
                    ZoneId z = tz != null ? TimeZones.load(tz) : SessionTimeZone.current();
                    float[] f = new float[6];
                    for (int i = 0; i < 6; i++) {
                        f[i] = f32(v[i], args.get(i));
                    }
                    return clampDateTime(dateTime(f[0], f[1], f[2], f[3], f[4], f[5], z));
                });
            }
            case "YYYYMMDDhhmmssToDateTime": {
                Functions.argumentCount(name, args, 1, 1);
                numbers(name, args.subList(0, 1), new String[] {"YYYYMMDDhhmmss"});
                String tz = timezone(name, args, 1);
                return Functions.defaultForNulls(DataTypes.dateTime(tz), args.subList(0, 1), v -> {
                    ZoneId z = tz != null ? TimeZones.load(tz) : SessionTimeZone.current();
                    return clampDateTime(fromNumber(rounded(name, v[0], args.get(0)), z));
                });
            }
            case "makeDateTime64": return makeDateTime64(name, args);
            case "YYYYMMDDhhmmssToDateTime64": {
                Functions.argumentCount(name, args, 1, 2);
                numbers(name, args.subList(0, 1), new String[] {"YYYYMMDDhhmmss"});
                int precision = args.size() > 1 ? precision(name, args.get(1)) : 3;
                String tz = timezone(name, args, 2);
                long scale = Functions.pow10(precision);
                return Functions.defaultForNulls(DataTypes.dateTime64(precision, tz), args.subList(0, 1), v -> {
                    ZoneId z = tz != null ? TimeZones.load(tz) : SessionTimeZone.current();
                    double x = Values.toNumber(v[0], args.get(0).type()).doubleValue();
                    long n = rounded(name, v[0], args.get(0));
                    return fromNumber(n, z) * scale + Math.round((x - n) * scale);
                });
            }
            default: {
                boolean d32 = name.endsWith("32");
                Functions.argumentCount(name, args, 1, 0);
                DataType t = args.get(0).type().unwrap();
                if (!TypeRules.isInteger(t) && !(t instanceof NothingType)) {
                    throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "days", name, "Integer", args.get(0).type());
                }
                return Functions.defaultForNulls(d32 ? DataTypes.DATE32 : DataTypes.DATE, args, v -> {
                    long days = Values.toLong(Values.toNumber(v[0], args.get(0).type()));
                    if (days < 0) {
                        throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Argument " + days + " for function " + name + " must be non-negative");
                    }
                    long day = days - 719528;
                    return d32 ? Math.max(Math.min(day, DAY_9999_12_31), DAY_0000_01_01) : Math.floorMod(day, 1L << 16);
                });
            }
        }
    }

    static final long DAY_1900_01_01 = LocalDate.of(1900, 1, 1).toEpochDay();
    static final long DAY_2299_12_31 = LocalDate.of(2299, 12, 31).toEpochDay();
    static final long DAY_9999_12_31 = LocalDate.of(9999, 12, 31).toEpochDay();
    static final long DAY_0000_01_01 = LocalDate.of(0, 1, 1).toEpochDay();
    static final long DAY_2149_06_06 = LocalDate.of(2149, 6, 6).toEpochDay();

    private static int minYear(boolean d32) {
        return d32 ? 1900 : 1970;
    }

    private static int maxYear(boolean d32) {
        return d32 ? 2299 : 2149;
    }

    private static long maxDay(boolean d32) {
        return d32 ? DAY_2299_12_31 : DAY_2149_06_06;
    }

    /** A date of a year, month and a day of 1 to 31 (running into the next month), or 1970-01-01 out of range. */
    private static long makeDate(boolean d32, double year, double month, double day) {
        if (!(year >= minYear(d32) && year <= maxYear(d32) && month >= 1 && month <= 12 && day >= 1 && day <= 31)) {
            return 0L;
        }
        long d = LocalDate.of((int) year, (int) month, 1).toEpochDay() + (int) day - 1;
        return d <= maxDay(d32) ? d : 0L;
    }

    private static void numbers(String name, List<Evaluator> args, String[] names) {
        if (args.size() != names.length) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "An incorrect number of arguments was specified for function '"
                + name + "'. Expected " + names.length + " mandatory arguments, got " + args.size() + " arguments");
        }
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!TypeRules.isNumeric(t) && !(t instanceof NothingType) || TypeRules.isTimeLike(t)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], name, "Number", args.get(i).type());
            }
        }
    }

    private static float f32(Object v, Evaluator e) {
        return Values.toNumber(v, e.type()).floatValue();
    }

    private static long rounded(String name, Object v, Evaluator e) {
        double x = Values.toNumber(v, e.type()).doubleValue();
        if (!Double.isFinite(x)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument for function " + name + " must be finite");
        }
        return Math.round(x);
    }

    private static String timezone(String name, List<Evaluator> args, int at) {
        if (args.size() <= at) {
            return null;
        }
        Evaluator z = args.get(at);
        if (!Functions.isString(z.type()) || !z.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument 'timezone' for function " + name + " must be const string");
        }
        String tz = Functions.constString(z);
        TimeZones.load(tz);
        return tz;
    }

    private static int precision(String name, Evaluator p) {
        if (!TypeRules.isNumeric(p.type()) || !p.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument 'precision' for function " + name + " must be constant number");
        }
        long v = Functions.constLong(p);
        if (v < 0 || v > 9) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Argument 'precision' for function " + name + " must be in range [0, 9]");
        }
        return (int) v;
    }

    static final long MIN_YEAR = 1900;

    /** The earliest time, 1900-01-01 00:00:00 in the zone. */
    private static long minDateTime(ZoneId z) {
        return DateLUT.fromDayNum(DAY_1900_01_01, z);
    }

    private static long maxDateTime(ZoneId z) {
        return DateLUT.fromLocal(DAY_2299_12_31 * 86400 + 86399, z);
    }

    /** FunctionDateTimeBase::dateTime: a time of parts, hours, minutes and seconds up to 99 carried over. */
    private static long dateTime(double year, double month, double day, double hour, double minute, double second, ZoneId z) {
        if (Double.isNaN(year) || Double.isNaN(month) || Double.isNaN(day) || Double.isNaN(hour) || Double.isNaN(minute) || Double.isNaN(second)
            || year < MIN_YEAR || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 99 || minute < 0 || minute > 99
            || second < 0 || second > 99) {
            return minDateTime(z);
        }
        if (year > 2299) {
            return maxDateTime(z);
        }
        long d = Math.min(LocalDate.of((int) year, (int) month, 1).toEpochDay() + (int) day - 1, DAY_2299_12_31);
        return DateLUT.fromLocal(d * 86400 + (int) hour * 3600L + (int) minute * 60L + (int) second, z);
    }

    private static long fromNumber(long n, ZoneId z) {
        long ymd = n / 1000000;
        long hms = n % 1000000;
        return dateTime(ymd / 10000, ymd / 100 % 100, ymd % 100, hms / 10000, hms / 100 % 100, hms % 100, z);
    }

    private static long clampDateTime(long t) {
        return Math.max(0, Math.min(t, 0xFFFFFFFFL));
    }

    private static Evaluator makeDateTime64(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 6, 3);
        numbers(name, args.subList(0, 6), DATE_TIME_ARGS);
        if (args.size() > 6 && !TypeRules.isNumeric(args.get(6).type()) && !Functions.isNothing(args.get(6))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 7, "fraction", name, "const Number", args.get(6).type());
        }
        int precision = args.size() > 7 ? precision(name, args.get(7)) : 3;
        String tz = timezone(name, args, 8);
        long scale = Functions.pow10(precision);
        List<Evaluator> values = args.subList(0, Math.min(args.size(), 7));
        return Functions.defaultForNulls(DataTypes.dateTime64(precision, tz), values, v -> {
            ZoneId z = tz != null ? TimeZones.load(tz) : SessionTimeZone.current();
            float[] f = new float[6];
            for (int i = 0; i < 6; i++) {
                f[i] = f32(v[i], args.get(i));
            }
            long t = dateTime(f[0], f[1], f[2], f[3], f[4], f[5], z);
            double fraction;
            if (t == minDateTime(z)) {
                fraction = 0;
            } else if (t == maxDateTime(z)) {
                fraction = 999999999;
            } else {
                fraction = v.length > 6 ? Values.toNumber(v[6], args.get(6).type()).doubleValue() : 0;
                if (Double.isNaN(fraction)) {
                    t = minDateTime(z);
                    fraction = 0;
                } else {
                    fraction = Math.max(0, Math.min(fraction, scale - 1));
                }
            }
            return t * scale + (long) fraction;
        });
    }
}
