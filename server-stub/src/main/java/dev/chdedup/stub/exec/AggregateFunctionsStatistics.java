package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IntType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The statistical aggregates over Float64 moments, after ClickHouse's AggregateFunctionStatisticsSimple (varPop,
 * varSamp, stddevPop, stddevSamp, covarPop, covarSamp, corr, skewPop, skewSamp, kurtPop, kurtSamp: sums of powers,
 * then the formulas in ClickHouse's order of operations), AggregateFunctionStatistics (the -Stable forms: Welford's
 * running mean and squared deviations) and the -Matrix forms; avgWeighted, sumCount, sumKahan, boundingRatio,
 * simpleLinearRegression, rankCorr. Arguments are numbers (Decimal read as Float64); a NULL row is skipped.
 */
final class AggregateFunctionsStatistics {
    private AggregateFunctionsStatistics() {
    }

    static void register() {
        for (String n : List.of("varPop", "varSamp", "stddevPop", "stddevSamp", "skewPop", "skewSamp", "kurtPop", "kurtSamp")) {
            AggregateFunctionFactory.register(n, (name, args, p) -> moments(n, name, args, p));
        }
        AggregateFunctionFactory.registerCaseInsensitive("VAR_POP", (name, args, p) -> moments("varPop", name, args, p), false);
        AggregateFunctionFactory.registerCaseInsensitive("VAR_SAMP", (name, args, p) -> moments("varSamp", name, args, p), false);
        AggregateFunctionFactory.registerCaseInsensitive("STDDEV_POP", (name, args, p) -> moments("stddevPop", name, args, p), false);
        AggregateFunctionFactory.registerCaseInsensitive("STDDEV_SAMP", (name, args, p) -> moments("stddevSamp", name, args, p), false);
        AggregateFunctionFactory.registerCaseInsensitive("STD", (name, args, p) -> moments("stddevPop", name, args, p), false);
        AggregateFunctionFactory.registerCaseInsensitive("STDDEV", (name, args, p) -> moments("stddevPop", name, args, p), false);
        for (String n : List.of("varPopStable", "varSampStable", "stddevPopStable", "stddevSampStable")) {
            AggregateFunctionFactory.register(n, (name, args, p) -> stable(n, name, args, p));
        }
        for (String n : List.of("covarPop", "covarSamp", "corr", "covarPopStable", "covarSampStable", "corrStable")) {
            AggregateFunctionFactory.register(n, (name, args, p) -> covariance(n, name, args, p));
        }
        AggregateFunctionFactory.registerCaseInsensitive("COVAR_POP", (name, args, p) -> covariance("covarPop", name, args, p), false);
        AggregateFunctionFactory.registerCaseInsensitive("COVAR_SAMP", (name, args, p) -> covariance("covarSamp", name, args, p), false);
        for (String n : List.of("covarPopMatrix", "covarSampMatrix", "corrMatrix")) {
            AggregateFunctionFactory.register(n, (name, args, p) -> matrix(n, name, args, p));
        }
        AggregateFunctionFactory.register("avgWeighted", AggregateFunctionsStatistics::avgWeighted);
        AggregateFunctionFactory.registerTakingNulls("sumCount", AggregateFunctionsStatistics::sumCount); // its result is never NULL
        AggregateFunctionFactory.register("sumKahan", AggregateFunctionsStatistics::sumKahan);
        AggregateFunctionFactory.register("boundingRatio", AggregateFunctionsStatistics::boundingRatio);
        AggregateFunctionFactory.register("simpleLinearRegression", AggregateFunctionsStatistics::simpleLinearRegression);
        AggregateFunctionFactory.register("rankCorr", AggregateFunctionsStatistics::rankCorr);
    }

    /** A UInt64 held in a long, as a double. */
    static double unsignedDouble(long v) {
        return v >= 0 ? (double) v : ((v >>> 1) | (v & 1)) * 2.0;
    }

    /** Whether {@code t} is a number the statistics take (integers, floats, decimals; not Bool). */
    static boolean numeric(DataType t) {
        DataType u = t.unwrap();
        return (u instanceof IntType || Functions.isFloat(u) || u instanceof DecimalType || u instanceof dev.chdedup.stub.types.BigIntType)
            && !u.name().equals("Bool");
    }

