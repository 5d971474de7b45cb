package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * The parameters of a parametric aggregate ({@code groupArray(3)(x)}: the constants in the first parentheses), with
 * their types, and the checks ClickHouse's aggregate functions make of them (their count, a positive integer, a
 * number, a string), with the engine's errors.
 */
public record AggregateParameters(List<Object> values, List<DataType> types) {
    public static final AggregateParameters NONE = new AggregateParameters(List.of(), List.of());

    public AggregateParameters {
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
        types = List.copyOf(types);
    }

    public int size() {
        return values.size();
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** These parameters without the first {@code n} (a combinator's own, as -Resample's). */
    public AggregateParameters drop(int n) {
        return new AggregateParameters(values.subList(n, values.size()), types.subList(n, types.size()));
    }

    /** These parameters without the last {@code n}. */
    public AggregateParameters dropLast(int n) {
        return new AggregateParameters(values.subList(0, values.size() - n), types.subList(0, types.size() - n));
    }

    /** ClickHouse's assertNoParameters: AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS. */
    public void none(String function) {
        if (!values.isEmpty()) {
            throw new ChException(ErrorCode.AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS, "Aggregate function " + function
                + " cannot have parameters");
        }
    }

    /** Checks there are {@code min} to {@code max} parameters. */
    public void count(String function, int min, int max) {
        if (values.size() < min || values.size() > max) {
            String should = min == max ? String.valueOf(min) : max == min + 1 ? min + " or " + max : min + " to " + max;
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of parameters for aggregate function "
                + function + ", should be " + should);
        }
    }

    public Object get(int i) {
        return values.get(i);
    }

    public DataType type(int i) {
        return types.get(i).unwrap();
    }

    public boolean isInteger(int i) {
        return type(i) instanceof IntType && !(values.get(i) instanceof Boolean);
    }

    public boolean isNumber(int i) {
        DataType t = type(i);
        return t instanceof IntType || t instanceof FloatType || t instanceof DecimalType;
    }

    /** Parameter {@code i} as a positive integer, else BAD_ARGUMENTS "Parameter for aggregate function f should be positive number". */
    public long positive(String function, int i) {
        if (!isInteger(i) || signum(values.get(i)) <= 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Parameter for aggregate function " + function + " should be positive number");
        }
        return asLong(i);
    }

    /** Parameter {@code i} as a long (a UInt64 above Long.MAX_VALUE saturates). */
    public long asLong(int i) {
        Object v = values.get(i);
        if (v instanceof BigInteger b) {
            return b.bitLength() > 63 ? (b.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : b.longValue();
        }
        if (v instanceof Long l && type(i) instanceof IntType it && !it.signed && l < 0) {
            return Long.MAX_VALUE;
        }
        return ((Number) v).longValue();
    }

    /** Parameter {@code i} as a double; a non-number is CANNOT_CONVERT_TYPE as ClickHouse's applyVisitor(FieldVisitorConvertToNumber). */
    public double asDouble(int i) {
        if (!isNumber(i)) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + fieldName(i) + " to Float64");
        }
        Object v = values.get(i);
        if (v instanceof Long l && type(i) instanceof IntType it && !it.signed && l < 0) {
            return new BigInteger(Long.toUnsignedString(l)).doubleValue();
        }
        return ((Number) v).doubleValue();
    }

    /** Parameter {@code i} as a string, or null when it is not one. */
    public String asString(int i) {
        return type(i) instanceof StringType && values.get(i) != null ? dev.chdedup.stub.types.ByteStrings.toText(values.get(i).toString()) : null;
    }

    /** ClickHouse's Field type name of parameter {@code i}, as its conversion errors name it. */
    public String fieldName(int i) {
        DataType t = type(i);
        if (t instanceof StringType) {
            return "String";
        }
        if (t instanceof IntType it) {
            return it.signed ? "Int64" : "UInt64";
        }
        if (t instanceof FloatType) {
            return "Float64";
        }
        return t.name();
    }

    private static int signum(Object v) {
        if (v instanceof Long l) {
            return Long.signum(l);
        }
        if (v instanceof BigInteger b) {
            return b.signum();
        }
        if (v instanceof BigDecimal d) {
            return d.signum();
        }
        return (int) Math.signum(((Number) v).doubleValue());
    }
}
