package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * topK, topKWeighted, approx_top_k and approx_top_sum (ClickHouse's AggregateFunctionTopK over its SpaceSaving list:
 * exact while the distinct values fit its capacity, k times the load factor; the k values of the greatest counts, as
 * its partial sort orders the counters kept in the order first seen; with 'counts', or for the approx_ forms, (item, count, error) tuples), and
 * the map-of-arrays sums: sumMap / sumMappedArrays, sumMapWithOverflow, minMap / minMappedArrays, maxMap /
 * maxMappedArrays (keys sorted; a key whose sum is zero left out of sumMap).
 */
final class AggregateFunctionsTopK {
    private AggregateFunctionsTopK() {
    }

    static void register() {
        AggregateFunctionFactory.register("topK", (n, a, p) -> topK(n, a, p, false, false));
        AggregateFunctionFactory.register("topKWeighted", (n, a, p) -> topK(n, a, p, true, false));
        AggregateFunctionFactory.register("approx_top_k", (n, a, p) -> topK(n, a, p, false, true));
        AggregateFunctionFactory.register("approx_top_count", (n, a, p) -> topK(n, a, p, false, true));
        AggregateFunctionFactory.register("approx_top_sum", (n, a, p) -> topK(n, a, p, true, true));
        for (String kind : List.of("sum", "min", "max")) {
            AggregateFunctionFactory.register(kind + "Map", (n, a, p) -> mapped(n, a, p, kind, false));
            AggregateFunctionFactory.register(kind + "MappedArrays", (n, a, p) -> mapped(n, a, p, kind, false));
        }
        AggregateFunctionFactory.register("sumMapWithOverflow", (n, a, p) -> mapped(n, a, p, "sum", true));
    }

