package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.RoaringBitmapWithSmallSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aggregates of single values and counts, after their ClickHouse files: the RESPECT NULLS forms of any and anyLast
 * (AggregateFunctionAnyRespectNulls) and the aliases of any, anyLast, argMin and argMax; singleValueOrNull; deltaSum
 * and deltaSumTimestamp; entropy; groupBitAnd/Or/Xor; groupBitmapAnd/Or/Xor over groupBitmap states; uniqCombined,
 * uniqCombined64 and uniqHLL12 (exact: the engine's answer while its sets are exact, below its sketch's threshold);
 * exponentialMovingAverage; aggThrow.
 */
final class AggregateFunctionsMisc {
    private AggregateFunctionsMisc() {
    }

    static void register() {
        for (String n : List.of("anyRespectNulls", "any_respect_nulls", "anyValueRespectNulls", "any_value_respect_nulls",
            "firstValueRespectNulls", "first_value_respect_nulls")) {
            AggregateFunctionFactory.registerTakingNulls(n, (name, args, p) -> anyRespectNulls(name, args, p, false));
        }
        for (String n : List.of("anyLastRespectNulls", "anyLast_respect_nulls", "lastValueRespectNulls", "last_value_respect_nulls")) {
            AggregateFunctionFactory.registerTakingNulls(n, (name, args, p) -> anyRespectNulls(name, args, p, true));
        }
        alias("any_value", "any");
        alias("first_value", "any");
        alias("last_value", "anyLast");
        alias("max_by", "argMax");
        alias("min_by", "argMin");
        AggregateFunctionFactory.register("argAndMin", (name, args, p) -> argAnd(name, args, p, false));
        AggregateFunctionFactory.register("argAndMax", (name, args, p) -> argAnd(name, args, p, true));
        AggregateFunctionFactory.register("singleValueOrNull", AggregateFunctionsMisc::singleValueOrNull);
        AggregateFunctionFactory.register("anyHeavy", AggregateFunctionsMisc::anyHeavy);
        AggregateFunctionFactory.registerCaseInsensitive("groupConcat", AggregateFunctionsMisc::groupConcat, false);
        AggregateFunctionFactory.registerCaseInsensitive("group_concat", AggregateFunctionsMisc::groupConcat, false);
        AggregateFunctionFactory.register("deltaSum", AggregateFunctionsMisc::deltaSum);
        AggregateFunctionFactory.register("deltaSumTimestamp", AggregateFunctionsMisc::deltaSumTimestamp);
        AggregateFunctionFactory.register("entropy", AggregateFunctionsMisc::entropy);
        for (String op : List.of("And", "Or", "Xor")) {
            AggregateFunctionFactory.register("groupBit" + op, (name, args, p) -> groupBit(name, args, p, op));
            AggregateFunctionFactory.register("groupBitmap" + op, (name, args, p) -> groupBitmapOp(name, args, p, op));
        }
        AggregateFunctionFactory.registerCaseInsensitive("BIT_AND", (name, args, p) -> groupBit(name, args, p, "And"), false);
        AggregateFunctionFactory.registerCaseInsensitive("BIT_OR", (name, args, p) -> groupBit(name, args, p, "Or"), false);
        AggregateFunctionFactory.registerCaseInsensitive("BIT_XOR", (name, args, p) -> groupBit(name, args, p, "Xor"), false);
        AggregateFunctionFactory.registerTakingNulls("uniqCombined", (name, args, p) -> uniqSketch(name, args, p, 12, 20));
        AggregateFunctionFactory.registerTakingNulls("uniqCombined64", (name, args, p) -> uniqSketch(name, args, p, 12, 20));
        AggregateFunctionFactory.registerTakingNulls("uniqHLL12", (name, args, p) -> uniqSketch(name, args, p, 0, 0));
        AggregateFunctionFactory.registerTakingNulls("uniqUpTo", AggregateFunctionsMisc::uniqUpTo);
        AggregateFunctionFactory.register("exponentialMovingAverage", AggregateFunctionsMisc::exponentialMovingAverage);
        AggregateFunctionFactory.register("aggThrow", AggregateFunctionsMisc::aggThrow);
    }

