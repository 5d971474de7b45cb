package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The conversions that give a default where the value does not convert exactly, as ClickHouse's accurateCastOrDefault
 * and the to*OrDefault functions: a number must keep its value in the target number type (1.5 and 300 are no Int8),
 * a string must be an integer's exact text for an integer type, and anything the target cannot parse fails; the
 * default is the last argument (of exactly the target type, else BAD_ARGUMENTS) or the type's zero (for Date32 its
 * first day, 1900-01-01). NULL converts to the default; the result is never Nullable unless the target is.
 */
final class AccurateConversion {
    /** Date32's zero of the OrZero and OrDefault conversions: 1900-01-01 as days since the epoch. */
    private static final long DATE32_ZERO = -25567;
    private static final Pattern INTEGER_TEXT = Pattern.compile("[-+]?[0-9]+");

    private AccurateConversion() {
    }

    /** The zero of {@code t} as the OrZero and OrDefault conversions give it. */
    static Object zero(DataType t) {
        return t instanceof DateType && ((DateType) t).is32 ? (Object) DATE32_ZERO : t.defaultValue();
    }

    /** {@code a} as {@code t}, or {@code fallback}'s value (the type's zero when null) where it does not convert exactly. */
    static Evaluator orDefault(String name, Evaluator a, DataType t, Evaluator fallback) {
        if (fallback != null && !sameIgnoringZone(fallback.type(), t)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Default value type should be same as cast type. Expected "
                + t.name() + ". Actual " + fallback.type().name());
        }
        Object zero = zero(t);
        DataType from = a.type();
        return Evaluator.of(t, r -> {
            Object v = a.eval(r);
            Object out = v == null ? null : convert(v, from, t);
            if (out != null || v != null && t.isNullable()) {
                return out;
            }
            return fallback == null ? zero : fallback.eval(r);
        });
    }

    /** Whether two types are one, a DateTime's or DateTime64's zone aside. */
    private static boolean sameIgnoringZone(DataType a, DataType b) {
        if (a instanceof DateTimeType && b instanceof DateTimeType) {
            return true;
        }
        if (a instanceof DateTime64Type && b instanceof DateTime64Type) {
            return ((DateTime64Type) a).precision == ((DateTime64Type) b).precision;
        }
        return a.equals(b);
    }

    /** {@code v} of type {@code from} exactly as a value of {@code t}, or null. */
    static Object convert(Object v, DataType from, DataType t) {
        DataType target = t.unwrap();
        if (from.unwrap() instanceof NothingType) {
            return null;
        }
        Object out;
        try {
            out = target.convert(v, from.unwrap());
        } catch (ChException | ArithmeticException | NumberFormatException | ClassCastException e) {
            return null;
        }
        boolean integer = target instanceof IntType || target instanceof BigIntType;
        if (!integer && !(target instanceof FloatType)) {
            return out;
        }
        BigDecimal source;
        if (v instanceof String) {
            if (!integer) {
                return out;
            }
            String s = (String) v;
            if (!INTEGER_TEXT.matcher(s).matches()) {
                return null;
            }
            source = new BigDecimal(s.startsWith("+") ? s.substring(1) : s);
        } else if (TypeRules.isNumeric(from)) {
            Number n = Values.toNumber(v, from.unwrap());
            if (n instanceof Double || n instanceof Float) {
                double d = n.doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    return target instanceof FloatType ? out : null;
                }
            }
            source = Values.toBigDecimal(n);
        } else {
            return out;
        }
        try {
            BigDecimal result = Values.toBigDecimal(Values.toNumber(out, target));
            return source.compareTo(result) == 0 ? out : null;
        } catch (NumberFormatException e) {
            // an infinite float from a finite number
            return null;
        }
    }

    /** accurateCastOrDefault(x, 'T'[, default]). */
    static Evaluator accurateCastOrDefault(List<Evaluator> args) {
        Functions.argumentCount("accurateCastOrDefault", args, 2, 1);
        DataType t = DataTypes.parse(Functions.constString(args.get(1)));
        return orDefault("accurateCastOrDefault", args.get(0), t, args.size() > 2 ? args.get(2) : null);
    }
}
