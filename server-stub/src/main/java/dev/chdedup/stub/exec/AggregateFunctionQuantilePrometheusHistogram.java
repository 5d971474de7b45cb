package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * quantilePrometheusHistogram(level)(upper_bound, cumulative_value) and quantilesPrometheusHistogram, as PromQL's
 * histogram_quantile over a classic histogram (ClickHouse's QuantilePrometheusHistogram): the cumulative values of
 * each upper bound summed (NaN bounds left out), the position level * (the +Inf bucket's value) found in the first
 * bucket whose value reaches it, and interpolated linearly between that bucket's bounds (from 0 for the first
 * bucket when its bound is positive; the largest finite bound for the +Inf bucket). NaN without a +Inf bucket or with
 * fewer than two buckets; the type's default of no row. The bound is a Float32/64, the value an unsigned integer or a
 * Float64.
 */
final class AggregateFunctionQuantilePrometheusHistogram {
    private AggregateFunctionQuantilePrometheusHistogram() {
    }

    static void register() {
        AggregateFunctionFactory.register("quantilePrometheusHistogram", (n, a, p) -> create(n, a, p, false));
        AggregateFunctionFactory.register("quantilesPrometheusHistogram", (n, a, p) -> create(n, a, p, true));
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters p, boolean many) {
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        DataType bound = args.get(0).unwrap();
        DataType value = args.get(1).unwrap();
        if (!(bound instanceof FloatType) || bound.name().equals("BFloat16")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + bound.name() + " of argument for aggregate function " + name);
        }
        if (!(value instanceof IntType it && !it.signed && !value.name().equals("Bool")) && !value.name().equals("Float64")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + value.name() + " of argument for aggregate function " + name);
        }
        double[] levels = levels(name, p, many);
        boolean float32 = bound.name().equals("Float32");
        var readValue = AggregateFunctionsStatistics.reader(value);
        return new Aggregates.Aggregate(many ? DataTypes.array(bound) : bound, () -> new Aggregates.State() {
            final TreeMap<Double, double[]> buckets = new TreeMap<>();

            @Override
            public void add(Object[] row) {
                double b = ((Number) row[0]).doubleValue();
                if (!Double.isNaN(b)) {
                    buckets.computeIfAbsent(b, k -> new double[1])[0] += readValue.applyAsDouble(row[1]);
                }
            }

            @Override
            public Object result() {
                Object[] out = new Object[levels.length];
                for (int i = 0; i < levels.length; i++) {
                    double r = buckets.isEmpty() ? 0 : quantile(levels[i]);
                    out[i] = float32 ? (Object) (float) r : (Object) r;
                }
                return many ? Arrays.asList(out) : out[0];
            }

            double quantile(double level) {
                if (buckets.size() < 2 || buckets.lastKey() != Double.POSITIVE_INFINITY) {
                    return Double.NaN;
                }
                List<double[]> pairs = new ArrayList<>();
                for (Map.Entry<Double, double[]> e : buckets.entrySet()) {
                    pairs.add(new double[] {e.getKey(), e.getValue()[0]});
                }
                double position = pairs.get(pairs.size() - 1)[1] * level;
                int upper = 0;
                while (upper < pairs.size() && pairs.get(upper)[1] < position) {
                    upper++;
                }
                if (upper == 0) {
                    double[] first = pairs.get(0);
                    return first[0] > 0 ? first[0] * (position / first[1]) : first[0];
                }
                if (upper >= pairs.size() - 1) {
                    return pairs.get(pairs.size() - 2)[0];
                }
                double[] lo = pairs.get(upper - 1);
                double[] hi = pairs.get(upper);
                return lo[0] + (hi[0] - lo[0]) * (position - lo[1]) / (hi[1] - lo[1]);
            }
        });
    }

    private static double[] levels(String name, AggregateParameters p, boolean many) {
        if (!many) {
            p.count(name, 0, 1);
        } else if (p.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "Aggregate function for calculation of multiple quantiles require at least one parameter");
        }
        if (p.isEmpty()) {
            return new double[] {0.5};
        }
        double[] levels = new double[p.size()];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = p.asDouble(i);
            if (!(levels[i] >= 0 && levels[i] <= 1)) {
                throw new ChException(ErrorCode.PARAMETER_OUT_OF_BOUND, "Quantile level is out of range [0..1]");
            }
        }
        return levels;
    }
}
