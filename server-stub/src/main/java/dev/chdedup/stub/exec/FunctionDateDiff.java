package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.SessionTimeZone;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

/**
 * dateDiff, age and timeDiff, after ClickHouse's dateDiff.cpp: an Int64 count of units from the start to the end.
 * dateDiff counts the unit's boundaries crossed (the difference of toRelativeUnitNum of both, in the zone argument or
 * each value's own zone), age the whole units elapsed (that difference, one less when the end's smaller parts are
 * below the start's, as DateDiffImpl adjusts it), timeDiff the seconds (in the server's zone). Units are named as the
 * engine names them (year, yy, yyyy, quarter, qq, q, ... nanosecond, ns), in any case; another is BAD_ARGUMENTS. The
 * parser turns {@code dateDiff(DAY, a, b)} and its aliases into {@code dateDiff('day', a, b)}.
 */
final class FunctionDateDiff {
    private FunctionDateDiff() {
    }

    static boolean handles(String n) {
        return n.equals("dateDiff") || n.equals("age") || n.equals("timeDiff");
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (name.equals("timeDiff")) {
            Functions.argumentCount(name, args, 2, 0);
            checkDate(name, args, 0, "first_datetime");
            checkDate(name, args, 1, "second_datetime");
            DataType ux = args.get(0).type().unwrap();
            DataType uy = args.get(1).type().unwrap();
            return Functions.defaultForNulls(DataTypes.INT64, args, v -> {
                ZoneId z = SessionTimeZone.current();
                return relative("second", v[1], uy, z) - relative("second", v[0], ux, z);
            });
        }
        Functions.argumentCount(name, args, 3, 1);
        if (!Functions.isString(args.get(0).type())) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "unit", name, "String", args.get(0).type());
        }
        checkDate(name, args, 1, "startdate");
        checkDate(name, args, 2, "enddate");
        if (args.size() == 4 && !Functions.isString(args.get(3).type())) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 4, "timezone", name, "String", args.get(3).type());
        }
        if (!args.get(0).constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "First argument for function " + name + " must be constant String");
        }
        String unit = unit(name, Functions.constString(args.get(0)));
        String tz = DateLUT.zoneArgument(name, args, 3);
        ZoneId fixed = tz == null ? null : dev.chdedup.stub.types.TimeZones.load(tz);
        DataType ux = args.get(1).type().unwrap();
        DataType uy = args.get(2).type().unwrap();
        boolean age = name.equals("age");
        return Functions.defaultForNulls(DataTypes.INT64, args.subList(1, 3), v -> {
            ZoneId zx = fixed != null ? fixed : DateLUT.zoneOf(ux);
            ZoneId zy = fixed != null ? fixed : DateLUT.zoneOf(uy);
            long res = relative(unit, v[1], uy, zy) - relative(unit, v[0], ux, zx);
            return age ? res + ageAdjustment(unit, v[0], ux, zx, v[1], uy, zy) : res;
        });
    }

    private static void checkDate(String name, List<Evaluator> args, int at, String argument) {
        DataType u = args.get(at).type().unwrap();
        if (!DateTimeTransforms.isDateOrTime(u) && !(u instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, at + 1, argument, name, "Date[32] or DateTime[64]",
                args.get(at).type());
        }
    }

    /** The canonical unit a name stands for, or BAD_ARGUMENTS. */
    private static String unit(String fn, String given) {
        String u = given.toLowerCase(Locale.ROOT);
        switch (u) {
            case "year": case "years": case "yy": case "yyyy": return "year";
            case "quarter": case "quarters": case "qq": case "q": return "quarter";
            case "month": case "months": case "mm": case "m": return "month";
            case "week": case "weeks": case "wk": case "ww": return "week";
            case "day": case "days": case "dd": case "d": return "day";
            case "hour": case "hours": case "hh": case "h": return "hour";
            case "minute": case "minutes": case "mi": case "n": return "minute";
            case "second": case "seconds": case "ss": case "s": return "second";
            case "millisecond": case "milliseconds": case "ms": return "millisecond";
            case "microsecond": case "microseconds": case "us": case "u": return "microsecond";
            case "nanosecond": case "nanoseconds": case "ns": return "nanosecond";
            default: throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function " + fn + " does not support '" + u + "' unit");
        }
    }

    /** toRelativeUnitNum of a value, in the extended (signed) precision dateDiff uses. */
    private static long relative(String unit, Object v, DataType u, ZoneId z) {
        switch (unit) {
            case "year": return DateLUT.date(v, u, z).getYear();
            case "quarter": {
                LocalDate d = DateLUT.date(v, u, z);
                return d.getYear() * 4L + (d.getMonthValue() - 1) / 3;
            }
            case "month": {
                LocalDate d = DateLUT.date(v, u, z);
                return d.getYear() * 12L + d.getMonthValue();
            }
            case "week": return DateLUT.relativeWeek(v, u, z);
            case "day": return DateLUT.dayNum(v, u, z);
            case "hour": return DateTimeTransforms.relativeHour(DateLUT.seconds(v, u, z), z, true);
            case "minute": return Math.floorDiv(DateLUT.seconds(v, u, z), 60L);
            case "second": return DateLUT.seconds(v, u, z);
            case "millisecond": return subsecond(v, u, z, 3);
            case "microsecond": return subsecond(v, u, z, 6);
            default: return subsecond(v, u, z, 9);
        }
    }

    /** The value in units of 10^-digits seconds (a DateTime64 of finer precision cut toward zero). */
    private static long subsecond(Object v, DataType u, ZoneId z, int digits) {
        if (u instanceof DateTime64Type) {
            int p = ((DateTime64Type) u).precision;
            long x = (Long) v;
            return p <= digits ? x * Functions.pow10(digits - p) : x / Functions.pow10(p - digits);
        }
        return DateLUT.seconds(v, u, z) * Functions.pow10(digits);
    }

    /** month, day, hour, minute, second, millisecond, microsecond, nanosecond of a value on its zone's wall clock. */
    private static long[] components(Object v, DataType u, ZoneId z) {
        long local = DateLUT.localSeconds(v, u, z);
        LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(local, 86400L));
        long s = Math.floorMod(local, 86400L);
        long nanos = 0;
        if (u instanceof DateTime64Type) {
            DateTime64Type t = (DateTime64Type) u;
            nanos = Math.floorMod((Long) v, t.scale()) * Functions.pow10(9 - t.precision);
        }
        return new long[] {d.getMonthValue(), d.getDayOfMonth(), s / 3600, s / 60 % 60, s % 60, nanos / 1000000, nanos / 1000 % 1000,
            nanos % 1000};
    }

    /** Whether {@code a} is above {@code b}, comparing their components from index {@code from} on. */
    private static boolean greater(long[] a, long[] b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] != b[i]) {
                return a[i] > b[i];
            }
        }
        return false;
    }

    /** DateDiffImpl's adjustment of age: -1 (or +1 when the end is earlier) when the unit is not whole. */
    private static long ageAdjustment(String unit, Object x, DataType ux, ZoneId zx, Object y, DataType uy, ZoneId zy) {
        boolean ordered = subsecond(x, ux, zx, 9) <= subsecond(y, uy, zy, 9);
        long[] a = ordered ? components(x, ux, zx) : components(y, uy, zy);
        long[] b = ordered ? components(y, uy, zy) : components(x, ux, zx);
        long adjust = ordered ? -1 : 1;
        boolean more;
        switch (unit) {
            case "year": more = greater(a, b, 0); break;
            case "quarter": {
                long[] qa = a.clone();
                long[] qb = b.clone();
                qa[0] = (a[0] - 1) % 3;
                qb[0] = (b[0] - 1) % 3;
                more = greater(qa, qb, 0);
                break;
            }
            case "month": more = greater(a, b, 1); break;
            case "week": {
                // as the engine writes it: the time of day decides whenever the hours are equal, whatever the weekdays
                int dx = DateLUT.dayOfWeek(DateLUT.dayNum(x, ux, zx));
                int dy = DateLUT.dayOfWeek(DateLUT.dayNum(y, uy, zy));
                more = dx > dy || dx == dy && a[2] > b[2] || a[2] == b[2] && greater(a, b, 3);
                break;
            }
            case "day": more = greater(a, b, 2); break;
            case "hour": more = greater(a, b, 3); break;
            case "minute": more = greater(a, b, 4); break;
            case "second": more = greater(a, b, 5); break;
            case "millisecond": more = greater(a, b, 6); break;
            case "microsecond": more = greater(a, b, 7); break;
            default: more = false; break;
        }
        return more ? adjust : 0;
    }
}
