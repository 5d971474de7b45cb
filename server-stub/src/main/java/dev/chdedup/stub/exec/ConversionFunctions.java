package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * CAST and the to* conversions (toInt32, toString, toDate, toDateTime64, toDecimal64, ... with their OrZero and
 * OrNull forms), and the Unix-timestamp conversions the official JDBC driver sends literals with
 * ({@code fromUnixTimestamp64Nano}).
 */
final class ConversionFunctions {
    private ConversionFunctions() {
    }

    /** The interval units, as INTERVAL n unit and toIntervalUnit name them. */
    static final List<String> INTERVAL_UNITS = List.of("nanosecond", "microsecond", "millisecond", "second", "minute", "hour",
        "day", "week", "month", "quarter", "year");

    /** The seconds of 0000-01-01 00:00:00 and 9999-12-31 23:59:59, the bounds of a number toDateTime64 converts. */
    private static final double DATETIME64_MIN_SECONDS = -62167219200.0;
    private static final double DATETIME64_MAX_SECONDS = 253402300799.0;

    static boolean handles(String n) {
        return intervalUnit(n) != null || n.equals("toInterval") || n.equals("CAST") || n.equals("_CAST") || n.equals("accurateCast") || n.equals("accurateCastOrNull")
            || n.equals("accurateCastOrDefault")
            || n.startsWith("to") && target(strip(n), List.of()) != null
            || n.startsWith("fromUnixTimestamp") || n.startsWith("toUnixTimestamp");
    }

    private static String strip(String n) {
        if (n.endsWith("OrZero") || n.endsWith("OrNull")) {
            return n.substring(0, n.length() - 6);
        }
        if (n.endsWith("OrDefault")) {
            return n.substring(0, n.length() - 9);
        }
        return n;
    }

