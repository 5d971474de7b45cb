package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.math.BigDecimal;
import java.math.BigInteger;

/** Conversions between the Java representations of values, used by casts and by the SQL engine. */
public final class Values {
    private Values() {
    }

    public static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** The numeric value of {@code v} (of type {@code t}) as a Java number, UInt64 as BigInteger when large. */
    public static Number toNumber(Object v, DataType t) {
        DataType u = t.unwrap();
        if (v instanceof Long && u instanceof IntType && !((IntType) u).signed && ((IntType) u).bits == 64
            && (Long) v < 0) {
            return new BigInteger(Long.toUnsignedString((Long) v));
        }
        if (v instanceof Long && u instanceof TimeType && ((TimeType) u).precision > 0) {
            // a Time64 as a number is its seconds
            return BigDecimal.valueOf((Long) v, ((TimeType) u).precision);
        }
        if (v instanceof Number) {
            return (Number) v;
        }
        if (v instanceof Boolean) {
            return ((Boolean) v) ? 1L : 0L;
        }
        if (v instanceof String) {
            String s = ((String) v).trim();
            try {
                if (s.indexOf('.') >= 0 || s.indexOf('e') >= 0 || s.indexOf('E') >= 0 || s.equalsIgnoreCase("nan")
                    || s.toLowerCase().contains("inf")) {
                    return parseDouble(s);
                }
                return new BigInteger(s.startsWith("+") ? s.substring(1) : s);
            } catch (NumberFormatException e) {
                throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse string '" + s + "' as a number");
            }
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + t.name() + " to a number");
    }

    public static double parseDouble(String s) {
        String l = s.trim().toLowerCase();
        switch (l) {
            case "nan": case "+nan": case "-nan": return Double.NaN;
            case "inf": case "+inf": case "infinity": return Double.POSITIVE_INFINITY;
            case "-inf": case "-infinity": return Double.NEGATIVE_INFINITY;
            default: return Double.parseDouble(l);
        }
    }

    public static long toLong(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) {
                return 0;
            }
            if (d >= 9.223372036854775807E18) {
                return new BigDecimal(d).toBigInteger().longValue();
            }
            return (long) d;
        }
        if (n instanceof BigInteger) {
            return n.longValue();
        }
        if (n instanceof BigDecimal) {
            return ((BigDecimal) n).toBigInteger().longValue();
        }
        return n.longValue();
    }

    public static BigInteger toBigInteger(Number n) {
        if (n instanceof BigInteger) {
            return (BigInteger) n;
        }
        if (n instanceof BigDecimal) {
            return ((BigDecimal) n).toBigInteger();
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.doubleValue()).toBigInteger();
        }
        return BigInteger.valueOf(n.longValue());
    }

    public static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal) {
            return (BigDecimal) n;
        }
        if (n instanceof BigInteger) {
            return new BigDecimal((BigInteger) n);
        }
        if (n instanceof Double || n instanceof Float) {
            return new BigDecimal(n.toString());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    public static boolean isTrue(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean) {
            return (Boolean) v;
        }
        if (v instanceof Long) {
            return (Long) v != 0;
        }
        if (v instanceof Number) {
            return ((Number) v).doubleValue() != 0;
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type of filter value: " + (v instanceof String ? "String" : v instanceof java.util.List ? "Array" : "a non-numeric value"));
    }

    /** Text of a value as the plain text format would show it. */
    public static String text(Object v, DataType t) {
        StringBuilder sb = new StringBuilder();
        t.formatText(v, sb);
        return sb.toString();
    }
}