    private static void alias(String alias, String of) {
        AggregateFunctionFactory.register(alias, (name, args, p) -> AggregateFunctionFactory.find(of).builder().build(of, args, p));
    }

    private static Aggregates.Aggregate anyRespectNulls(String name, List<DataType> args, AggregateParameters p, boolean last) {
        p.none(name);
        DataType t = AggregateFunctionsGroupArray.one(name, args);
        return new Aggregates.Aggregate(t, () -> new Aggregates.State() {
            Object v;
            boolean seen;

            @Override
            public void add(Object[] row) {
                if (last || !seen) {
                    v = row[0];
                    seen = true;
                }
            }

            @Override
            public Object result() {
                return seen ? v : t.isNullable() ? null : t.defaultValue();
            }
        });
    }

    /** argAndMin / argAndMax(arg, key): the tuple (arg, key) of the row of least (greatest) key, the first such row. */
    private static Aggregates.Aggregate argAnd(String name, List<DataType> args, AggregateParameters p, boolean max) {
        p.none(name);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        DataType vt = args.get(0);
        DataType kt = args.get(1);
        return new Aggregates.Aggregate(DataTypes.tuple(List.of(vt, kt)), () -> new Aggregates.State() {
            Object val;
            Object key;
            boolean seen;

            @Override
            public void add(Object[] row) {
                if (!seen || (max ? kt.compare(row[1], key) > 0 : kt.compare(row[1], key) < 0)) {
                    val = row[0];
                    key = row[1];
                    seen = true;
                }
            }

            @Override
            public Object result() {
                return seen ? List.of(val, key) : List.of(vt.defaultValue(), kt.defaultValue());
            }
        });
    }

    /** anyHeavy(x): the value the majority vote (Boyer-Moore) keeps: a frequent value, the one above half of the rows if any. */
    private static Aggregates.Aggregate anyHeavy(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        DataType t = AggregateFunctionsGroupArray.one(name, args);
        return new Aggregates.Aggregate(t, () -> new Aggregates.State() {
            Object value;
            long counter;

            @Override
            public void add(Object[] row) {
                if (value != null && t.compare(value, row[0]) == 0) {
                    counter++;
                } else if (counter == 0) {
                    value = row[0];
                    counter = 1;
                } else {
                    counter--;
                }
            }

            @Override
            public Object result() {
                return value == null ? t.defaultValue() : value;
            }
        });
    }

