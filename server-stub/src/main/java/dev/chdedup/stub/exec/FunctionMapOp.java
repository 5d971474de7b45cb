package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * mapAdd, mapSubtract and mapPopulateSeries, after ClickHouse's mapOp.cpp and mapPopulateSeries.cpp. They take maps, or
 * tuples of a key array and a value array, and give the same shape back with the keys sorted. mapAdd and mapSubtract
 * (two or more arguments, keys all of one type) sum the values of equal keys as an Int64 when the values are signed
 * integers, a UInt64 when unsigned (wrapping), a Float64 when floats; mixed kinds are ILLEGAL_TYPE_OF_ARGUMENT.
 * mapPopulateSeries fills the integer keys from the smallest to the largest (or to a given maximum, converted to the
 * key type exactly) with the value type's default; a repeated key keeps its first value.
 */
final class FunctionMapOp {
    private FunctionMapOp() {
    }

    static boolean handles(String n) {
        return n.equals("mapAdd") || n.equals("mapSubtract") || n.equals("mapPopulateSeries");
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        return name.equals("mapPopulateSeries") ? populateSeries(name, args) : mapOp(name, args);
    }

    /** The key and value types of a map, or of a tuple of two arrays; null for another type. */
    private static DataType[] shape(DataType t) {
        if (t instanceof MapType) {
            return new DataType[] {((MapType) t).key, ((MapType) t).value};
        }
        if (t instanceof TupleType && ((TupleType) t).elements.size() == 2 && ((TupleType) t).elements.get(0).unwrap() instanceof ArrayType
            && ((TupleType) t).elements.get(1).unwrap() instanceof ArrayType) {
            List<DataType> e = ((TupleType) t).elements;
            return new DataType[] {((ArrayType) e.get(0).unwrap()).element, ((ArrayType) e.get(1).unwrap()).element};
        }
        return null;
    }

    /** The keys and values of a map or a tuple of two arrays, in order. */
    private static List<Map.Entry<Object, Object>> pairs(Object v, boolean map, String error, ErrorCode code) {
        if (map) {
            return MapEntries.entries(v);
        }
        List<?> t = (List<?>) v;
        List<?> keys = (List<?>) t.get(0);
        List<?> values = (List<?>) t.get(1);
        if (keys.size() != values.size()) {
            throw new ChException(code, error);
        }
        return MapEntries.entries(MapEntries.of(keys, values));
    }

    private static Object result(boolean map, List<Object> keys, List<Object> values) {
        if (map) {
            return MapEntries.of(keys, values);
        }
        return List.of(Collections.unmodifiableList(keys), Collections.unmodifiableList(values));
    }

