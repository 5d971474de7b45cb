package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The aggregates over intervals and points, after ClickHouse's AggregateFunctionIntervalLengthSum (the length of the
 * union of [start, end) intervals: UInt64 for integers, dates and times, Float64 for floats),
 * AggregateFunctionMaxIntersections (the most intervals covering one point, and the first such point; an interval
 * ending where another starts does not meet it) and AggregateFunctionLargestTriangleThreeBuckets (the points sorted
 * by x, reduced to n by Largest-Triangle-Three-Buckets, as Float64 pairs).
 */
final class AggregateFunctionsIntervals {
    private AggregateFunctionsIntervals() {
    }

    static void register() {
        AggregateFunctionFactory.register("intervalLengthSum", AggregateFunctionsIntervals::intervalLengthSum);
        AggregateFunctionFactory.register("maxIntersections", (n, a, p) -> maxIntersections(n, a, p, false));
        AggregateFunctionFactory.register("maxIntersectionsPosition", (n, a, p) -> maxIntersections(n, a, p, true));
        AggregateFunctionFactory.register("largestTriangleThreeBuckets", AggregateFunctionsIntervals::lttb);
        AggregateFunctionFactory.register("lttb", AggregateFunctionsIntervals::lttb);
    }

    private static boolean pointType(DataType u) {
        return (u instanceof IntType || Functions.isFloat(u) || u instanceof DateType || u instanceof DateTimeType
            || u instanceof DateTime64Type) && !u.name().equals("Bool");
    }

