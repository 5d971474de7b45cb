package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * quantileDD(relative_accuracy, level)(x), quantilesDD(relative_accuracy, levels...)(x) and medianDD: ClickHouse's
 * DDSketch (DDSketchDenseLogarithmic): gamma = (1 + a) / (1 - a), a positive value counted in the bin
 * {@code (int) (ln(x) / ln(gamma))}, a negative one in the negative store, values within the smallest normal double
 * of zero as zeros; the quantile at rank level * (count - 1) is its bin's {@code gamma^key * (1 + a)} (negated for
 * the negative store, found from the top with a rank reached by rank + 1), 0 for the zeros. Float64; nan of no value.
 */
final class AggregateFunctionQuantileDD {
    private AggregateFunctionQuantileDD() {
    }

    static void register() {
        AggregateFunctionFactory.register("quantileDD", (n, a, p) -> create(n, a, p, false, false));
        AggregateFunctionFactory.register("quantilesDD", (n, a, p) -> create(n, a, p, true, false));
        AggregateFunctionFactory.register("medianDD", (n, a, p) -> create(n, a, p, false, true));
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters p, boolean many, boolean median) {
        if (p.isEmpty() || many && p.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, many
                ? "Aggregate function for calculation of multiple quantiles require at least one parameter"
                : "Aggregate function quantileDD requires at least one param");
        }
        if (!(p.type(0) instanceof FloatType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Aggregate function quantileDD requires relative accuracy parameter with"
                + " Float64 type");
        }
        double accuracy = p.asDouble(0);
        if (accuracy <= 0 || accuracy >= 1) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Relative accuracy must be between 0 and 1 but is " + accuracy);
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
        if (!AggregateFunctionsStatistics.numeric(args.get(0)) || args.get(0).unwrap() instanceof dev.chdedup.stub.types.DecimalType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).name() + " of argument for aggregate function "
                + name);
        }
        var read = AggregateFunctionsStatistics.reader(args.get(0));
        double gamma = (1 + accuracy) / (1 - accuracy);
        double multiplier = 1 / Math.log(gamma);
        double minPossible = Double.MIN_NORMAL * gamma;
        return new Aggregates.Aggregate(many ? DataTypes.array(DataTypes.FLOAT64) : DataTypes.FLOAT64, () -> new Aggregates.State() {
            final TreeMap<Integer, double[]> positive = new TreeMap<>();
            final TreeMap<Integer, double[]> negative = new TreeMap<>();
            double zeros;
            double positiveCount;
            double negativeCount;

            @Override
            public void add(Object[] row) {
                double v = read.applyAsDouble(row[0]);
                if (v > minPossible) {
                    positive.computeIfAbsent(key(v), k -> new double[1])[0]++;
                    positiveCount++;
                } else if (v < -minPossible) {
                    negative.computeIfAbsent(key(-v), k -> new double[1])[0]++;
                    negativeCount++;
                } else {
                    zeros++;
                }
            }

            int key(double v) {
                return (int) (Math.log(v) * multiplier);
            }

            double value(int key) {
                return Math.exp(key / multiplier) * (1 + accuracy);
            }

            double get(double level) {
                double count = positiveCount + negativeCount + zeros;
                if (count == 0) {
                    return Double.NaN;
                }
                double rank = level * (count - 1);
                if (rank < negativeCount) {
                    return -value(keyAtRank(negative, negativeCount - rank - 1, false));
                }
                if (rank < zeros + negativeCount) {
                    return 0;
                }
                return value(keyAtRank(positive, rank - zeros - negativeCount, true));
            }

            int keyAtRank(TreeMap<Integer, double[]> store, double rank, boolean lower) {
                double running = 0;
                for (Map.Entry<Integer, double[]> e : store.entrySet()) {
                    running += e.getValue()[0];
                    if (lower && running > rank || !lower && running >= rank + 1) {
                        return e.getKey();
                    }
                }
                return store.lastKey();
            }

            @Override
            public Object result() {
                Object[] out = new Object[levels.length];
                for (int i = 0; i < levels.length; i++) {
                    out[i] = get(levels[i]);
                }
                return many ? Arrays.asList(out) : out[0];
            }
        });
    }
}
