package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The array aggregations of ClickHouse's arrayAggregation.cpp, arrayCumSum.cpp and arrayDifference.cpp: arraySum
 * (UInt64, Int64, Float64, Decimal of 38 or 76 digits, a big integer its own type), arrayAvg and arrayProduct
 * (Float64), arrayMin and arrayMax (the element's type, NULLs and NaNs skipped while there is another value),
 * arrayCumSum and arrayCumSumNonNegative (arrays of the sum's type) and arrayDifference (a signed type twice as wide).
 * Integer sums wrap as the engine's do.
 */
final class FunctionsArrayAggregation {
    private static final List<String> NAMES = List.of("arraySum", "arrayAvg", "arrayMin", "arrayMax", "arrayProduct",
        "arrayCumSum", "arrayCumSumNonNegative", "arrayDifference");

    private FunctionsArrayAggregation() {
    }

    static void register(FunctionFactory f) {
        for (String n : NAMES) {
            f.register(n, FunctionsArray.CATEGORY, (args, ctx) -> {
                Functions.arity(n, args, 1);
                if (Functions.isNothing(args.get(0))) {
                    return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
                }
                ArrayArgs.element(n, args, 0);
                return compile(n, args.get(0));
            });
        }
    }

    static boolean handles(String name) {
        return NAMES.contains(name);
    }

    private enum Kind { UNSIGNED, SIGNED, FLOAT, DECIMAL, BIG }

    private static Kind kind(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof BoolType) {
            return Kind.UNSIGNED;
        }
        if (u instanceof IntType i && !t.isNullable()) {
            return i.signed ? Kind.SIGNED : Kind.UNSIGNED;
        }
        if (u instanceof FloatType || u instanceof dev.chdedup.stub.types.BFloat16Type) {
            return t.isNullable() ? null : Kind.FLOAT;
        }
        if (u instanceof DecimalType && !t.isNullable()) {
            return Kind.DECIMAL;
        }
        if (u instanceof BigIntType && !t.isNullable()) {
            return Kind.BIG;
        }
        return null;
    }

    static Evaluator compile(String name, Evaluator array) {
        DataType el = ((ArrayType) array.type().unwrap()).element;
        if (name.equals("arrayMin") || name.equals("arrayMax")) {
            if (el.unwrap() instanceof NothingType && !el.isNullable()) {
                throw notAggregable(el);
            }
            return minMax(name.equals("arrayMax"), array, el);
        }
        Kind k = kind(el);
        if (k == null) {
            if (name.equals("arrayDifference")) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "arrayDifference cannot process values of type " + el.name());
            }
            if (name.startsWith("arrayCumSum")) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, name + " cannot add values of type " + el.name());
            }
            throw notAggregable(el);
        }
        switch (name) {
            case "arrayAvg": case "arrayProduct": {
                boolean avg = name.equals("arrayAvg");
                return Functions.strict(DataTypes.FLOAT64, List.of(array), v -> {
                    List<?> l = (List<?>) v[0];
                    if (l.isEmpty()) {
                        return 0.0;
                    }
                    double acc = avg ? 0 : 1;
                    for (Object o : l) {
                        double d = Values.toNumber(o, el).doubleValue();
                        acc = avg ? acc + d : acc * d;
                    }
                    return avg ? acc / l.size() : acc;
                });
            }
            case "arrayDifference": {
                DataType t = differenceType(el, k);
                return Functions.strict(DataTypes.array(t), List.of(array), v -> {
                    List<?> l = (List<?>) v[0];
                    List<Object> out = new ArrayList<>(l.size());
                    for (int i = 0; i < l.size(); i++) {
                        out.add(i == 0 ? t.defaultValue() : subtract(l.get(i), l.get(i - 1), el, k, t));
                    }
                    return ArrayArgs.frozen(out);
                });
            }
            default: {
                DataType t = sumType(el, k);
                boolean cumulative = name.startsWith("arrayCumSum");
                boolean nonNegative = name.equals("arrayCumSumNonNegative");
                return Functions.strict(cumulative ? DataTypes.array(t) : t, List.of(array), v -> {
                    Object acc = t.defaultValue();
                    List<Object> out = new ArrayList<>();
                    for (Object o : (List<?>) v[0]) {
                        acc = add(acc, o, el, k, t);
                        if (nonNegative && signum(acc) < 0) {
                            acc = t.defaultValue();
                        }
                        out.add(acc);
                    }
                    return cumulative ? ArrayArgs.frozen(out) : acc;
                });
            }
        }
    }

    private static ChException notAggregable(DataType el) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "array aggregation function cannot be performed on type " + el.name());
    }

    private static DataType sumType(DataType el, Kind k) {
        switch (k) {
            case UNSIGNED: return DataTypes.UINT64;
            case SIGNED: return DataTypes.INT64;
            case FLOAT: return DataTypes.FLOAT64;
            case DECIMAL: {
                DecimalType d = (DecimalType) el.unwrap();
                return DataTypes.decimal(d.precision > 38 ? 76 : 38, d.scale);
            }
            default: return el.unwrap();
        }
    }

    private static DataType differenceType(DataType el, Kind k) {
        switch (k) {
            case UNSIGNED: case SIGNED: {
                int bits = el.unwrap() instanceof IntType i ? i.bits : 8;
                return TypeRules.intType(Math.min(64, bits * 2), true);
            }
            case FLOAT: return DataTypes.FLOAT64;
            default: return el.unwrap();
        }
    }

    private static int signum(Object v) {
        if (v instanceof Long l) {
            return Long.signum(l);
        }
        if (v instanceof Double d) {
            return d < 0 ? -1 : 0;
        }
        if (v instanceof BigDecimal d) {
            return d.signum();
        }
        return v instanceof BigInteger b ? b.signum() : 0;
    }

    private static Object add(Object acc, Object x, DataType el, Kind k, DataType t) {
        Number n = Values.toNumber(x, el);
        switch (k) {
            case UNSIGNED: case SIGNED: return (Long) acc + Values.toLong(n);
            case FLOAT: return (Double) acc + n.doubleValue();
            case DECIMAL: return ((BigDecimal) acc).add(Values.toBigDecimal(n));
            default: return t.convert(((BigInteger) acc).add(Values.toBigInteger(n)), t);
        }
    }

    private static Object subtract(Object a, Object b, DataType el, Kind k, DataType t) {
        Number x = Values.toNumber(a, el);
        Number y = Values.toNumber(b, el);
        switch (k) {
            case UNSIGNED: case SIGNED: {
                long d = Values.toLong(x) - Values.toLong(y);
                return t.convert(d, DataTypes.INT64);
            }
            case FLOAT: return x.doubleValue() - y.doubleValue();
            case DECIMAL: return Values.toBigDecimal(x).subtract(Values.toBigDecimal(y));
            default: return t.convert(Values.toBigInteger(x).subtract(Values.toBigInteger(y)), t);
        }
    }

    /** arrayMin/arrayMax: NULLs skipped (NULL when nothing else), NaN only when all are NaN; empty is the default. */
    private static Evaluator minMax(boolean max, Evaluator array, DataType el) {
        DataType plain = TypeRules.stripNullable(el);
        Object empty = el.isNullable() || plain.unwrap() instanceof NothingType ? null : plain.defaultValue();
        return Functions.strict(el, List.of(array), v -> {
            Object best = null;
            Object nan = null;
            boolean any = false;
            for (Object o : (List<?>) v[0]) {
                if (o == null) {
                    continue;
                }
                any = true;
                if ((o instanceof Double d && d.isNaN()) || (o instanceof Float f && f.isNaN())) {
                    nan = o;
                    continue;
                }
                if (best == null || (max ? plain.compare(o, best) > 0 : plain.compare(o, best) < 0)) {
                    best = o;
                }
            }
            return best != null ? best : nan != null ? nan : any ? null : empty;
        });
    }
}