    private static Aggregates.Aggregate intervalLengthSum(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two timestamps argument.");
        }
        DataType t = args.get(0).unwrap();
        if (!t.name().equals(args.get(1).unwrap().name())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + t.name() + " and " + args.get(1).unwrap().name()
                + " of arguments of aggregate function " + name + ", both arguments should have same data type");
        }
        if (!pointType(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of aggregate function " + name
                + ", must be native integral type, Date/DateTime or Float");
        }
        boolean floats = Functions.isFloat(t);
        boolean float32 = t.name().equals("Float32");
        return new Aggregates.Aggregate(floats ? DataTypes.FLOAT64 : DataTypes.UINT64, () -> new Aggregates.State() {
            final List<Object[]> segments = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                segments.add(new Object[] {row[0], row[1]});
            }

            @Override
            public Object result() {
                List<Object[]> s = new ArrayList<>(segments);
                s.sort((a, b) -> {
                    int c = t.compare(a[0], b[0]);
                    return c != 0 ? c : t.compare(a[1], b[1]);
                });
                if (floats) {
                    double res = 0;
                    Object[] cur = null;
                    for (Object[] seg : s) {
                        if (cur == null) {
                            cur = seg.clone();
                        } else if (t.compare(cur[1], seg[0]) < 0) {
                            res += length(cur, float32);
                            cur = seg.clone();
                        } else if (t.compare(seg[1], cur[1]) > 0) {
                            cur[1] = seg[1];
                        }
                    }
                    return cur == null ? 0.0 : res + length(cur, float32);
                }
                long res = 0;
                Object[] cur = null;
                for (Object[] seg : s) {
                    if (cur == null) {
                        cur = seg.clone();
                    } else if (t.compare(cur[1], seg[0]) < 0) {
                        res += ((Number) cur[1]).longValue() - ((Number) cur[0]).longValue();
                        cur = seg.clone();
                    } else if (t.compare(seg[1], cur[1]) > 0) {
                        cur[1] = seg[1];
                    }
                }
                return cur == null ? 0L : res + ((Number) cur[1]).longValue() - ((Number) cur[0]).longValue();
            }
        });
    }

    /** end - start, computed in Float32 for Float32 values. */
    private static double length(Object[] seg, boolean float32) {
        if (float32) {
            return ((Number) seg[1]).floatValue() - ((Number) seg[0]).floatValue();
        }
        return ((Number) seg[1]).doubleValue() - ((Number) seg[0]).doubleValue();
    }

    private static Aggregates.Aggregate maxIntersections(String name, List<DataType> args, AggregateParameters p, boolean position) {
        p.none(name);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        DataType t = args.get(0).unwrap();
        if (!t.name().equals(args.get(1).unwrap().name())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, name + ": arguments must have the same type");
        }
        return new Aggregates.Aggregate(position ? t : DataTypes.UINT64, () -> new Aggregates.State() {
            final List<Object[]> events = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                events.add(new Object[] {row[0], 1L});
                events.add(new Object[] {row[1], -1L});
            }

            @Override
            public Object result() {
                List<Object[]> e = new ArrayList<>(events);
                e.sort((a, b) -> {
                    int c = t.compare(a[0], b[0]);
                    return c != 0 ? c : Long.compare((Long) a[1], (Long) b[1]);
                });
                long cur = 0;
                long max = 0;
                Object at = t.defaultValue();
                for (Object[] ev : e) {
                    cur += (Long) ev[1];
                    if (cur > max) {
                        max = cur;
                        at = ev[0];
                    }
                }
                return position ? at : (Object) max;
            }
        });
    }

    /** largestTriangleThreeBuckets(n)(x, y). */
    private static Aggregates.Aggregate lttb(String name, List<DataType> args, AggregateParameters p) {
        p.count(name, 1, 1);
        long n = p.positive(name, 0);
        AggregateFunctionsStatistics.numbers(name, args, 2);
        ToDoubleFunction<Object>[] r = AggregateFunctionsStatistics.readers(args);
        DataType pair = DataTypes.tuple(List.of(DataTypes.FLOAT64, DataTypes.FLOAT64));
        return new Aggregates.Aggregate(DataTypes.array(pair), () -> new Aggregates.State() {
            final List<double[]> points = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                points.add(new double[] {r[0].applyAsDouble(row[0]), r[1].applyAsDouble(row[1])});
            }

            @Override
            public Object result() {
                List<double[]> s = new ArrayList<>(points);
                s.sort((a, b) -> Double.compare(a[0], b[0]));
                List<Object> out = new ArrayList<>();
                int size = s.size();
                if (n <= 2 || size <= n) {
                    for (int i = 0; i < size && (size <= n || i < n); i++) {
                        out.add(List.of(s.get(i)[0], s.get(i)[1]));
                    }
                    return Collections.unmodifiableList(out);
                }
                double bucket = (double) (size - 2) / (n - 2);
                int a = 0;
                out.add(List.of(s.get(0)[0], s.get(0)[1]));
                for (int i = 0; i < n - 2; i++) {
                    int start = (int) Math.floor(i * bucket) + 1;
                    int end = (int) Math.floor((i + 1) * bucket) + 1;
                    int nextStart = end;
                    int nextEnd = Math.min((int) Math.floor((i + 2) * bucket) + 1, size);
                    if (i == n - 3) {
                        nextStart = size - 1;
                        nextEnd = size;
                    }
                    double avgX = 0;
                    double avgY = 0;
                    for (int j = nextStart; j < nextEnd; j++) {
                        avgX += s.get(j)[0];
                        avgY += s.get(j)[1];
                    }
                    avgX /= nextEnd - nextStart;
                    avgY /= nextEnd - nextStart;
                    double best = -1;
                    int chosen = start;
                    for (int j = start; j < end; j++) {
                        double area = Math.abs((s.get(a)[0] - avgX) * (s.get(j)[1] - s.get(a)[1])
                            - (s.get(a)[0] - s.get(j)[0]) * (avgY - s.get(a)[1])) * 0.5;
                        if (area > best) {
                            best = area;
                            chosen = j;
                        }
                    }
                    out.add(List.of(s.get(chosen)[0], s.get(chosen)[1]));
                    a = chosen;
                }
                out.add(List.of(s.get(size - 1)[0], s.get(size - 1)[1]));
                return Collections.unmodifiableList(out);
            }
        });
    }
}
