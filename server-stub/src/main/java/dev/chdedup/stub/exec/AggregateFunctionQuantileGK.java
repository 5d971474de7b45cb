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

/**
 * quantileGK(accuracy, level)(x), quantilesGK(accuracy, levels...)(x) and medianGK(accuracy)(x): the Greenwald-Khanna
 * summary of ClickHouse's QuantileGK (relative error 1 / accuracy): values gather in a head buffer of 50,000, which is
 * sorted into the samples (value, g = 1, delta = floor(2 * eps * count), 0 for the first and last), the samples are
 * compressed (from the last, merging a sample into the next while g + g' + delta' < 2 * eps * count, at 10,000
 * samples and when asked) and a level is the first sample whose rank range holds ceil(level * count) within half the
 * largest g + delta. The result is of x's type; the default of no value.
 */
final class AggregateFunctionQuantileGK {
    private static final int HEAD_SIZE = 50_000;
    private static final int COMPRESS_THRESHOLD = 10_000;

    private AggregateFunctionQuantileGK() {
    }

    static void register() {
        AggregateFunctionFactory.register("quantileGK", (n, a, p) -> create(n, a, p, false, false));
        AggregateFunctionFactory.register("quantilesGK", (n, a, p) -> create(n, a, p, true, false));
        AggregateFunctionFactory.register("medianGK", (n, a, p) -> create(n, a, p, false, true));
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters p, boolean many, boolean median) {
        String family = many ? name : "quantileGK";
        if (p.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, many
                ? "Aggregate function for calculation of multiple quantiles require at least one parameter"
                : "Aggregate function " + family + " requires at least one param");
        }
        if (!p.isInteger(0)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Aggregate function " + family
                + " requires accuracy parameter with integer type");
        }
        long accuracy = p.asLong(0);
        if (accuracy <= 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Aggregate function " + family
                + " requires accuracy parameter with positive value but is " + accuracy);
        }
        if (many && p.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "Aggregate function for calculation of multiple quantiles require at least one parameter");
        }
        if (!many && p.size() > 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires one level parameter or less");
        }
        double[] levels = new double[many ? p.size() - 1 : 1];
        levels[0] = 0.5;
        for (int i = 1; i < p.size(); i++) {
            levels[i - 1] = p.asDouble(i);
            if (!(levels[i - 1] >= 0 && levels[i - 1] <= 1)) {
                throw new ChException(ErrorCode.PARAMETER_OUT_OF_BOUND, "Quantile level is out of range [0..1]");
            }
        }
        if (args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires one argument");
        }
        DataType t = args.get(0).unwrap();
        if (!(t instanceof IntType) && !(t instanceof FloatType) || t.name().equals("Bool")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).name() + " of argument for aggregate function "
                + family);
        }
        double eps = 1.0 / accuracy;
        return new Aggregates.Aggregate(many ? DataTypes.array(t) : t, () -> new Aggregates.State() {
            final Sampler s = new Sampler(eps, t);

            @Override
            public void add(Object[] row) {
                s.insert(row[0]);
            }

            @Override
            public Object result() {
                Object[] out = s.query(levels);
                return many ? Arrays.asList(out) : out[0];
            }
        });
    }

    /** One sample: a value, the least rank step from the previous sample (g) and the rank's span (delta). */
    private record Sample(Object value, long g, long delta) {
    }

    private static final class Sampler {
        final double eps;
        final DataType type;
        List<Sample> sampled = new ArrayList<>();
        final List<Object> head = new ArrayList<>();
        long count;

        Sampler(double eps, DataType type) {
            this.eps = eps;
            this.type = type;
        }

        void insert(Object x) {
            head.add(x);
            if (head.size() >= HEAD_SIZE) {
                withHead();
                if (sampled.size() >= COMPRESS_THRESHOLD) {
                    compress(2 * eps * count);
                }
            }
        }

        void withHead() {
            if (head.isEmpty()) {
                return;
            }
            head.sort(type::compare);
            List<Sample> out = new ArrayList<>(sampled.size() + head.size());
            int at = 0;
            long current = count;
            for (int i = 0; i < head.size(); i++) {
                Object x = head.get(i);
                while (at < sampled.size() && type.compare(sampled.get(at).value(), x) <= 0) {
                    out.add(sampled.get(at++));
                }
                current++;
                long delta = out.isEmpty() || at == sampled.size() && i == head.size() - 1 ? 0 : (long) Math.floor(2 * eps * current);
                out.add(new Sample(x, 1, delta));
            }
            while (at < sampled.size()) {
                out.add(sampled.get(at++));
            }
            sampled = out;
            head.clear();
            count = current;
        }

        void compress(double threshold) {
            if (sampled.isEmpty()) {
                return;
            }
            List<Sample> out = new ArrayList<>();
            Sample headSample = sampled.get(sampled.size() - 1);
            for (int i = sampled.size() - 2; i >= 1; i--) {
                Sample s = sampled.get(i);
                if (s.g() + headSample.g() + headSample.delta() < threshold) {
                    headSample = new Sample(headSample.value(), headSample.g() + s.g(), headSample.delta());
                } else {
                    out.add(headSample);
                    headSample = s;
                }
            }
            out.add(headSample);
            Sample first = sampled.get(0);
            if (type.compare(first.value(), headSample.value()) <= 0 && sampled.size() > 1) {
                out.add(first);
            }
            java.util.Collections.reverse(out);
            sampled = out;
        }

        Object[] query(double[] levels) {
            withHead();
            compress(2 * eps * count);
            Object[] result = new Object[levels.length];
            if (sampled.isEmpty()) {
                Arrays.fill(result, type.defaultValue());
                return result;
            }
            long currentMax = Long.MIN_VALUE;
            for (Sample s : sampled) {
                currentMax = Math.max(currentMax, s.delta() + s.g());
            }
            long targetError = currentMax / 2;
            Integer[] order = new Integer[levels.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Double.compare(levels[a], levels[b]));
            int index = 0;
            long minRank = sampled.get(0).g();
            for (int k : order) {
                double level = levels[k];
                if (level <= eps) {
                    result[k] = sampled.get(0).value();
                } else if (level >= 1 - eps) {
                    result[k] = sampled.get(sampled.size() - 1).value();
                } else {
                    long rank = (long) Math.ceil(level * count);
                    int i = index;
                    long min = minRank;
                    Sample cur = sampled.get(i);
                    boolean found = false;
                    while (i < sampled.size() - 1) {
                        long max = min + cur.delta();
                        if (max - targetError <= rank && rank <= min + targetError) {
                            found = true;
                            break;
                        }
                        i++;
                        cur = sampled.get(i);
                        min += cur.g();
                    }
                    if (found) {
                        index = i;
                        minRank = min;
                        result[k] = cur.value();
                    } else {
                        index = sampled.size() - 1;
                        minRank = 0;
                        result[k] = sampled.get(sampled.size() - 1).value();
                    }
                }
            }
            return result;
        }
    }
}