    private static Evaluator mapOp(String name, List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, name + " accepts at least two maps");
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        DataType key = null;
        DataType value = null;
        boolean map = args.get(0).type().unwrap() instanceof MapType;
        boolean signed = false;
        boolean floating = false;
        for (Evaluator a : args) {
            DataType t = a.type().unwrap();
            DataType[] s = shape(t);
            if (s == null || (t instanceof MapType) != map) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, name + " accepts at least two maps");
            }
            if (key != null && !key.equals(s[0])) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Expected same " + key.name() + " type for all keys in " + name);
            }
            key = s[0];
            DataType v = s[1];
            if (!(v instanceof IntType || v instanceof FloatType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Values to be summed are expected to be Numeric, Float or Decimal");
            }
            boolean f = v instanceof FloatType;
            if (value != null && floating != f) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "All value types in " + name + " should be either or float or integer");
            }
            floating = f;
            signed |= v instanceof IntType && ((IntType) v).signed;
            value = v;
        }
        for (Evaluator a : args) {
            DataType v = shape(a.type().unwrap())[1];
            if (signed && v instanceof IntType && !((IntType) v).signed) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "All value types in " + name + " should be promotable to Int64, got UInt64");
            }
        }
        DataType resultValue = floating ? DataTypes.FLOAT64 : signed ? DataTypes.INT64 : DataTypes.UINT64;
        DataType resultType = map ? DataTypes.map(key, resultValue) : DataTypes.tuple(List.of(DataTypes.array(key), DataTypes.array(resultValue)));
        DataType kt = key;
        boolean fl = floating;
        boolean minus = name.equals("mapSubtract");
        return Functions.strict(resultType, args, v -> {
            TreeMap<Object, Object> sums = new TreeMap<>(kt::compare);
            for (int i = 0; i < v.length; i++) {
                DataType vt = shape(args.get(i).type().unwrap())[1];
                for (Map.Entry<Object, Object> e : pairs(v[i], map, "Key and value array should have same amount of elements",
                    ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH)) {
                    Number n = Values.toNumber(e.getValue(), vt);
                    Object prev = sums.get(e.getKey());
                    boolean sub = minus && i > 0;
                    if (fl) {
                        double d = n.doubleValue();
                        sums.put(e.getKey(), prev == null ? (sub ? -d : d) : (Double) prev + (sub ? -d : d));
                    } else {
                        long l = Values.toLong(n);
                        sums.put(e.getKey(), prev == null ? (sub ? -l : l) : (Long) prev + (sub ? -l : l));
                    }
                }
            }
            return result(map, new ArrayList<>(sums.keySet()), new ArrayList<>(sums.values()));
        });
    }

    private static Evaluator populateSeries(String name, List<Evaluator> args) {
        DataType first = args.isEmpty() ? null : args.get(0).type().unwrap();
        boolean map = first instanceof MapType;
        int mandatory = map ? 1 : 2;
        Functions.argumentCount(name, args, mandatory, 1);
        DataType key;
        DataType value;
        if (map) {
            key = ((MapType) first).key;
            value = ((MapType) first).value;
        } else {
            DataType vt = args.get(1).type().unwrap();
            if (!(first instanceof ArrayType) || !(vt instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " key and value arguments should be arrays");
            }
            key = ((ArrayType) first).element;
            value = ((ArrayType) vt).element;
        }
        if (!(key instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " key argument should be of signed or unsigned integer type."
                + " Actual type " + key.name());
        }
        if (!(value instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " value argument should be of signed or unsigned"
                + " integer type. Actual type " + value.name());
        }
        Evaluator max = args.size() > mandatory ? args.get(mandatory) : null;
        if (max != null && !(max.type().unwrap() instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " max key argument should be of signed or unsigned integer"
                + " type. Actual type " + max.type().name());
        }
        DataType resultType = map ? DataTypes.map(key, value) : DataTypes.tuple(List.of(DataTypes.array(key), DataTypes.array(value)));
        IntType kt = (IntType) key;
        List<Evaluator> inputs = args;
        return Functions.strict(resultType, inputs, v -> {
            Object input = map ? v[0] : List.of(v[0], v[1]);
            TreeMap<Long, Object> values = new TreeMap<>(kt.signed ? Long::compare : Long::compareUnsigned);
            for (Map.Entry<Object, Object> e : pairs(input, map, "Function " + name + " key and value array should have same amount of elements",
                ErrorCode.BAD_ARGUMENTS)) {
                values.putIfAbsent((Long) e.getKey(), e.getValue());
            }
            List<Object> keys = new ArrayList<>();
            List<Object> out = new ArrayList<>();
            if (values.isEmpty()) {
                return result(map, keys, out);
            }
            long lo = values.firstKey();
            long hi = values.lastKey();
            if (max != null) {
                long m = exactKey(v[mandatory], max.type(), kt);
                hi = m;
            }
            for (long k = lo; kt.signed ? k <= hi : Long.compareUnsigned(k, hi) <= 0; k++) {
                keys.add(k);
                Object x = values.get(k);
                out.add(x != null || values.containsKey(k) ? x : TypeRules.stripNullable(value).defaultValue());
                if (k == hi) {
                    break;
                }
            }
            return result(map, keys, out);
        });
    }

    /** The maximum key converted to the key type, or CANNOT_CONVERT_TYPE when it does not fit. */
    private static long exactKey(Object v, DataType from, IntType to) {
        long x = Values.toLong(Values.toNumber(v, from));
        IntType f = (IntType) from.unwrap();
        boolean fits;
        if (to.signed) {
            fits = (f.signed || x >= 0 && f.bits < 64) && x >= -(1L << (to.bits - 1)) && (to.bits == 64 || x < (1L << (to.bits - 1)));
        } else {
            fits = (!f.signed || x >= 0) && (to.bits == 64 || Long.compareUnsigned(x, (1L << to.bits) - 1) <= 0);
        }
        if (!fits) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Value in column " + f.name() + " cannot be safely converted into type " + to.name());
        }
        return x;
    }
}