    /** Checks {@code count} numeric arguments; ILLEGAL_TYPE_OF_ARGUMENT for another type. */
    static void numbers(String name, List<DataType> args, int count) {
        if (count >= 0 && args.size() != count) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires "
                + (count == 1 ? "single argument" : count == 2 ? "two arguments" : count + " arguments"));
        }
        for (DataType t : args) {
            if (!numeric(t)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function " + name);
            }
        }
    }

    /** A reader of argument values of type {@code t} as doubles. */
    static ToDoubleFunction<Object> reader(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof IntType it && !it.signed && it.bits == 64) {
            return v -> unsignedDouble((Long) v);
        }
        return v -> v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).doubleValue();
    }

    /** A state over rows of doubles: each row's values read by its argument types. */
    private abstract static class Doubles implements Aggregates.State {
        final ToDoubleFunction<Object>[] readers;
        final double[] row;

        Doubles(ToDoubleFunction<Object>[] readers) {
            this.readers = readers;
            this.row = new double[readers.length];
        }

        @Override
        public void add(Object[] args) {
            for (int i = 0; i < readers.length; i++) {
                if (args[i] == null) {
                    return;
                }
                row[i] = readers[i].applyAsDouble(args[i]);
            }
            add(row);
        }

        abstract void add(double[] r);
    }

    @SuppressWarnings("unchecked")
    static ToDoubleFunction<Object>[] readers(List<DataType> args) {
        ToDoubleFunction<Object>[] r = new ToDoubleFunction[args.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = reader(args.get(i));
        }
        return r;
    }

    private static Aggregates.Aggregate moments(String kind, String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 1);
        int order = kind.startsWith("skew") ? 3 : kind.startsWith("kurt") ? 4 : 2;
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            final double[] m = new double[order + 1];

            @Override
            void add(double[] r) {
                double x = r[0];
                m[0]++;
                m[1] += x;
                m[2] += x * x;
                if (order >= 3) {
                    m[3] += x * x * x;
                }
                if (order >= 4) {
                    m[4] += x * x * x * x;
                }
            }

            @Override
            public Object result() {
                switch (kind) {
                    case "varPop": return varPop(m);
                    case "varSamp": return varSamp(m);
                    case "stddevPop": return Math.sqrt(varPop(m));
                    case "stddevSamp": return Math.sqrt(varSamp(m));
                    case "skewPop": {
                        double v = varPop(m);
                        return m[0] == 0 ? Double.NaN : (m[3] - (3 * m[2] - 2 * m[1] * m[1] / m[0]) * m[1] / m[0]) / m[0] / Math.pow(v, 1.5);
                    }
                    case "skewSamp": {
                        double v = varSamp(m);
                        return m[0] <= 1 ? Double.NaN : (m[3] - (3 * m[2] - 2 * m[1] * m[1] / m[0]) * m[1] / m[0]) / m[0] / Math.pow(v, 1.5);
                    }
                    case "kurtPop": {
                        double v = varPop(m);
                        return m[0] == 0 ? Double.NaN : moment4(m) / m[0] / (v * v);
                    }
                    default: {
                        double v = varSamp(m);
                        return m[0] <= 1 ? Double.NaN : moment4(m) / m[0] / (v * v);
                    }
                }
            }
        });
    }

    private static double moment4(double[] m) {
        return m[4] - (4 * m[3] - (6 * m[2] - 3 * m[1] * m[1] / m[0]) * m[1] / m[0]) * m[1] / m[0];
    }

    private static double varPop(double[] m) {
        return m[0] == 0 ? Double.NaN : Math.max(0, (m[2] - m[1] * m[1] / m[0]) / m[0]);
    }

    private static double varSamp(double[] m) {
        return m[0] <= 1 ? Double.NaN : Math.max(0, (m[2] - m[1] * m[1] / m[0]) / (m[0] - 1));
    }

    /** The -Stable variances: Welford's running mean and sum of squared deviations. */
    private static Aggregates.Aggregate stable(String kind, String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 1);
        boolean samp = kind.contains("Samp");
        boolean sqrt = kind.startsWith("stddev");
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            long count;
            double mean;
            double m2;

            @Override
            void add(double[] r) {
                count++;
                double delta = r[0] - mean;
                mean += delta / count;
                m2 += delta * (r[0] - mean);
            }

            @Override
            public Object result() {
                double v = samp ? (count <= 1 ? Double.NaN : Math.max(0, m2 / (count - 1))) : (count == 0 ? Double.NaN : Math.max(0, m2 / count));
                return sqrt ? Math.sqrt(v) : v;
            }
        });
    }

    private static Aggregates.Aggregate covariance(String kind, String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 2);
        boolean stable = kind.endsWith("Stable");
        boolean corr = kind.startsWith("corr");
        boolean samp = kind.contains("Samp");
        if (stable) {
            return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
                long count;
                double leftMean;
                double rightMean;
                double coMoment;
                double leftM2;
                double rightM2;

                @Override
                void add(double[] r) {
                    count++;
                    double leftDelta = r[0] - leftMean;
                    leftMean += leftDelta / count;
                    double rightDelta = r[1] - rightMean;
                    rightMean += rightDelta / count;
                    coMoment += (r[0] - leftMean) * rightDelta;
                    leftM2 += leftDelta * (r[0] - leftMean);
                    rightM2 += rightDelta * (r[1] - rightMean);
                }

                @Override
                public Object result() {
                    if (corr) {
                        return count <= 1 ? Double.NaN : coMoment / Math.sqrt(leftM2 * rightM2);
                    }
                    return samp ? (count <= 1 ? Double.NaN : coMoment / (count - 1)) : (count == 0 ? Double.NaN : coMoment / count);
                }
            });
        }
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            final double[] s = new double[6]; // n, x, y, xy, xx, yy

            @Override
            void add(double[] r) {
                addPair(s, r[0], r[1]);
            }

            @Override
            public Object result() {
                return corr ? corrOf(s) : samp ? covarSamp(s) : covarPop(s);
            }
        });
    }

    private static void addPair(double[] s, double x, double y) {
        s[0]++;
        s[1] += x;
        s[2] += y;
        s[3] += x * y;
        s[4] += x * x;
        s[5] += y * y;
    }

    private static double covarPop(double[] s) {
        return s[0] == 0 ? Double.NaN : (s[3] - s[1] * s[2] / s[0]) / s[0];
    }

    private static double covarSamp(double[] s) {
        return s[0] <= 1 ? Double.NaN : (s[3] - s[1] * s[2] / s[0]) / (s[0] - 1);
    }

    private static double corrOf(double[] s) {
        if (s[0] <= 1) {
            return Double.NaN;
        }
        return (s[0] * s[3] - s[1] * s[2]) / Math.sqrt((s[0] * s[4] - s[1] * s[1]) * (s[0] * s[5] - s[2] * s[2]));
    }

    /** covarPopMatrix, covarSampMatrix, corrMatrix: the function of every pair of the arguments. */
    private static Aggregates.Aggregate matrix(String kind, String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires at least one argument");
        }
        numbers(name, args, -1);
        int n = args.size();
        return new Aggregates.Aggregate(DataTypes.array(DataTypes.array(DataTypes.FLOAT64)), () -> new Doubles(readers(args)) {
            final double[][][] pairs = new double[n][n][6];

            @Override
            void add(double[] r) {
                for (int i = 0; i < n; i++) {
                    for (int j = i; j < n; j++) {
                        addPair(pairs[i][j], r[i], r[j]);
                    }
                }
            }

            @Override
            public Object result() {
                List<Object> rows = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    List<Object> row = new ArrayList<>();
                    for (int j = 0; j < n; j++) {
                        double[] s = i <= j ? pairs[i][j] : pairs[j][i];
                        row.add(kind.startsWith("corr") ? corrOf(s) : kind.contains("Samp") ? covarSamp(s) : covarPop(s));
                    }
                    rows.add(Collections.unmodifiableList(row));
                }
                return Collections.unmodifiableList(rows);
            }
        });
    }

    private static Aggregates.Aggregate avgWeighted(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 2);
        boolean d0 = args.get(0).unwrap() instanceof DecimalType;
        boolean d1 = args.get(1).unwrap() instanceof DecimalType;
        if (d0 != d1) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Types " + args.get(0).name() + " and " + args.get(1).name()
                + " are non-conforming as arguments for aggregate function " + name);
        }
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            double numerator;
            double denominator;

            @Override
            void add(double[] r) {
                numerator += r[0] * r[1];
                denominator += r[1];
            }

            @Override
            public Object result() {
                return numerator / denominator;
            }
        });
    }

    /** sumCount(x): (sum(x), count(x)), the sum in sum's type. */
    private static Aggregates.Aggregate sumCount(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 1);
        Aggregates.Aggregate sum = Aggregates.create("sum", List.of(TypeRules.stripNullable(args.get(0))), false);
        DataType t = DataTypes.tuple(List.of(sum.type(), DataTypes.UINT64));
        return new Aggregates.Aggregate(t, () -> new Aggregates.State() {
            final Aggregates.State s = sum.factory().get();
            long count;

            @Override
            public void add(Object[] row) {
                if (row[0] != null) {
                    s.add(row);
                    count++;
                }
            }

            @Override
            public Object result() {
                return List.of(s.result(), count);
            }
        });
    }

    /** sumKahan(x): the Float64 sum with Kahan's compensation. */
    private static Aggregates.Aggregate sumKahan(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 1);
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            double sum;
            double compensation;

            @Override
            void add(double[] r) {
                double compensated = r[0] - compensation;
                double newSum = sum + compensated;
                compensation = (newSum - sum) - compensated;
                sum = newSum;
            }

            @Override
            public Object result() {
                return sum;
            }
        });
    }

    /** boundingRatio(x, y): the slope between the points of least and greatest x (the first of each). */
    private static Aggregates.Aggregate boundingRatio(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires exactly two arguments");
        }
        numbers(name, args, 2);
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            boolean empty = true;
            double leftX;
            double leftY;
            double rightX;
            double rightY;

            @Override
            void add(double[] r) {
                if (empty) {
                    leftX = rightX = r[0];
                    leftY = rightY = r[1];
                    empty = false;
                } else if (r[0] < leftX) {
                    leftX = r[0];
                    leftY = r[1];
                } else if (r[0] > rightX) {
                    rightX = r[0];
                    rightY = r[1];
                }
            }

            @Override
            public Object result() {
                return empty ? Double.NaN : (rightY - leftY) / (rightX - leftX);
            }
        });
    }

    private static Aggregates.Aggregate simpleLinearRegression(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 2);
        DataType t = DataTypes.parse("Tuple(k Float64, b Float64)");
        return new Aggregates.Aggregate(t, () -> new Doubles(readers(args)) {
            double n;
            double sx;
            double sy;
            double sxx;
            double sxy;

            @Override
            void add(double[] r) {
                n++;
                sx += r[0];
                sy += r[1];
                sxx += r[0] * r[0];
                sxy += r[0] * r[1];
            }

            @Override
            public Object result() {
                double divisor = sxx * n - sx * sx;
                double k = divisor == 0 ? Double.NaN : (sxy * n - sx * sy) / divisor;
                double b = (sy - k * sx) / n;
                return List.of(k, b);
            }
        });
    }

    /** rankCorr(x, y): Spearman's coefficient, 1 - 6 * sum(d^2) / (n (n^2 - 1)), ties ranked by their mean rank. */
    private static Aggregates.Aggregate rankCorr(String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        numbers(name, args, 2);
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Doubles(readers(args)) {
            final List<double[]> rows = new ArrayList<>();

            @Override
            void add(double[] r) {
                rows.add(r.clone());
            }

            @Override
            public Object result() {
                int n = rows.size();
                double[] rx = ranks(rows, 0);
                double[] ry = ranks(rows, 1);
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    double d = rx[i] - ry[i];
                    sum += d * d;
                }
                double size = n;
                return 1 - (6 * sum) / (size * (size * size - 1));
            }
        });
    }

    /** The 1-based ranks of column {@code c} of {@code rows}, ties given their mean rank. */
    static double[] ranks(List<double[]> rows, int c) {
        int n = rows.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(rows.get(a)[c], rows.get(b)[c]));
        double[] rank = new double[n];
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && rows.get(order[j + 1])[c] == rows.get(order[i])[c]) {
                j++;
            }
            double r = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                rank[order[k]] = r;
            }
            i = j + 1;
        }
        return rank;
    }
}
