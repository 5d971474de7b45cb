package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.exec.JSONDocument.JsonObject;
import dev.chdedup.stub.exec.JSONDocument.JsonUInt64;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A JSON element converted to a ClickHouse type, as ClickHouse's JSONExtractTree does for JSONExtract: numbers from
 * numbers, bools and numeric strings (an integer type's range checked, a fraction cut toward zero); String from a
 * string or the element's raw text; Nullable NULL from null or what does not convert; Array from an array (an element
 * that does not convert is its type's default); Tuple from an array by position or an object by name (unnamed: by
 * position); Map from an object; Enum from a name or a value; other types from their text in a string.
 */
final class JSONExtractTree {
    /** No value of the type: the caller's default. */
    static final Object FAIL = new Object();
    private static final Pattern NUMBER = Pattern.compile("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");

    private JSONExtractTree() {
    }

    /**
     * The number an element holds as {@code t} (an integer or float type, or UInt8 for a bool), or null when it holds
     * none. {@code fromBool}: true and false are 1 and 0 (JSONExtract), else no number (JSONExtractInt).
     */
    static Object number(Object e, DataType t, boolean fromBool) {
        BigDecimal d;
        if (e instanceof Long) {
            d = BigDecimal.valueOf((Long) e);
        } else if (e instanceof JsonUInt64) {
            d = new BigDecimal(Long.toUnsignedString(((JsonUInt64) e).bits()));
        } else if (e instanceof Double) {
            if (t instanceof FloatType) {
                return ((FloatType) t).is64 ? e : (Object) (float) (double) (Double) e;
            }
            d = new BigDecimal((Double) e);
        } else if (e instanceof Boolean && fromBool) {
            d = (Boolean) e ? BigDecimal.ONE : BigDecimal.ZERO;
        } else if (e instanceof String && NUMBER.matcher((String) e).matches()) {
            d = new BigDecimal((String) e);
        } else {
            return null;
        }
        if (t instanceof FloatType) {
            double x = d.doubleValue();
            return ((FloatType) t).is64 ? (Object) x : (Object) (float) x;
        }
        BigInteger i = d.setScale(0, RoundingMode.DOWN).toBigInteger();
        int bits;
        boolean signed;
        if (t instanceof IntType) {
            bits = ((IntType) t).bits;
            signed = ((IntType) t).signed;
        } else if (t instanceof BigIntType) {
            bits = ((BigIntType) t).bits;
            signed = ((BigIntType) t).signed;
        } else {
            return null;
        }
        if (signed ? i.bitLength() >= bits : i.signum() < 0 || i.bitLength() > bits) {
            return null;
        }
        return t instanceof BigIntType ? (Object) i : (Object) i.longValue();
    }

    /** The element as a value of {@code t}, or {@link #FAIL}. */
    static Object convert(Object e, DataType t, boolean ci) {
        if (t instanceof LowCardinalityType) {
            return convert(e, ((LowCardinalityType) t).inner, ci);
        }
        if (t instanceof NullableType) {
            if (e == JSONDocument.NULL) {
                return null;
            }
            Object v = convert(e, ((NullableType) t).inner, ci);
            return v == FAIL ? null : v;
        }
        if (e == JSONDocument.NULL) {
            return FAIL;
        }
        if (t instanceof IntType || t instanceof BigIntType || t instanceof FloatType) {
            Object v = number(e, t, true);
            return v == null ? FAIL : v;
        }
        if (t instanceof BoolType) {
            if (e instanceof Boolean) {
                return e;
            }
            Object v = e instanceof String ? null : number(e, DataTypes.UINT8, false);
            return v == null ? FAIL : (Object) ((Long) v != 0);
        }
        if (t instanceof StringType) {
            String s = e instanceof String ? (String) e : JSONDocument.raw(e);
            return text(s, t);
        }
        if (t instanceof EnumType) {
            EnumType en = (EnumType) t;
            if (e instanceof String) {
                Long code = en.codeOf((String) e);
                return code == null ? FAIL : code;
            }
            Object n = number(e, DataTypes.INT64, false);
            return n == null || en.nameOf((Long) n) == null ? FAIL : n;
        }
        if (t instanceof ArrayType) {
            if (!(e instanceof List)) {
                return FAIL;
            }
            DataType element = ((ArrayType) t).element;
            List<Object> out = new ArrayList<>();
            for (Object x : (List<?>) e) {
                Object v = convert(x, element, ci);
                out.add(v == FAIL ? element.defaultValue() : v);
            }
            return Collections.unmodifiableList(out);
        }
        if (t instanceof TupleType) {
            return tuple(e, (TupleType) t, ci);
        }
        if (t instanceof MapType) {
            MapType m = (MapType) t;
            if (!(e instanceof JsonObject)) {
                return FAIL;
            }
            JsonObject o = (JsonObject) e;
            Map<Object, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < o.keys().size(); i++) {
                Object k = convert(o.keys().get(i), m.key, ci);
                Object v = convert(o.values().get(i), m.value, ci);
                if (k != FAIL) {
                    out.put(k, v == FAIL ? m.value.defaultValue() : v);
                }
            }
            return Collections.unmodifiableMap(out);
        }
        // dates, decimals, UUIDs, addresses: from a string's text; decimals and DateTime also from a number
        try {
            if (e instanceof String) {
                return t.convert(e, DataTypes.STRING);
            }
            if (!(t instanceof DecimalType || t instanceof DateTimeType)) {
                return FAIL;
            }
            if (e instanceof Long) {
                return t.convert(e, DataTypes.INT64);
            }
            if (e instanceof Double) {
                return t.convert(e, DataTypes.FLOAT64);
            }
        } catch (ChException | ArithmeticException | NumberFormatException ex) {
            return FAIL;
        }
        return FAIL;
    }

    private static Object text(String s, DataType t) {
        int n = ((StringType) t).fixedLength;
        if (n == 0) {
            return s;
        }
        if (s.length() > n) {
            return FAIL;
        }
        return s + "\0".repeat(n - s.length());
    }

    private static Object tuple(Object e, TupleType t, boolean ci) {
        List<Object> out = new ArrayList<>(Arrays.asList(new Object[t.elements.size()]));
        if (e instanceof List) {
            List<?> l = (List<?>) e;
            for (int i = 0; i < out.size(); i++) {
                out.set(i, element(i < l.size() ? l.get(i) : FAIL, t.elements.get(i), ci));
            }
        } else if (e instanceof JsonObject) {
            JsonObject o = (JsonObject) e;
            for (int i = 0; i < out.size(); i++) {
                Object x;
                if (t.names != null) {
                    // element names match exactly, also in the CaseInsensitive functions
                    x = FunctionsJSON.member(o, t.names.get(i), false, new String[1]);
                } else {
                    x = i < o.values().size() ? o.values().get(i) : null;
                }
                out.set(i, element(x == null ? FAIL : x, t.elements.get(i), ci));
            }
        } else {
            return FAIL;
        }
        return Collections.unmodifiableList(out);
    }

    private static Object element(Object x, DataType t, boolean ci) {
        Object v = x == FAIL ? FAIL : convert(x, t, ci);
        return v == FAIL ? t.defaultValue() : v;
    }
}
