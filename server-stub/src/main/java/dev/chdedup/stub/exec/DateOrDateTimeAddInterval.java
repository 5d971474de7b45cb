package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.SessionTimeZone;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A date or time plus or minus a count of units: addSeconds, addDays, addMonths ... and subtractSeconds ..., which
 * {@code date + INTERVAL n unit} calls, and the tuple of intervals that unlike intervals add up to
 * ({@code INTERVAL 1 DAY + INTERVAL 1 HOUR} is {@code (1, 1)}, a Tuple(IntervalDay, IntervalHour) that a date takes one
 * element after the other). Typed as the engine types them: a Date plus seconds, minutes or hours is a DateTime (a
 * Date32 one a DateTime64(3)), a time plus milliseconds, microseconds or nanoseconds a DateTime64 of at least that
 * precision, which a Date cannot take. Days and longer move the wall clock in the value's time zone; a wall time that
 * does not exist there (a spring-forward gap) is read with the offset after the change, as DateLUTImpl's addDays and
 * addMonths read it, so 02:30 in Berlin's gap is 01:30. Date and DateTime results wrap around their UInt16 and UInt32
 * ranges. Mirrors ClickHouse's FunctionDateOrDateTimeAddInterval.h and FunctionsOpDate / tuple-of-intervals arithmetic.
 */
final class DateOrDateTimeAddInterval {
    private DateOrDateTimeAddInterval() {
    }

    /** The unit of {@code addDays}, {@code subtractMonths} and the rest ({@code day}, {@code month}), or null. */
    static String unitOf(String name) {
        String rest = name.startsWith("add") ? name.substring(3) : name.startsWith("subtract") ? name.substring(8) : "";
        if (rest.length() < 2 || !rest.endsWith("s")) {
            return null;
        }
        String unit = rest.substring(0, rest.length() - 1);
        return ConversionFunctions.INTERVAL_UNITS.contains(unit.toLowerCase(Locale.ROOT)) && unit.equals(capitalized(unit.toLowerCase(Locale.ROOT)))
            ? unit.toLowerCase(Locale.ROOT) : null;
    }

    static String capitalized(String unit) {
        return Character.toUpperCase(unit.charAt(0)) + unit.substring(1);
    }

