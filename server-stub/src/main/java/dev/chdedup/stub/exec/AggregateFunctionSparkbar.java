package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * sparkbar(width[, min_x, max_x])(x, y), as ClickHouse's AggregateFunctionSparkbar: the y of each distinct x summed,
 * the x range (its own, or the parameters') cut into width buckets ({@code (x - min) * width / (max - min + 1)}), each
 * bucket the mean of its x's sums (integer division for integer y), drawn as {@code y * 7 / max + 1} of the bar
 * characters ▁ to █, a space for an empty bucket or one at or below 0. A String.
 */
final class AggregateFunctionSparkbar {
    private static final String[] BARS = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

    private AggregateFunctionSparkbar() {
    }

    static void register() {
        AggregateFunctionFactory.register("sparkbar", AggregateFunctionSparkbar::create);
        AggregateFunctionFactory.register("sparkBar", AggregateFunctionSparkbar::create);
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters p) {
        if (p.size() != 1 && p.size() != 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "The number of params does not match for aggregate function '"
                + name + "', expected 1 or 3, got " + p.size());
        }
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "The number of arguments does not match for aggregate function '"
                + name + "', expected 2, got " + args.size());
        }
        long width = p.asLong(0);
        DataType xt = args.get(0).unwrap();
        DataType yt = args.get(1).unwrap();
        if (!AggregateFunctionsStatistics.numeric(yt)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The second argument type must be numeric for aggregate function " + name);
        }
        boolean integerY = yt instanceof dev.chdedup.stub.types.IntType;
        Long fromParam = p.size() == 3 ? toLong(xt.convert(p.get(1), p.types().get(1))) : null;
        Long toParam = p.size() == 3 ? toLong(xt.convert(p.get(2), p.types().get(2))) : null;
        var yReader = AggregateFunctionsStatistics.reader(yt);
        return new Aggregates.Aggregate(DataTypes.STRING, () -> new Aggregates.State() {
            final Map<Long, double[]> points = new LinkedHashMap<>();

            @Override
            public void add(Object[] row) {
                points.computeIfAbsent(toLong(row[0]), k -> new double[1])[0] += yReader.applyAsDouble(row[1]);
            }

            @Override
            public Object result() {
                if (points.isEmpty() || width == 0) {
                    return "";
                }
                long from = fromParam != null ? fromParam : points.keySet().stream().min(Long::compare).get();
                long to = toParam != null ? toParam : points.keySet().stream().max(Long::compare).get();
                double[] histogram = new double[(int) width];
                long[] counts = new long[(int) width];
                for (Map.Entry<Long, double[]> e : points.entrySet()) {
                    long x = e.getKey();
                    if (x < from || x > to) {
                        continue;
                    }
                    int index = (int) ((x - from) * width / (to - from + 1));
                    histogram[index] += e.getValue()[0];
                    counts[index]++;
                }
                double max = 0;
                for (int i = 0; i < histogram.length; i++) {
                    if (counts[i] > 0) {
                        histogram[i] = integerY ? Math.floor(histogram[i] / counts[i]) : histogram[i] / counts[i];
                    }
                    if (histogram[i] > max) {
                        max = histogram[i];
                    }
                }
                if (max == 0) {
                    return "";
                }
                StringBuilder sb = new StringBuilder();
                for (double y : histogram) {
                    int bar = Double.isNaN(y) || y <= 0 || max == 0 ? 0 : (int) (integerY ? Math.floor(y * 7 / max) + 1 : y * 7 / max + 1);
                    sb.append(BARS[Math.min(bar, 8)]);
                }
                return ByteStrings.fromText(sb.toString());
            }
        });
    }

    private static long toLong(Object v) {
        return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
    }
}
