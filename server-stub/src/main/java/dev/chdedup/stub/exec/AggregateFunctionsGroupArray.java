package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IntType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The aggregates that gather values into an array, after ClickHouse's AggregateFunctionGroupArray and its
 * neighbours: groupArray(max)(x), groupArrayLast(max)(x) (a ring of the last max values, in ring order),
 * groupUniqArray(max)(x) (in the order of ClickHouse's hash set, {@link ClickHouseHashOrder}), groupArrayInsertAt,
 * groupArrayMovingSum/Avg(window)(x), groupArraySorted(max)(x), groupArrayIntersect(arr). NULLs are skipped.
 */
final class AggregateFunctionsGroupArray {
    private AggregateFunctionsGroupArray() {
    }

    static void register() {
        AggregateFunctionFactory.registerCaseInsensitive("groupArray", (n, a, p) -> groupArray(n, a, p), false);
        AggregateFunctionFactory.register("array_agg", (n, a, p) -> groupArray(n, a, p));
        AggregateFunctionFactory.register("groupArrayLast", AggregateFunctionsGroupArray::groupArrayLast);
        AggregateFunctionFactory.registerCaseInsensitive("groupUniqArray", (n, a, p) -> groupUniqArray(n, a, p), false);
        AggregateFunctionFactory.register("groupArrayInsertAt", AggregateFunctionsGroupArray::groupArrayInsertAt);
        AggregateFunctionFactory.register("groupArrayMovingSum", (n, a, p) -> moving(n, a, p, false));
        AggregateFunctionFactory.register("groupArrayMovingAvg", (n, a, p) -> moving(n, a, p, true));
        AggregateFunctionFactory.register("groupArraySorted", AggregateFunctionsGroupArray::groupArraySorted);
        AggregateFunctionFactory.register("groupArrayIntersect", AggregateFunctionsGroupArray::groupArrayIntersect);
    }

    static DataType one(String name, List<DataType> args) {
        if (args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires single argument");
        }
        return args.get(0);
    }

    /** The optional max size parameter: Long.MAX_VALUE when absent. */
    private static long maxSize(String name, AggregateParameters p) {
        p.count(name, 0, 1);
        return p.isEmpty() ? Long.MAX_VALUE : p.positive(name, 0);
    }

    private static Aggregates.Aggregate groupArray(String name, List<DataType> args, AggregateParameters p) {
        DataType t = one(name, args);
        long max = maxSize(name, p);
        return new Aggregates.Aggregate(DataTypes.array(t), () -> new Aggregates.State() {
            final List<Object> l = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                if (row[0] != null && l.size() < max) {
                    l.add(row[0]);
                }
            }

            @Override
            public Object result() {
                return Collections.unmodifiableList(new ArrayList<>(l));
            }
        });
    }

    private static Aggregates.Aggregate groupArrayLast(String name, List<DataType> args, AggregateParameters p) {
        DataType t = one(name, args);
        if (p.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, name + " make sense only with max_elems (" + name + "(max_elems)())");
        }
        long max = maxSize(name, p);
        return new Aggregates.Aggregate(DataTypes.array(t), () -> new Aggregates.State() {
            final List<Object> ring = new ArrayList<>();
            long total;

            @Override
            public void add(Object[] row) {
                if (row[0] == null) {
                    return;
                }
                if (ring.size() < max) {
                    ring.add(row[0]);
                } else {
                    ring.set((int) (total % max), row[0]);
                }
                total++;
            }

            @Override
            public Object result() {
                return Collections.unmodifiableList(new ArrayList<>(ring));
            }
        });
    }

    private static Aggregates.Aggregate groupUniqArray(String name, List<DataType> args, AggregateParameters p) {
        DataType t = one(name, args);
        long max = maxSize(name, p);
        return new Aggregates.Aggregate(DataTypes.array(t), () -> new Aggregates.State() {
            final LinkedHashSet<Object> seen = new LinkedHashSet<>();

            @Override
            public void add(Object[] row) {
                if (row[0] != null && seen.size() < max) {
                    seen.add(row[0] instanceof BigDecimal d ? d.stripTrailingZeros() : row[0]);
                }
            }

            @Override
            public Object result() {
                List<Object> l = new ArrayList<>(seen);
                if (t instanceof DecimalType dt) {
                    l.replaceAll(v -> ((BigDecimal) v).setScale(dt.scale));
                }
                return Collections.unmodifiableList(ClickHouseHashOrder.order(l, 4));
            }
        });
    }

    /**
     * groupArrayInsertAt(default, size)(x, pos): x put at pos of an array holding the default (the parameter, or the
     * type's) elsewhere; with size, the array has that size and positions past it are dropped. The first value
     * written at a position stays.
     */
    private static Aggregates.Aggregate groupArrayInsertAt(String name, List<DataType> args, AggregateParameters p) {
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        DataType t = args.get(0);
        if (!(args.get(1).unwrap() instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument of aggregate function " + name
                + " must be unsigned integer.");
        }
        p.count(name, 0, 2);
        Object dflt = t.defaultValue();
        if (p.size() >= 1) {
            dflt = t.convert(p.get(0), p.types().get(0));
        }
        long length = -1;
        if (p.size() == 2) {
            length = p.positive(name, 1);
        }
        Object fill = dflt;
        long size = length;
        return new Aggregates.Aggregate(DataTypes.array(t), () -> new Aggregates.State() {
            final Map<Long, Object> at = new LinkedHashMap<>();
            long top = -1;

            @Override
            public void add(Object[] row) {
                if (row[0] == null || row[1] == null) {
                    return;
                }
                long pos = ((Number) row[1]).longValue();
                if (size >= 0 && pos >= size || pos < 0) {
                    return;
                }
                if (!at.containsKey(pos)) {
                    at.put(pos, row[0]);
                    top = Math.max(top, pos);
                }
            }

            @Override
            public Object result() {
                long n = size >= 0 ? size : top + 1;
                List<Object> out = new ArrayList<>((int) n);
                for (long i = 0; i < n; i++) {
                    out.add(at.getOrDefault(i, fill));
                }
                return Collections.unmodifiableList(out);
            }
        });
    }

    /**
     * groupArrayMovingSum/Avg(window)(x): the running sum of the last window values (all of them without the
     * parameter), as Int64/UInt64/Float64/Decimal(38, s) for the sum; the average is that sum divided by the window
     * (Float64, or the Decimal truncated).
     */
    private static Aggregates.Aggregate moving(String name, List<DataType> args, AggregateParameters p, boolean avg) {
        DataType t = one(name, args).unwrap();
        long window = maxSize(name, p);
        DataType sumType;
        if (t instanceof DecimalType dt) {
            sumType = DataTypes.decimal(38, dt.scale);
        } else if (t instanceof IntType it && !t.name().equals("Bool")) {
            sumType = it.signed ? DataTypes.INT64 : DataTypes.UINT64;
        } else if (Functions.isFloat(t)) {
            sumType = DataTypes.FLOAT64;
        } else {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function " + name);
        }
        DataType rt = avg && !(t instanceof DecimalType) ? DataTypes.FLOAT64 : sumType;
        return new Aggregates.Aggregate(DataTypes.array(rt), () -> new Aggregates.State() {
            final List<Object> values = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                if (row[0] != null) {
                    values.add(row[0]);
                }
            }

            @Override
            public Object result() {
                List<Object> out = new ArrayList<>(values.size());
                long w = window == Long.MAX_VALUE ? values.size() : window;
                if (t instanceof DecimalType dt) {
                    BigDecimal[] prefix = new BigDecimal[values.size() + 1];
                    prefix[0] = BigDecimal.ZERO.setScale(dt.scale);
                    for (int i = 0; i < values.size(); i++) {
                        prefix[i + 1] = prefix[i].add((BigDecimal) values.get(i));
                        BigDecimal s = prefix[i + 1].subtract(i + 1 > w ? prefix[(int) (i + 1 - w)] : prefix[0]);
                        out.add(avg ? s.divide(BigDecimal.valueOf(w), dt.scale, RoundingMode.DOWN) : s);
                    }
                } else if (sumType == DataTypes.FLOAT64) {
                    double[] prefix = new double[values.size() + 1];
                    for (int i = 0; i < values.size(); i++) {
                        prefix[i + 1] = prefix[i] + ((Number) values.get(i)).doubleValue();
                        double s = i + 1 > w ? prefix[i + 1] - prefix[(int) (i + 1 - w)] : prefix[i + 1];
                        out.add(avg ? s / w : s);
                    }
                } else {
                    long[] prefix = new long[values.size() + 1];
                    boolean unsigned = sumType == DataTypes.UINT64;
                    for (int i = 0; i < values.size(); i++) {
                        prefix[i + 1] = prefix[i] + ((Number) values.get(i)).longValue();
                        long s = i + 1 > w ? prefix[i + 1] - prefix[(int) (i + 1 - w)] : prefix[i + 1];
                        if (avg) {
                            out.add((unsigned ? AggregateFunctionsStatistics.unsignedDouble(s) : (double) s) / w);
                        } else {
                            out.add(s);
                        }
                    }
                }
                return Collections.unmodifiableList(out);
            }
        });
    }

    private static Aggregates.Aggregate groupArraySorted(String name, List<DataType> args, AggregateParameters p) {
        DataType t = one(name, args);
        if (p.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Parameter for aggregate function " + name + " should have limit argument");
        }
        long max = maxSize(name, p);
        return new Aggregates.Aggregate(DataTypes.array(t), () -> new Aggregates.State() {
            final List<Object> l = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                if (row[0] != null) {
                    l.add(row[0]);
                }
            }

            @Override
            public Object result() {
                List<Object> s = new ArrayList<>(l);
                s.sort(t::compare);
                return Collections.unmodifiableList(new ArrayList<>(s.subList(0, (int) Math.min(max, s.size()))));
            }
        });
    }

    /** groupArrayIntersect(arr): the values in every array of the group, in the order of ClickHouse's hash map. */
    private static Aggregates.Aggregate groupArrayIntersect(String name, List<DataType> args, AggregateParameters p) {
        DataType t = one(name, args);
        p.none(name);
        if (!(t.unwrap() instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument for aggregate function " + name + " must be an array");
        }
        return new Aggregates.Aggregate(t.unwrap(), () -> new Aggregates.State() {
            LinkedHashSet<Object> common;
            /** The first array's distinct values: the keys ClickHouse's map holds, whose order the result keeps. */
            List<Object> first;

            @Override
            public void add(Object[] row) {
                if (row[0] == null) {
                    return;
                }
                LinkedHashSet<Object> these = new LinkedHashSet<>((List<?>) row[0]);
                if (common == null) {
                    common = these;
                    first = new ArrayList<>(these);
                } else {
                    common.retainAll(these);
                }
            }

            @Override
            public Object result() {
                if (common == null) {
                    return List.of();
                }
                List<Object> out = new ArrayList<>(ClickHouseHashOrder.order(first, 8));
                out.retainAll(common);
                return Collections.unmodifiableList(out);
            }
        });
    }
}
