package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.util.List;
import java.util.function.Function;

/**
 * The key a dictionary function looks up, made from its arguments as ClickHouse's FunctionDictHelper makes it: a
 * simple key converted to UInt64 without loss (CANNOT_CONVERT_TYPE for a negative or fractional number, as
 * accurateCast), a complex key as a tuple of the key's types (one part may be given bare), a range dictionary's point
 * converted to the range's type; a NULL argument makes the lookup NULL.
 */
final class DictionaryKeys {
    private DictionaryKeys() {
    }

    /** How a call finds its key (null when an argument is NULL) and range point in a row. */
    record Lookup(Function<Object[], Object[]> key, Evaluator range, boolean nullable) {
        Object point(Object[] row) {
            return range == null ? null : range.eval(row);
        }
    }

    static Lookup lookup(String function, IDictionary dict, Evaluator keyArg, Evaluator rangeArg, String ordinal) {
        boolean nullable = nullable(keyArg) || rangeArg != null && nullable(rangeArg);
        Function<Object[], Object[]> key = dict.isComplexKey() ? complexKey(function, dict, keyArg, ordinal) : simpleKey(keyArg);
        Evaluator range = rangeArg == null ? null : rangePoint(function, dict.rangeType(), rangeArg);
        Function<Object[], Object[]> withRange = range == null ? key : r -> range.eval(r) == null ? null : key.apply(r);
        return new Lookup(withRange, range, nullable);
    }

    private static boolean nullable(Evaluator e) {
        return e.type().isNullable() || e.type().unwrap() instanceof NothingType;
    }

    /** A simple key: the argument converted to UInt64 without loss, as the engine's accurate cast does. */
    static Function<Object[], Object[]> simpleKey(Evaluator arg) {
        if (arg.type().unwrap() instanceof TupleType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + arg.type().name() + " of argument of function toUInt64");
        }
        DataType from = arg.type();
        return r -> {
            Object v = arg.eval(r);
            return v == null ? null : new Object[] {accurate(v, from, DataTypes.UINT64)};
        };
    }

    private static Function<Object[], Object[]> complexKey(String function, IDictionary dict, Evaluator arg, String ordinal) {
        List<Column> keys = dict.keyColumns();
        if (!(arg.type().unwrap() instanceof TupleType)) {
            if (keys.size() > 1) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, ordinal + " argument of function " + function + " must be tuple"
                    + " when dictionary is complex and key contains more than 1 attribute.Actual type " + arg.type().name());
            }
            DataType from = arg.type();
            DataType to = keys.get(0).type();
            return r -> {
                Object v = arg.eval(r);
                return v == null ? null : new Object[] {accurate(v, from, to)};
            };
        }
        TupleType t = (TupleType) arg.type().unwrap();
        if (t.elements.size() != keys.size()) {
            StringBuilder expected = new StringBuilder();
            for (Column k : keys) {
                expected.append(expected.length() == 0 ? "" : ", ").append(k.type().name());
            }
            throw new ChException(ErrorCode.TYPE_MISMATCH, "Dictionary " + dict.getFullName() + " key lookup structure does not match,"
                + " expected (" + expected + ")");
        }
        return r -> {
            List<?> v = (List<?>) arg.eval(r);
            if (v == null) {
                return null;
            }
            Object[] key = new Object[keys.size()];
            for (int i = 0; i < key.length; i++) {
                Object p = v.get(i);
                key[i] = p == null ? null : accurate(p, t.elements.get(i), keys.get(i).type());
            }
            return key;
        };
    }

    private static Evaluator rangePoint(String function, DataType to, Evaluator arg) {
        DataType from = arg.type().unwrap();
        if (from instanceof StringType || from instanceof TupleType) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal type " + arg.type().name() + " of fourth argument of function "
                + function + " must be convertible to Int64");
        }
        return Evaluator.of(to, r -> {
            Object v = arg.eval(r);
            if (v == null) {
                return null;
            }
            if (from instanceof FloatType) {
                v = (long) Math.floor(((Number) v).doubleValue());
                return to.convert(v, DataTypes.INT64);
            }
            return from.equals(to.unwrap()) ? v : to.convert(v, arg.type());
        });
    }

    /**
     * {@code v} of type {@code from} as a value of {@code to}: an integer or a float that is one must fit the integer
     * type (CANNOT_CONVERT_TYPE otherwise, as accurateCast refuses it), anything else converts as CAST does.
     */
    static Object accurate(Object v, DataType from, DataType to) {
        DataType f = from.unwrap();
        DataType t = to.unwrap();
        if (f.equals(t)) {
            return v;
        }
        if (t instanceof IntType target && (f instanceof IntType || f instanceof FloatType || f instanceof dev.chdedup.stub.types.BoolType)) {
            BigInteger b;
            if (f instanceof FloatType) {
                double d = ((Number) v).doubleValue();
                if (d != Math.rint(d) || Double.isInfinite(d)) {
                    throw unsafe(from, to);
                }
                b = new java.math.BigDecimal(d).toBigInteger();
            } else {
                b = Values.toBigInteger(Values.toNumber(v, f));
            }
            BigInteger min = target.signed ? BigInteger.ONE.shiftLeft(target.bits - 1).negate() : BigInteger.ZERO;
            BigInteger max = target.signed ? BigInteger.ONE.shiftLeft(target.bits - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(target.bits).subtract(BigInteger.ONE);
            if (b.compareTo(min) < 0 || b.compareTo(max) > 0) {
                throw unsafe(from, to);
            }
            return b.longValue();
        }
        return to.convert(v, from);
    }

    private static ChException unsafe(DataType from, DataType to) {
        return new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Value in column " + from.name() + " cannot be safely converted into type "
            + to.name());
    }
}