    /** addDays(date, n) and its family: a date, a time or a String (read as DateTime64(3)), and a number of units. */
    static Evaluator compile(String name, List<Evaluator> args) {
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be 2 or 3");
        }
        String unit = unitOf(name);
        Evaluator base = args.get(0);
        DataType bt = base.type().unwrap();
        if (Functions.isString(bt)) {
            base = ConversionFunctions.cast(base, base.type().isNullable() ? DataTypes.nullable(DataTypes.dateTime64(3, null))
                : DataTypes.dateTime64(3, null));
        } else if (!TypeRules.isTimeLike(bt) && !Functions.isNothing(base)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + base.type().name() + " of first argument of function "
                + name + ". Must be a date, a date with time or a String");
        }
        Evaluator n = args.get(1);
        DataType nt = n.type().unwrap();
        if (!TypeRules.isInteger(nt) && !Functions.isFloat(nt) && !Functions.isNothing(n)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function " + name + " must be a number");
        }
        Evaluator count = Evaluator.of(DataTypes.INT64, r -> {
            Object v = n.eval(r);
            return v == null ? null : Values.toLong(Values.toNumber(v, nt));
        });
        return add(base, unit, Functions.isNothing(n) ? n : count, name.startsWith("subtract"));
    }

    /**
     * The date arithmetic of plus and minus with an interval or a tuple of intervals on either side, or null when
     * neither argument is one.
     */
    static Evaluator arith(String op, List<Evaluator> args) {
        Evaluator a = args.get(0);
        Evaluator b = args.get(1);
        DataType ta = a.type().unwrap();
        DataType tb = b.type().unwrap();
        boolean plus = op.equals("plus");
        if (!plus && !op.equals("minus")) {
            return null;
        }
        if (ta instanceof DataTypeInterval && tb instanceof DataTypeInterval) {
            if (ta.name().equals(tb.name())) {
                return Functions.strict(ta, args, v -> plus ? (Long) v[0] + (Long) v[1] : (Long) v[0] - (Long) v[1]);
            }
            return tuple(List.of(a, plus ? b : negated(b)));
        }
        if (isIntervalTuple(ta) && tb instanceof DataTypeInterval) {
            return appended(a, b, !plus);
        }
        if (TypeRules.isTimeLike(ta) && (tb instanceof DataTypeInterval || isIntervalTuple(tb))) {
            return addAll(a, b, !plus);
        }
        if (plus && TypeRules.isTimeLike(tb) && (ta instanceof DataTypeInterval || isIntervalTuple(ta))) {
            return addAll(b, a, false);
        }
        return null;
    }

    /**
     * addInterval and subtractInterval (an interval or a tuple of them, and an interval: always a tuple), and
     * addTupleOfIntervals and subtractTupleOfIntervals (a date and a tuple of intervals).
     */
    static Evaluator compileTupleFunction(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        boolean minus = name.startsWith("subtract");
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        if (name.endsWith("TupleOfIntervals")) {
            if (!TypeRules.isTimeLike(ta)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + ta.name() + " of first argument of function "
                    + name + ". Should be a date or a date with time");
            }
            if (!isIntervalTuple(tb)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "intervals_tuple", name, "Tuple", tb);
            }
            return addAll(args.get(0), args.get(1), minus);
        }
        if (!(ta instanceof DataTypeInterval) && !isIntervalTuple(ta)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + ta.name() + " of first argument of function " + name
                + ", must be Tuple or Interval");
        }
        if (!(tb instanceof DataTypeInterval)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + tb.name() + " of second argument of function " + name
                + ", must be Interval");
        }
        return appended(ta instanceof DataTypeInterval ? tuple(List.of(args.get(0))) : args.get(0), args.get(1), minus);
    }

    static boolean isTupleFunction(String name) {
        return name.equals("addInterval") || name.equals("subtractInterval") || name.equals("addTupleOfIntervals")
            || name.equals("subtractTupleOfIntervals");
    }

    /** A tuple of intervals and one more: added to the last element when of its kind, else appended. */
    private static Evaluator appended(Evaluator tuple, Evaluator interval, boolean minus) {
        List<Evaluator> items = elements(tuple);
        Evaluator last = items.get(items.size() - 1);
        Evaluator more = minus ? negated(interval) : interval;
        if (last.type().name().equals(interval.type().unwrap().name())) {
            items.set(items.size() - 1, Functions.strict(last.type(), List.of(last, more), v -> (Long) v[0] + (Long) v[1]));
        } else {
            items.add(more);
        }
        return tuple(items);
    }

    private static boolean isIntervalTuple(DataType t) {
        return t instanceof TupleType && !((TupleType) t).elements.isEmpty()
            && ((TupleType) t).elements.stream().allMatch(e -> e instanceof DataTypeInterval);
    }

    /** The date {@code base} plus (or minus) an interval, or each interval of a tuple of them in turn. */
    private static Evaluator addAll(Evaluator base, Evaluator interval, boolean minus) {
        if (interval.type().unwrap() instanceof DataTypeInterval) {
            return add(base, ((DataTypeInterval) interval.type().unwrap()).unit, interval, minus);
        }
        Evaluator result = base;
        for (Evaluator e : elements(interval)) {
            result = add(result, ((DataTypeInterval) e.type()).unit, e, minus);
        }
        return result;
    }

    private static List<Evaluator> elements(Evaluator tuple) {
        List<DataType> types = ((TupleType) tuple.type().unwrap()).elements;
        List<Evaluator> out = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            int at = i;
            out.add(Evaluator.of(types.get(i), r -> ((List<?>) tuple.eval(r)).get(at)));
        }
        return out;
    }

    private static Evaluator tuple(List<Evaluator> items) {
        List<DataType> types = new ArrayList<>();
        for (Evaluator e : items) {
            types.add(e.type().unwrap());
        }
        return Functions.strict(DataTypes.tuple(types), items, v -> List.of(v));
    }

    private static Evaluator negated(Evaluator e) {
        return Functions.strict(e.type().unwrap(), List.of(e), v -> -(Long) v[0]);
    }

    /** {@code base} plus (or minus) {@code amount} of {@code unit}s, typed and computed as addSeconds, addDays ... are. */
    static Evaluator add(Evaluator base, String unit, Evaluator amount, boolean minus) {
        DataType u = base.type().unwrap();
        int subSecond = unit.equals("millisecond") ? 3 : unit.equals("microsecond") ? 6 : unit.equals("nanosecond") ? 9 : 0;
        boolean time = subSecond > 0 || unit.equals("second") || unit.equals("minute") || unit.equals("hour");
        String tz = u instanceof DateTimeType ? ((DateTimeType) u).tz : u instanceof DateTime64Type ? ((DateTime64Type) u).tz : null;
        DataType t = u;
        if (u instanceof DateType && subSecond > 0) {
            String fn = (minus ? "subtract" : "add") + capitalized(unit) + "s";
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, fn + " cannot be used with " + u.name());
        } else if (u instanceof DateType && time) {
            t = ((DateType) u).is32 ? DataTypes.dateTime64(3, null) : DataTypes.DATETIME;
        } else if (subSecond > (u instanceof DateTime64Type ? ((DateTime64Type) u).precision : 0)) {
            t = DataTypes.dateTime64(subSecond, tz);
        }
        DataType result = t;
        // ticks of the result per second, and the factor that takes the base's ticks (days of a Date) to them
        long scale = t instanceof DateTime64Type ? ((DateTime64Type) t).scale() : 1;
        long widen = u instanceof DateType && !(t instanceof DateType) ? 86400L * scale
            : u instanceof DateTime64Type ? scale / ((DateTime64Type) u).scale() : u instanceof DateTimeType ? scale : 1;
        long months = unit.equals("month") ? 1 : unit.equals("quarter") ? 3 : unit.equals("year") ? 12 : 0;
        long days = unit.equals("day") ? 1 : unit.equals("week") ? 7 : 0;
        long ticks = unit.equals("hour") ? 3600 * scale : unit.equals("minute") ? 60 * scale : unit.equals("second") ? scale
            : subSecond > 0 ? scale / Functions.pow10(subSecond) : 0;
        return Functions.defaultForNulls(t, List.of(base, amount), v -> {
            long n = (Long) v[1] * (minus ? -1 : 1);
            long x = (Long) v[0] * widen;
            if (result instanceof DateType) {
                long day = months != 0 ? LocalDate.ofEpochDay(x).plusMonths(n * months).toEpochDay() : x + n * days;
                return ((DateType) result).is32 ? day : Math.floorMod(day, 1L << 16);
            }
            long r;
            if (ticks != 0) {
                r = x + n * ticks;
            } else {
                ZoneId zone = tz == null ? SessionTimeZone.current() : dev.chdedup.stub.types.TimeZones.load(tz);
                long sec = Math.floorDiv(x, scale);
                r = onWallClock(sec, zone, n * days, n * months) * scale + Math.floorMod(x, scale);
            }
            return result instanceof DateTimeType ? Math.floorMod(r, 1L << 32) : r;
        });
    }

    /**
     * A date or time minus another of its kind, as the engine's minus takes them: two Dates give the Int32 days between
     * them, two DateTimes the Int32 seconds (wrapping as the engine's 32-bit difference does), a DateTime64 and a
     * DateTime64 or DateTime the seconds as a Decimal(18, S) of the finer precision; any other pair (a Date32 among them)
     * is ILLEGAL_TYPE_OF_ARGUMENT.
     */
    static Evaluator difference(List<Evaluator> args, DataType ta, DataType tb) {
        boolean dates = ta instanceof DateType && tb instanceof DateType && !((DateType) ta).is32 && !((DateType) tb).is32;
        if (dates || ta instanceof DateTimeType && tb instanceof DateTimeType) {
            return Functions.strict(DataTypes.INT32, args, v -> (long) (int) ((Long) v[0] - (Long) v[1]));
        }
        boolean times = (ta instanceof DateTime64Type || ta instanceof DateTimeType) && (tb instanceof DateTime64Type || tb instanceof DateTimeType);
        if (!times) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + ta.name() + " and " + tb.name()
                + " of arguments of function minus");
        }
        int pa = ta instanceof DateTime64Type ? ((DateTime64Type) ta).precision : 0;
        int pb = tb instanceof DateTime64Type ? ((DateTime64Type) tb).precision : 0;
        int scale = Math.max(pa, pb);
        return Functions.strict(DataTypes.decimal(18, scale), args,
            v -> java.math.BigDecimal.valueOf((Long) v[0], pa).subtract(java.math.BigDecimal.valueOf((Long) v[1], pb)).setScale(scale));
    }

    /**
     * The second {@code days} and {@code months} on in {@code zone}'s wall time; a time in a gap takes the later offset,
     * but the earlier from a time outside the engine's table of days (before 1900 or after 2299), which it reads apart.
     */
    private static long onWallClock(long sec, ZoneId zone, long days, long months) {
        ZoneRules rules = zone.getRules();
        LocalDateTime to = LocalDateTime.ofEpochSecond(sec, 0, rules.getOffset(Instant.ofEpochSecond(sec))).plusMonths(months).plusDays(days);
        ZoneOffsetTransition change = rules.getTransition(to);
        boolean outside = sec < -2208988800L + 2 * 86400 || sec >= 10413792000L - 2 * 86400;
        ZoneOffset offset = change != null && change.isGap() ? (outside ? change.getOffsetBefore() : change.getOffsetAfter())
            : rules.getValidOffsets(to).get(0);
        return to.toEpochSecond(offset);
    }
}
