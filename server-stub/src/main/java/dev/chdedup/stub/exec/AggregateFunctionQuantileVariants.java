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
import java.util.function.ToDoubleFunction;

/**
 * The exact quantile variants of ClickHouse's QuantileExact.h, QuantileExactWeighted.h,
 * QuantileInterpolatedWeighted.h, QuantileBFloat16Histogram.h, QuantileTiming.h and QuantileReservoirSamplerDeterministic.h,
 * each as {@code quantileX(level)(x[, weight])}, {@code quantilesX(levels...)} and {@code medianX}: ExactLow / ExactHigh
 * (the value at floor(level * n), the lower / upper middle for the median, in x's type), ExactInclusive / ExactExclusive
 * (Excel's PERCENTILE.INC / .EXC, Float64), ExactWeighted (the first value whose cumulated weight reaches
 * ceil(level * total), x's type), InterpolatedWeighted (between the values' weight midpoints, x's type),
 * ExactWeightedInterpolated (as quantile over each value repeated weight times, Float64), Deterministic (exact below its
 * 8192-value reservoir: as quantile), BFloat16 (x truncated to bfloat16, the first whose count reaches level * n,
 * Float64), Timing (exact while its sample is, Float32) and TDigest (its centroids while each holds one value, as
 * for fewer than about 200 values; Float32). The GK and DD sketches are not here.
 */
final class AggregateFunctionQuantileVariants {
    private AggregateFunctionQuantileVariants() {
    }

    private static final List<String> KINDS = List.of("ExactLow", "ExactHigh", "ExactInclusive", "ExactExclusive", "ExactWeighted",
        "InterpolatedWeighted", "ExactWeightedInterpolated", "Deterministic", "BFloat16", "BFloat16Weighted", "Timing", "TimingWeighted", "TDigest", "TDigestWeighted");

    static void register() {
        for (String k : KINDS) {
            AggregateFunctionFactory.register("quantile" + k, (n, a, p) -> create(n, k, false, false, a, p));
            AggregateFunctionFactory.register("quantiles" + k, (n, a, p) -> create(n, k, true, false, a, p));
            AggregateFunctionFactory.register("median" + k, (n, a, p) -> create(n, k, false, true, a, p));
        }
    }

    private static boolean weighted(String kind) {
        return kind.endsWith("Weighted") || kind.equals("ExactWeightedInterpolated") || kind.equals("Deterministic");
    }