    /**
     * groupConcat(delimiter, limit)(x) or groupConcat(x, delimiter): the values' text joined by the delimiter (none by
     * default), the first limit of them.
     */
    private static Aggregates.Aggregate groupConcat(String name, List<DataType> args, AggregateParameters p) {
        p.count(name, 0, 2);
        String delimiter = "";
        if (p.size() >= 1) {
            if (p.asString(0) == null) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First parameter for aggregate function " + name + " should be string");
            }
            delimiter = (String) p.get(0);
        }
        long limit = Long.MAX_VALUE;
        if (p.size() == 2) {
            if (!p.isInteger(1) || p.asLong(1) <= 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second parameter for aggregate function " + name
                    + " should be a positive number, got: " + p.get(1));
            }
            limit = p.asLong(1);
        }
        if (args.size() == 2) {
            if (!p.isEmpty()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Aggregate function " + name + " takes the delimiter either as a parameter or as"
                    + " the second argument");
            }
        } else if (args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments for function " + name
                + ", expected 1 or 2");
        }
        DataType t = args.get(0);
        String fixed = delimiter;
        long max = limit;
        return new Aggregates.Aggregate(DataTypes.STRING, () -> new Aggregates.State() {
            final StringBuilder sb = new StringBuilder();
            long n;

            @Override
            public void add(Object[] row) {
                if (n >= max) {
                    return;
                }
                if (n > 0) {
                    sb.append(row.length == 2 ? String.valueOf(row[1]) : fixed);
                }
                if (t.unwrap() instanceof dev.chdedup.stub.types.StringType) {
                    sb.append((String) row[0]);
                } else {
                    t.formatText(row[0], sb);
                }
                n++;
            }

            @Override
            public Object result() {
                return sb.toString();
            }
        });
    }

    /** singleValueOrNull(x): x when every row holds the same value, else NULL (Nullable(T)). */
    private static Aggregates.Aggregate singleValueOrNull(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        DataType t = AggregateFunctionsGroupArray.one(name, args);
        return new Aggregates.Aggregate(DataTypes.nullable(t), () -> new Aggregates.State() {
            Object v;
            boolean seen;
            boolean many;

            @Override
            public void add(Object[] row) {
                if (row[0] == null || many) {
                    return;
                }
                if (!seen) {
                    v = row[0];
                    seen = true;
                } else if (t.compare(v, row[0]) != 0) {
                    many = true;
                }
            }

            @Override
            public Object result() {
                return seen && !many ? v : null;
            }
        });
    }

    private static DataType numberArgument(String name, DataType t) {
        DataType u = t.unwrap();
        if (!(u instanceof IntType) && !Functions.isFloat(u) || u.name().equals("Bool")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function " + name);
        }
        return u;
    }

    /** The sum in type {@code t} (wrapping for integers) of {@code a} and {@code b}. */
    private static Object plus(DataType t, Object a, Object b) {
        if (t instanceof IntType it) {
            return it.wrap((Long) a + (Long) b);
        }
        if (a instanceof Float f) {
            return f + (Float) b;
        }
        return ((Number) a).doubleValue() + ((Number) b).doubleValue();
    }

    private static Object minus(DataType t, Object a, Object b) {
        if (t instanceof IntType it) {
            return it.wrap((Long) a - (Long) b);
        }
        if (a instanceof Float f) {
            return f - (Float) b;
        }
        return ((Number) a).doubleValue() - ((Number) b).doubleValue();
    }

    /** deltaSum(x): the sum of the increases between consecutive values, in x's type. */
    private static Aggregates.Aggregate deltaSum(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        DataType t = numberArgument(name, AggregateFunctionsGroupArray.one(name, args));
        return new Aggregates.Aggregate(t, () -> new Aggregates.State() {
            Object sum = t.defaultValue();
            Object last;

            @Override
            public void add(Object[] row) {
                Object v = row[0];
                if (last != null && t.compare(v, last) > 0) {
                    sum = plus(t, sum, minus(t, v, last));
                }
                last = v;
            }

            @Override
            public Object result() {
                return sum;
            }
        });
    }

    /** deltaSumTimestamp(value, timestamp): deltaSum of the values, taken in the order they come. */
    private static Aggregates.Aggregate deltaSumTimestamp(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        for (DataType a : args) {
            DataType u = a.unwrap();
            if (!(u instanceof IntType || Functions.isFloat(u) || u instanceof DateType || u instanceof DateTimeType
                || u instanceof DateTime64Type) || u.name().equals("Bool")) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.name() + " of argument for aggregate function "
                    + name + ", must be Int, Float, Date, DateTime");
            }
        }
        DataType ts = args.get(1).unwrap();
        if (ts instanceof IntType it && (it.signed || it.bits < 32) || Functions.isFloat(ts) || ts instanceof DateTime64Type) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).name() + " of argument for aggregate function "
                + name + ", this type is not supported");
        }
        DataType t = numberArgument(name, args.get(0));
        return deltaSum(name, List.of(t), AggregateParameters.NONE);
    }

    /** entropy(x): Shannon's entropy in bits of the values' frequencies, summed in the order of ClickHouse's hash map. */
    private static Aggregates.Aggregate entropy(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires at least one argument");
        }
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Aggregates.State() {
            final Map<Object, long[]> counts = new LinkedHashMap<>();

            @Override
            public void add(Object[] row) {
                Object k = row.length == 1 ? row[0] : List.of(row);
                counts.computeIfAbsent(k, x -> new long[1])[0]++;
            }

            @Override
            public Object result() {
                long total = 0;
                for (long[] c : counts.values()) {
                    total += c[0];
                }
                double h = 0;
                for (Object k : ClickHouseHashOrder.order(new ArrayList<>(counts.keySet()), 8)) {
                    double f = (double) counts.get(k)[0] / total;
                    h -= f * Math.log(f) / Math.log(2);
                }
                return h;
            }
        });
    }

    private static Aggregates.Aggregate groupBit(String name, List<DataType> args, AggregateParameters p, String op) {
        p.none(name);
        DataType t = AggregateFunctionsGroupArray.one(name, args).unwrap();
        if (!(t instanceof IntType it) || t.name().equals("Bool")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function " + name);
        }
        long start = op.equals("And") ? it.wrap(-1L) : 0L;
        return new Aggregates.Aggregate(t, () -> new Aggregates.State() {
            long acc = start;

            @Override
            public void add(Object[] row) {
                long v = (Long) row[0];
                acc = switch (op) {
                    case "And" -> acc & v;
                    case "Or" -> acc | v;
                    default -> acc ^ v;
                };
            }

            @Override
            public Object result() {
                return acc;
            }
        });
    }

    /** groupBitmapAnd/Or/Xor(state): the count of the values of the and / or / xor of groupBitmap states, in their type. */
    private static Aggregates.Aggregate groupBitmapOp(String name, List<DataType> args, AggregateParameters p, String op) {
        p.none(name);
        DataType a = AggregateFunctionsGroupArray.one(name, args).unwrap();
        if (!(a instanceof AggregateFunctionType st) || !st.function.equals("groupBitmap") || st.arguments.size() != 1) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.name() + " of argument for aggregate function " + name);
        }
        DataType t = st.arguments.get(0);
        return new Aggregates.Aggregate(t, () -> new Aggregates.State() {
            java.util.Set<Long> acc;

            @Override
            public void add(Object[] row) {
                java.util.Set<Long> these = new java.util.HashSet<>(((RoaringBitmapWithSmallSet) row[0]).toList());
                if (acc == null) {
                    acc = these;
                } else if (op.equals("And")) {
                    acc.retainAll(these);
                } else if (op.equals("Or")) {
                    acc.addAll(these);
                } else {
                    for (Long v : these) {
                        if (!acc.remove(v)) {
                            acc.add(v);
                        }
                    }
                }
            }

            @Override
            public Object result() {
                return acc == null ? 0L : (long) acc.size();
            }
        });
    }

    /**
     * uniqCombined, uniqCombined64, uniqHLL12: uniqCombined of one number or string as the engine estimates it
     * ({@link AggregateFunctionUniqCombined}), else the number of distinct argument rows, exactly (the engine's sets are
     * exact for few values; its HyperLogLog estimate for many is not reproduced). The optional parameter of uniqCombined is
     * the precision, 12 to 20.
     */
    private static Aggregates.Aggregate uniqSketch(String name, List<DataType> args, AggregateParameters p, int minPrecision, int maxPrecision) {
        if (maxPrecision == 0) {
            p.none(name);
        } else {
            p.count(name, 0, 1);
            if (!p.isEmpty()) {
                long k = p.asLong(0);
                if (k < minPrecision || k > maxPrecision) {
                    throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Parameter for aggregate function " + name
                        + " is out of range: [" + minPrecision + ", " + maxPrecision + "].");
                }
            }
        }
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments for aggregate function " + name);
        }
        if (name.startsWith("uniqCombined") && args.stream().anyMatch(a -> TypeRules.stripNullable(a).unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
            // an argument that is only NULL: the engine's Null combinator answers NULL
            return new Aggregates.Aggregate(DataTypes.nullable(DataTypes.NOTHING), () -> new Aggregates.State() {
                @Override
                public void add(Object[] row) {
                }

                @Override
                public Object result() {
                    return null;
                }
            });
        }
        if (name.equals("uniqCombined") && args.size() == 1 && AggregateFunctionUniqCombined.handles(TypeRules.stripNullable(args.get(0)).unwrap())) {
            return AggregateFunctionUniqCombined.create(TypeRules.stripNullable(args.get(0)).unwrap(), p.isEmpty() ? 17 : (int) p.asLong(0));
        }
        return Aggregates.create("uniqExact", args, false);
    }

    /** uniqUpTo(threshold)(x...): the distinct rows without NULL, counted up to threshold + 1 (threshold 5 by default, at most 100). */
    private static Aggregates.Aggregate uniqUpTo(String name, List<DataType> args, AggregateParameters p) {
        p.count(name, 0, 1);
        long threshold = 5;
        if (!p.isEmpty()) {
            threshold = p.asLong(0);
            if (threshold < 0 || threshold > 100 || !p.isInteger(0)) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Too large parameter for aggregate function " + name + ". Maximum: 100");
            }
        }
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments for aggregate function " + name);
        }
        long limit = threshold + 1;
        return new Aggregates.Aggregate(DataTypes.UINT64, () -> new Aggregates.State() {
            final java.util.Set<List<Object>> seen = new java.util.HashSet<>();

            @Override
            public void add(Object[] row) {
                for (Object v : row) {
                    if (v == null) {
                        return;
                    }
                }
                if (seen.size() < limit) {
                    seen.add(java.util.Arrays.asList(row.clone()));
                }
            }

            @Override
            public Object result() {
                return (long) seen.size();
            }
        });
    }

    /**
     * exponentialMovingAverage(half_decay)(value, time): the values weighted by 2^(-(last time - time) / half_decay),
     * times (1 - 2^(-1 / half_decay)), as ClickHouse's ExponentiallySmoothedAverage.
     */
    private static Aggregates.Aggregate exponentialMovingAverage(String name, List<DataType> args, AggregateParameters p) {
        p.count(name, 1, 1);
        double half = p.asDouble(0);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires exactly two arguments");
        }
        AggregateFunctionsStatistics.numbers(name, args, 2);
        var readers = AggregateFunctionsStatistics.readers(args);
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Aggregates.State() {
            double value;
            double time;

            @Override
            public void add(Object[] row) {
                double v = readers[0].applyAsDouble(row[0]);
                double t = readers[1].applyAsDouble(row[1]);
                if (time > t) {
                    value = value + v * Math.pow(2, -(time - t) / half);
                } else if (time < t) {
                    value = v + value * Math.pow(2, -(t - time) / half);
                    time = t;
                } else {
                    value = value + v;
                }
            }

            @Override
            public Object result() {
                return value / (1 / (1 - Math.pow(2, -1 / half)));
            }
        });
    }

    /** aggThrow(probability)(x): throws AGGREGATE_FUNCTION_THROW with that probability; its parameter must be a Float64. */
    private static Aggregates.Aggregate aggThrow(String name, List<DataType> args, AggregateParameters p) {
        p.count(name, 0, 1);
        double probability = 1;
        if (!p.isEmpty()) {
            if (!(p.type(0) instanceof dev.chdedup.stub.types.FloatType)) {
                throw new ChException(ErrorCode.BAD_GET, "Bad get: has " + p.fieldName(0) + ", requested Float64");
            }
            probability = p.asDouble(0);
        }
        double pr = probability;
        return new Aggregates.Aggregate(DataTypes.UINT8, () -> new Aggregates.State() {
            @Override
            public void add(Object[] row) {
                if (pr >= 1 || Math.random() < pr) {
                    throw new ChException(ErrorCode.AGGREGATE_FUNCTION_THROW, "Aggregate function " + name + " has thrown exception successfully");
                }
            }

            @Override
            public Object result() {
                return 0L;
            }
        });
    }
}