    /** The target type of a to* conversion, or null when {@code base} is not one. */
    private static DataType target(String base, List<Evaluator> args) {
        switch (base) {
            case "toInt8": case "toInt16": case "toInt32": case "toInt64": case "toInt128": case "toInt256":
            case "toUInt8": case "toUInt16": case "toUInt32": case "toUInt64": case "toUInt128": case "toUInt256":
            case "toFloat32": case "toFloat64": case "toString": case "toDate": case "toDate32": case "toUUID": case "toBool":
            case "toIPv4": case "toIPv6": case "toBFloat16":
                return DataTypes.parse(base.substring(2));
            case "toDateTime": case "toDateTime32":
                return args.size() > 1 ? DataTypes.dateTime(Functions.constString(args.get(1))) : DataTypes.DATETIME;
            case "toDateTime64":
                return args.size() < 2 ? DataTypes.dateTime64(3, null)
                    : DataTypes.dateTime64((int) Functions.constLong(args.get(1)), args.size() > 2 ? Functions.constString(args.get(2)) : null);
            case "toTime": return DataTypes.TIME;
            case "toTime64": return DataTypes.parse(args.size() > 1 ? "Time64(" + Functions.constLong(args.get(1)) + ")" : "Time64");
            case "toDecimal32": return args.isEmpty() ? DataTypes.decimal(9, 0) : DataTypes.decimal(9, (int) Functions.constLong(args.get(1)));
            case "toDecimal64": return args.isEmpty() ? DataTypes.decimal(18, 0) : DataTypes.decimal(18, (int) Functions.constLong(args.get(1)));
            case "toDecimal128": return args.isEmpty() ? DataTypes.decimal(38, 0) : DataTypes.decimal(38, (int) Functions.constLong(args.get(1)));
            case "toDecimal256": return args.isEmpty() ? DataTypes.decimal(76, 0) : DataTypes.decimal(76, (int) Functions.constLong(args.get(1)));
            case "toFixedString": return args.isEmpty() ? DataTypes.STRING : DataTypes.parse("FixedString(" + Functions.constLong(args.get(1)) + ")");
            default: return null;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (name.equals("accurateCastOrDefault")) {
            return AccurateConversion.accurateCastOrDefault(args);
        }
        if (name.endsWith("OrDefault")) {
            return orDefault(name, args);
        }
        if (name.equals("CAST") || name.equals("_CAST") || name.equals("accurateCast") || name.equals("accurateCastOrNull")) {
            Functions.arity(name, args, 2);
            DataType t = DataTypes.parse(Functions.constString(args.get(1)));
            if (name.equals("accurateCastOrNull")) {
                return orNull(args.get(0), t);
            }
            return cast(args.get(0), t);
        }
        String unit = intervalUnit(name);
        if (unit != null) {
            return toInterval(name, unit, args);
        }
        switch (name) {
            case "toInterval": {
                Functions.arity(name, args, 2);
                Evaluator u = args.get(1);
                if (!u.constant() || !Functions.isString(u.type())) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function toInterval must be constant string:"
                        + " unit of interval");
                }
                String given = Functions.constString(u);
                String lower = given.toLowerCase(java.util.Locale.ROOT);
                if (!INTERVAL_UNITS.contains(lower)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, given + " doesn't look like an interval unit in toInterval");
                }
                return toInterval(name, lower, args.subList(0, 1));
            }
            case "fromUnixTimestamp64Nano": return fromUnix(name, args, 9);
            case "fromUnixTimestamp64Micro": return fromUnix(name, args, 6);
            case "fromUnixTimestamp64Milli": return fromUnix(name, args, 3);
            case "fromUnixTimestamp64Second": return fromUnix(name, args, 0);
            case "toUnixTimestamp": return toUnixTimestamp(name, args);
            case "toUnixTimestamp64Milli": return toUnix64(name, args, 3);
            case "toUnixTimestamp64Micro": return toUnix64(name, args, 6);
            case "toUnixTimestamp64Nano": return toUnix64(name, args, 9);
            case "toUnixTimestamp64Second": return toUnix64(name, args, 0);
            default: break;
        }
        String base = strip(name);
        if (base.equals("toTime") && args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "An incorrect number of arguments was specified for function '"
                + name + "'. Expected 1 argument, got " + args.size() + " arguments");
        }
        DataType t = target(base, args);
        Evaluator a = args.get(0);
        if ((base.equals("toTime") || base.equals("toTime64")) && a.type().unwrap() instanceof DateType) {
            // a date is its midnight, where CAST refuses it
            a = cast(a, a.type().isNullable() ? DataTypes.nullable(DataTypes.DATETIME) : DataTypes.DATETIME);
        }
        if (name.endsWith("OrNull")) {
            if (t instanceof dev.chdedup.stub.types.DateTimeType && TypeRules.isInteger(a.type())) {
                // a number of seconds outside DateTime's range is no DateTime
                Evaluator arg = a;
                Evaluator n = orNull(arg, t);
                DataType from = arg.type();
                return Evaluator.of(n.type(), r -> {
                    Object v = arg.eval(r);
                    if (v == null) {
                        return null;
                    }
                    java.math.BigDecimal x = Values.toBigDecimal(Values.toNumber(v, from.unwrap()));
                    return x.signum() < 0 || x.compareTo(java.math.BigDecimal.valueOf(0xFFFFFFFFL)) > 0 ? null : n.eval(r);
                });
            }
            return orNull(a, t);
        }
        if (name.endsWith("OrZero")) {
            Evaluator n = orNull(a, t);
            Object zero = AccurateConversion.zero(t);
            return Evaluator.of(t, r -> {
                Object v = n.eval(r);
                return v == null ? zero : v;
            });
        }
        if (base.equals("toDateTime64") && Functions.isString(a.type()) == false && TypeRules.isNumeric(a.type())) {
            DataType ft = a.type();
            DataType tt = t;
            // seconds clamped to the years 0000 .. 9999, as the engine does
            return Functions.strict(tt, List.of(a), v -> tt.convert(Math.max(DATETIME64_MIN_SECONDS,
                Math.min(DATETIME64_MAX_SECONDS, Values.toNumber(v[0], ft).doubleValue())), DataTypes.FLOAT64));
        }
        // unlike CAST, a to* conversion of a Nullable value is Nullable: toInt32(NULL::Nullable(UInt64)) is NULL
        if ((a.type().isNullable() || a.type().unwrap() instanceof NothingType) && !t.isNullable()) {
            return cast(a, DataTypes.nullable(t));
        }
        return cast(a, t);
    }

    /**
     * to*OrDefault(x[, scale][, zone][, default]): the conversion's own arguments, then the default when one more is
     * given (for toDateTime one that is not the zone's String).
     */
    private static Evaluator orDefault(String name, List<Evaluator> args) {
        String base = strip(name);
        Functions.argumentCount(name, args, 1, 3);
        int own;
        switch (base) {
            case "toDecimal32": case "toDecimal64": case "toDecimal128": case "toDecimal256": own = 2; break;
            case "toDateTime64": own = 3; break;
            case "toDateTime": own = args.size() == 2 && !Functions.isString(args.get(1).type()) ? 1 : 2; break;
            default: own = 1;
        }
        boolean hasDefault = args.size() > own;
        List<Evaluator> conversion = hasDefault ? args.subList(0, args.size() - 1) : args;
        DataType t = target(base, conversion);
        Evaluator a = args.get(0);
        return AccurateConversion.orDefault(name, a, t, hasDefault ? args.get(args.size() - 1) : null);
    }

    /** The unit of {@code toIntervalDay} and its family ({@code day}), or null for another name. */
    static String intervalUnit(String name) {
        if (!name.startsWith("toInterval") || name.length() <= "toInterval".length()) {
            return null;
        }
        String unit = name.substring("toInterval".length());
        String lower = unit.toLowerCase(java.util.Locale.ROOT);
        return INTERVAL_UNITS.contains(lower) && unit.equals(Character.toUpperCase(lower.charAt(0)) + lower.substring(1)) ? lower : null;
    }

    /**
     * toIntervalDay(n) and the rest: an Int64 count of units, from an integer, a date, a float (truncated) or a string
     * holding an integer. INTERVAL n unit is this function too. Mirrors ClickHouse's FunctionToInterval conversions.
     */
    static Evaluator toInterval(String name, String unit, List<Evaluator> args) {
        Functions.argumentCount(name, args, 1, 0);
        Evaluator a = args.get(0);
        DataType t = TypeRules.stripNullable(a.type());
        DataTypeInterval it = new DataTypeInterval(unit);
        if (Functions.isString(t)) {
            return Functions.defaultForNulls(it, args, v -> parseIntervalCount((String) v[0], it));
        }
        if (!TypeRules.isInteger(t) && !Functions.isFloat(t) && !TypeRules.isTimeLike(t) && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        return Functions.defaultForNulls(it, args, v -> {
            Number n = Values.toNumber(v[0], t);
            if ((n instanceof Double || n instanceof Float) && !Double.isFinite(n.doubleValue())) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Unexpected inf or nan to integer conversion");
            }
            return Values.toLong(n);
        });
    }

    /** The Int64 a string holds, read as readIntText reads it: digits only after an optional sign, wrapping on overflow. */
    private static long parseIntervalCount(String s, DataTypeInterval it) {
        int i = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        int digits = i;
        long n = 0;
        while (digits < s.length() && s.charAt(digits) >= '0' && s.charAt(digits) <= '9') {
            n = n * 10 + (s.charAt(digits++) - '0');
        }
        if (digits == s.length() && digits > i) {
            return s.startsWith("-") ? -n : n;
        }
        throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse string '" + s + "' as " + it.name() + ": syntax error "
            + (digits > i ? "at position " + digits + " (parsed just '" + s.substring(0, digits) + "')" : "at begin of string"));
    }

    /** CAST(a AS t): keeps Nullable-ness only when {@code t} is Nullable; NULL into non-Nullable fails. */
    static Evaluator cast(Evaluator a, DataType t) {
        DataType from = a.type();
        if (from.equals(t)) {
            return a;
        }
        boolean targetNullable = t.isNullable();
        boolean sourceNullable = from.isNullable() || from.unwrap() instanceof NothingType;
        DataType result = sourceNullable && !targetNullable && !(t instanceof dev.chdedup.stub.types.LowCardinalityType) ? t : t;
        boolean fromTyped = TypeRules.isVariantOrDynamic(from);
        boolean toTyped = TypeRules.isVariantOrDynamic(t);
        if (from.unwrap() instanceof JsonType && !(t.unwrap() instanceof JsonType || t.unwrap() instanceof StringType || toTyped)) {
            throw new ChException(t.unwrap() instanceof dev.chdedup.stub.types.MapType ? ErrorCode.TYPE_MISMATCH : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT,
                "Illegal type " + from.name() + " of argument of function CAST to " + t.name());
        }
        return Evaluator.of(result, r -> {
            Object v = a.eval(r);
            if (v == null) {
                if (targetNullable) {
                    return null;
                }
                if (fromTyped) {
                    // a Dynamic or Variant NULL becomes the default of a type that cannot hold it
                    return t.defaultValue();
                }
                throw new ChException(ErrorCode.CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, "Cannot convert NULL value to non-Nullable type " + t.name());
            }
            if (fromTyped && !toTyped) {
                // from Dynamic or Variant: the value converted from its own type
                TypedValue tv = (TypedValue) v;
                if (t.unwrap() instanceof JsonType && !(tv.type() instanceof StringType || tv.type() instanceof JsonType)) {
                    throw new ChException(ErrorCode.TYPE_MISMATCH, "Cannot convert " + tv.type().name() + " to " + t.name());
                }
                return tv.type().equals(t) ? tv.value() : t.convert(tv.value(), tv.type());
            }
            return t.convert(v, from);
        });
    }

    static Evaluator orNull(Evaluator a, DataType t) {
        DataType from = a.type();
        return Evaluator.of(DataTypes.nullable(t), r -> {
            Object v = a.eval(r);
            if (v == null) {
                return null;
            }
            try {
                return t.convert(v, from);
            } catch (ChException | ArithmeticException | NumberFormatException e) {
                return null;
            }
        });
    }

    /**
     * toUnixTimestamp(value[, zone]): the UInt32 seconds since the epoch of a DateTime, a DateTime64 (cut toward zero; out
     * of UInt32 DECIMAL_OVERFLOW), a Date or Date32 (its midnight in UTC), a Time, a number, or a String read as a DateTime
     * in the zone; wrapped to 32 bits.
     */
    private static Evaluator toUnixTimestamp(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 1, 1);
        String tz = DateLUT.zoneArgument(name, args, 1);
        Evaluator a = args.get(0);
        DataType u = a.type().unwrap();
        DataType parsed = DataTypes.dateTime(tz);
        return Functions.defaultForNulls(DataTypes.UINT32, List.of(a), v -> {
            long sec;
            if (Functions.isString(u)) {
                sec = (Long) parsed.convert(v[0], u);
            } else if (u instanceof DateType) {
                sec = (Long) v[0] * 86400L;
            } else if (u instanceof DateTime64Type) {
                sec = (Long) v[0] / ((DateTime64Type) u).scale();
                if (sec < 0 || sec > 0xFFFFFFFFL) {
                    throw new ChException(ErrorCode.DECIMAL_OVERFLOW, "Convert overflow");
                }
            } else {
                sec = Values.toLong(Values.toNumber(v[0], u));
            }
            return sec & 0xFFFFFFFFL;
        });
    }

    /** fromUnixTimestamp64Milli and its family: an integer count of 10^-precision seconds as a DateTime64 of that precision. */
    private static Evaluator fromUnix(String name, List<Evaluator> args, int precision) {
        Functions.argumentCount(name, args, 1, 1);
        String tz = DateLUT.zoneArgument(name, args, 1);
        DataType t = DataTypes.dateTime64(precision, tz);
        Evaluator a = args.get(0);
        if (!TypeRules.isInteger(a.type()) && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument for function " + name + " must be integer");
        }
        return Functions.defaultForNulls(t, List.of(a), v -> Values.toLong(Values.toNumber(v[0], a.type())));
    }

    /** toUnixTimestamp64Milli and its family: a DateTime64 as an Int64 count of 10^-precision seconds, cut toward zero. */
    private static Evaluator toUnix64(String name, List<Evaluator> args, int precision) {
        Functions.argumentCount(name, args, 1, 0);
        Evaluator a = args.get(0);
        DataType u = a.type().unwrap();
        if (!(u instanceof DateTime64Type) && !Functions.isNothing(a)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "value", name, "DateTime64", a.type());
        }
        long from = u instanceof DateTime64Type ? ((DateTime64Type) u).scale() : 1;
        long to = Functions.pow10(precision);
        return Functions.defaultForNulls(DataTypes.INT64, List.of(a), v -> to >= from ? (Long) v[0] * (to / from) : (Long) v[0] / (from / to));
    }
}