    private static Aggregates.Aggregate topK(String name, List<DataType> args, AggregateParameters p, boolean weighted, boolean counts) {
        p.count(name, 0, 3);
        if (!p.isEmpty() && p.isInteger(0) && p.asLong(0) == 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Parameter 0 is illegal for aggregate function " + name);
        }
        long k = p.isEmpty() ? 10 : p.positive(name, 0);
        boolean withCounts = counts;
        if (p.size() == 3) {
            String mode = p.asString(2);
            if (!"counts".equals(mode)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Parameter 'counts' is the only value allowed for the third parameter of "
                    + name);
            }
            withCounts = true;
        }
        if (args.size() != (weighted ? 2 : 1)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires "
                + (weighted ? "two arguments" : "single argument"));
        }
        if (weighted && !(args.get(1).unwrap() instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The second argument for aggregate function '" + name
                + "' must have integer type");
        }
        DataType t = args.get(0);
        DataType element = withCounts ? DataTypes.parse("Tuple(item " + t.name() + ", count UInt64, error UInt64)") : t;
        boolean tuples = withCounts;
        return new Aggregates.Aggregate(DataTypes.array(element), () -> new Aggregates.State() {
            final Map<Object, long[]> counts = new LinkedHashMap<>();

            @Override
            public void add(Object[] row) {
                if (row[0] == null) {
                    return;
                }
                long w = weighted ? ((Number) row[1]).longValue() : 1;
                counts.computeIfAbsent(row[0], x -> new long[1])[0] += w;
            }

            @Override
            public Object result() {
                // SpaceSaving::topK: ClickHouse's partial sort (a Floyd-Rivest selection of the k-th, then a sort of the
                // first k) of the counters in the order first seen, the greater count first
                List<Map.Entry<Object, long[]>> es = new ArrayList<>(counts.entrySet());
                int n = es.size();
                int limit = (int) Math.min(k, n);
                Integer[] order = new Integer[n];
                for (int i = 0; i < n; i++) {
                    order[i] = i;
                }
                java.util.Comparator<Integer> greater = (a, b) -> Long.compareUnsigned(es.get(b).getValue()[0], es.get(a).getValue()[0]);
                if (limit > 0) {
                    MapHigherOrderFunctions.floydRivestSelect(order, 0, n - 1, limit - 1, greater);
                    java.util.Arrays.sort(order, 0, limit, greater);
                }
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < limit; i++) {
                    Map.Entry<Object, long[]> e = es.get(order[i]);
                    out.add(tuples ? List.of(e.getKey(), e.getValue()[0], 0L) : e.getKey());
                }
                return Collections.unmodifiableList(out);
            }
        });
    }

    /**
     * sumMap(keys, values...), or of a tuple (keys, values...): per key, the sum (min, max) of its values over the rows,
     * keys sorted; sums widen to 64 bits (Float64 for floats) unless withOverflow.
     */
    private static Aggregates.Aggregate mapped(String name, List<DataType> args, AggregateParameters p, String kind, boolean overflow) {
        p.none(name);
        boolean tuple = args.size() == 1 && args.get(0).unwrap() instanceof TupleType;
        List<DataType> arrays = tuple ? ((TupleType) args.get(0).unwrap()).elements : args;
        if (args.size() == 1 && args.get(0).unwrap() instanceof dev.chdedup.stub.types.MapType) {
            return AggregateFunctionCombinators.create(name, new AggregateFunctionCombinators.Split(kind, "Map"), args, p, false);
        }
        if (arrays.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires at least two arguments "
                + "of Array type or one argument of tuple of two arrays");
        }
        List<DataType> elements = new ArrayList<>();
        for (DataType a : arrays) {
            if (!(a.unwrap() instanceof ArrayType at)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Aggregate function " + name + " requires arguments of type Array");
            }
            elements.add(at.element);
        }
        DataType keyType = elements.get(0);
        List<Aggregates.Aggregate> valueAggs = new ArrayList<>();
        List<DataType> resultTypes = new ArrayList<>();
        resultTypes.add(DataTypes.array(keyType));
        for (DataType v : elements.subList(1, elements.size())) {
            Aggregates.Aggregate a = Aggregates.create(kind.equals("sum") && overflow ? "sumWithOverflow" : kind, List.of(v), false);
            valueAggs.add(a);
            resultTypes.add(DataTypes.array(a.type()));
        }
        boolean dropZeros = kind.equals("sum");
        return new Aggregates.Aggregate(DataTypes.tuple(resultTypes), () -> new Aggregates.State() {
            final TreeMap<Object, Aggregates.State[]> states = new TreeMap<>(keyType::compare);

            @Override
            public void add(Object[] row) {
                Object[] cols = tuple ? ((List<?>) row[0]).toArray() : row;
                List<?> keys = (List<?>) cols[0];
                for (int c = 1; c < cols.length; c++) {
                    if (((List<?>) cols[c]).size() != keys.size()) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Sizes of keys and values arrays do not match");
                    }
                }
                for (int i = 0; i < keys.size(); i++) {
                    Aggregates.State[] st = states.computeIfAbsent(keys.get(i), x -> {
                        Aggregates.State[] s = new Aggregates.State[valueAggs.size()];
                        for (int j = 0; j < s.length; j++) {
                            s[j] = valueAggs.get(j).factory().get();
                        }
                        return s;
                    });
                    for (int c = 1; c < cols.length; c++) {
                        Object v = ((List<?>) cols[c]).get(i);
                        if (v != null) {
                            st[c - 1].add(new Object[] {v});
                        }
                    }
                }
            }

            @Override
            public Object result() {
                List<Object> keys = new ArrayList<>();
                List<List<Object>> values = new ArrayList<>();
                for (int j = 0; j < valueAggs.size(); j++) {
                    values.add(new ArrayList<>());
                }
                for (Map.Entry<Object, Aggregates.State[]> e : states.entrySet()) {
                    Object[] r = new Object[valueAggs.size()];
                    boolean allZero = true;
                    for (int j = 0; j < r.length; j++) {
                        r[j] = e.getValue()[j].result();
                        allZero &= r[j] instanceof Number n && n.doubleValue() == 0 && !(r[j] instanceof java.math.BigDecimal d && d.signum() != 0);
                    }
                    if (dropZeros && allZero) {
                        continue;
                    }
                    keys.add(e.getKey());
                    for (int j = 0; j < r.length; j++) {
                        values.get(j).add(r[j]);
                    }
                }
                List<Object> out = new ArrayList<>();
                out.add(Collections.unmodifiableList(keys));
                for (List<Object> v : values) {
                    out.add(Collections.unmodifiableList(v));
                }
                return Collections.unmodifiableList(out);
            }
        });
    }
}