    private static Aggregates.Aggregate create(String name, String kind, boolean many, boolean median, List<DataType> args,
                                               AggregateParameters p) {
        int arity = weighted(kind) ? 2 : 1;
        if (args.size() != arity) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires "
                + (arity == 2 ? "two arguments" : "one argument"));
        }
        DataType t = args.get(0).unwrap();
        if (!(t instanceof IntType) && !(t instanceof FloatType) || t.name().equals("Bool")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).name() + " of argument for aggregate function "
                + name);
        }
        if (arity == 2 && !kind.equals("Deterministic") && !(args.get(1).unwrap() instanceof IntType it && !it.signed)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument (weight) for function " + name
                + " must be unsigned integer, but it has type " + args.get(1).name());
        }
        double[] levels = levels(name, many, median, p);
        if (kind.equals("ExactExclusive")) {
            for (double l : levels) {
                if (l == 0 || l == 1) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "QuantileExactExclusive cannot interpolate for the percentiles 1 and 0");
                }
            }
        }
        DataType one = switch (kind) {
            case "ExactLow", "ExactHigh", "ExactWeighted", "InterpolatedWeighted" -> t;
            case "Timing", "TimingWeighted", "TDigest", "TDigestWeighted" -> DataTypes.FLOAT32;
            default -> DataTypes.FLOAT64;
        };
        ToDoubleFunction<Object> value = AggregateFunctionsStatistics.reader(t);
        boolean useWeights = arity == 2 && !kind.equals("Deterministic");
        return new Aggregates.Aggregate(many ? DataTypes.array(one) : one, () -> new Aggregates.State() {
            final List<Object> values = new ArrayList<>();
            final List<Long> weights = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                if (row[0] == null || arity == 2 && row[1] == null) {
                    return;
                }
                long w = useWeights ? ((Number) row[1]).longValue() : 1;
                if (w <= 0 && useWeights && !kind.equals("InterpolatedWeighted")) { // its map keeps the values of weight 0
                    return;
                }
                values.add(row[0]);
                weights.add(w);
            }

            @Override
            public Object result() {
                Integer[] order = new Integer[values.size()];
                for (int i = 0; i < order.length; i++) {
                    order[i] = i;
                }
                Arrays.sort(order, (a, b) -> t.compare(values.get(a), values.get(b)));
                List<Object> v = new ArrayList<>();
                long[] w = new long[order.length];
                for (int i = 0; i < order.length; i++) {
                    v.add(values.get(order[i]));
                    w[i] = weights.get(order[i]);
                }
                Object[] out = new Object[levels.length];
                for (int i = 0; i < levels.length; i++) {
                    out[i] = one(kind, t, one, v, w, levels[i], median, value);
                }
                return many ? Arrays.asList(out) : out[0];
            }
        });
    }

    private static double[] levels(String name, boolean many, boolean median, AggregateParameters p) {
        if (median) {
            p.none(name);
            return new double[] {0.5};
        }
        if (p.isEmpty()) {
            return new double[] {0.5};
        }
        if (!many) {
            p.count(name, 0, 1);
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

    private static Object one(String kind, DataType t, DataType out, List<Object> v, long[] w, double level, boolean median,
                              ToDoubleFunction<Object> value) {
        int n = v.size();
        if (n == 0) {
            return out.name().startsWith("Float") && !out.equals(t) ? nan(out) : out.defaultValue();
        }
        switch (kind) {
            case "ExactLow":
            case "ExactHigh": {
                if (level == 0.5 && (median || true)) {
                    int idx = kind.equals("ExactLow") ? (n % 2 == 1 ? n / 2 : n / 2 - 1) : n / 2;
                    return v.get(idx);
                }
                return v.get(level < 1 ? (int) Math.floor(level * n) : n - 1);
            }
            case "ExactInclusive": {
                double h = level * (n - 1) + 1;
                int k = (int) h;
                if (k >= n) {
                    return value.applyAsDouble(v.get(n - 1));
                }
                if (k < 1) {
                    return value.applyAsDouble(v.get(0));
                }
                double lo = value.applyAsDouble(v.get(k - 1));
                return lo + (h - k) * (value.applyAsDouble(v.get(k)) - lo);
            }
            case "ExactExclusive": {
                double h = level * (n + 1);
                int k = (int) h;
                if (k >= n) {
                    return value.applyAsDouble(v.get(n - 1));
                }
                if (k < 1) {
                    return value.applyAsDouble(v.get(0));
                }
                double lo = value.applyAsDouble(v.get(k - 1));
                return lo + (h - k) * (value.applyAsDouble(v.get(k)) - lo);
            }
            case "ExactWeighted": {
                double sum = 0;
                for (long x : w) {
                    sum += x;
                }
                double threshold = Math.ceil(sum * level);
                double acc = 0;
                for (int i = 0; i < n; i++) {
                    acc += w[i];
                    if (acc >= threshold) {
                        return v.get(i);
                    }
                }
                return v.get(n - 1);
            }
            case "InterpolatedWeighted": {
                double sum = 0;
                for (long x : w) {
                    sum += x;
                }
                double[] pos = new double[n];
                double acc = 0;
                for (int i = 0; i < n; i++) {
                    acc += w[i];
                    pos[i] = (acc - 0.5 * w[i]) / sum;
                }
                double r;
                if (level <= pos[0]) {
                    r = value.applyAsDouble(v.get(0));
                } else if (level >= pos[n - 1]) {
                    r = value.applyAsDouble(v.get(n - 1));
                } else {
                    int i = 0;
                    while (pos[i + 1] < level) {
                        i++;
                    }
                    double lo = value.applyAsDouble(v.get(i));
                    double hi = value.applyAsDouble(v.get(i + 1));
                    r = lo + (level - pos[i]) / (pos[i + 1] - pos[i]) * (hi - lo);
                }
                return castTo(t, r);
            }
            case "ExactWeightedInterpolated":
            case "Deterministic": {
                long total = 0;
                for (long x : w) {
                    total += x;
                }
                double index = level * (total - 1);
                long left = (long) Math.floor(index);
                double l = valueAt(v, w, left, value);
                double r = valueAt(v, w, Math.min(left + 1, total - 1), value);
                double f = index - left;
                return l == r && !kind.equals("Deterministic") ? l : (1 - f) * l + f * r;
            }
            case "BFloat16":
            case "BFloat16Weighted": {
                List<double[]> b = new ArrayList<>();
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    b.add(new double[] {bfloat16(value.applyAsDouble(v.get(i))), w[i]});
                    sum += w[i];
                }
                b.sort((x, y) -> Double.compare(x[0], y[0]));
                double threshold = level * sum;
                double acc = 0;
                for (double[] x : b) {
                    acc += x[1];
                    if (acc >= threshold) {
                        return x[0];
                    }
                }
                return b.get(b.size() - 1)[0];
            }
            case "TDigest":
            case "TDigestWeighted": { // the digest's centroids, one per value while it has not merged any
                double total = 0;
                for (long x : w) {
                    total += x;
                }
                double x = level * total;
                double prevX = 0;
                double sum = 0;
                double prevMean = (float) value.applyAsDouble(v.get(0));
                long prevCount = w[0];
                for (int i = 0; i < n; i++) {
                    double mean = (float) value.applyAsDouble(v.get(i));
                    double current = sum + w[i] * 0.5;
                    if (current >= x) {
                        double left = prevX + (prevCount == 1 ? 0.5 : 0);
                        double right = current - (w[i] == 1 ? 0.5 : 0);
                        if (x <= left) {
                            return (float) prevMean;
                        }
                        if (x >= right) {
                            return (float) mean;
                        }
                        return (float) (prevMean + (x - left) / (right - left) * (mean - prevMean));
                    }
                    sum += w[i];
                    prevMean = mean;
                    prevCount = w[i];
                    prevX = current;
                }
                return (float) prevMean;
            }
            default: { // Timing: the sample's value at level * count
                long total = 0;
                for (long x : w) {
                    total += x;
                }
                long idx = level < 1 ? (long) (level * total) : total - 1;
                return (float) Math.min(valueAt(v, w, idx, value), 30000);
            }
        }
    }

    private static Object nan(DataType out) {
        return out.name().equals("Float32") ? (Object) Float.NaN : (Object) Double.NaN;
    }

    /** The value at {@code index} of the sorted values, each repeated its weight times. */
    private static double valueAt(List<Object> v, long[] w, long index, ToDoubleFunction<Object> value) {
        long acc = 0;
        for (int i = 0; i < v.size(); i++) {
            acc += w[i];
            if (index < acc) {
                return value.applyAsDouble(v.get(i));
            }
        }
        return value.applyAsDouble(v.get(v.size() - 1));
    }

    /** {@code x} as Float32 with the low 16 bits of its pattern cleared. */
    private static double bfloat16(double x) {
        return Float.intBitsToFloat(Float.floatToRawIntBits((float) x) & 0xFFFF0000);
    }

    /** A double as a value of {@code t} (integers truncated toward zero). */
    private static Object castTo(DataType t, double r) {
        if (t instanceof IntType it) {
            return it.wrap((long) r);
        }
        if (t.name().equals("Float32")) {
            return (float) r;
        }
        return r;
    }
}
