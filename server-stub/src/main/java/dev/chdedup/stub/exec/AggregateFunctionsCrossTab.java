package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measures of association of two categorical values, after ClickHouse's CrossTab.h: from the counts of each a,
 * each b and each pair, phi squared (chi squared over the pairs seen, divided by the count) gives cramersV,
 * cramersVBiasCorrected and contingency; theilsU is the uncertainty coefficient from the entropies. Float64.
 */
final class AggregateFunctionsCrossTab {
    private AggregateFunctionsCrossTab() {
    }

    static void register() {
        for (String n : List.of("cramersV", "cramersVBiasCorrected", "contingency", "theilsU")) {
            AggregateFunctionFactory.register(n, (name, args, p) -> create(n, name, args, p));
        }
    }

    private static Aggregates.Aggregate create(String kind, String name, List<DataType> args, AggregateParameters p) {
        p.none(name);
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Aggregates.State() {
            final Map<Object, long[]> countA = new LinkedHashMap<>();
            final Map<Object, long[]> countB = new LinkedHashMap<>();
            final Map<List<Object>, long[]> countAB = new LinkedHashMap<>();
            long count;

            @Override
            public void add(Object[] row) {
                count++;
                countA.computeIfAbsent(row[0], k -> new long[1])[0]++;
                countB.computeIfAbsent(row[1], k -> new long[1])[0]++;
                countAB.computeIfAbsent(java.util.Arrays.asList(row[0], row[1]), k -> new long[1])[0]++;
            }

            double phiSquared() {
                double phi = 0;
                for (Map.Entry<List<Object>, long[]> e : countAB.entrySet()) {
                    double a = countA.get(e.getKey().get(0))[0];
                    double b = countB.get(e.getKey().get(1))[0];
                    double ab = e.getValue()[0];
                    phi += ab * ab / (a * b);
                }
                return Math.max(0, phi - 1);
            }

            @Override
            public Object result() {
                if (count == 0) {
                    return Double.NaN;
                }
                double qa = countA.size();
                double qb = countB.size();
                switch (kind) {
                    case "cramersV":
                        return Math.sqrt(phiSquared() / Math.min(qa - 1, qb - 1));
                    case "cramersVBiasCorrected": {
                        double phi = phiSquared();
                        double n1 = count - 1;
                        double res = Math.max(0, phi - (qa - 1) * (qb - 1) / n1);
                        double ca = qa - (qa - 1) * (qa - 1) / n1;
                        double cb = qb - (qb - 1) * (qb - 1) / n1;
                        res /= Math.min(ca, cb) - 1;
                        return Math.sqrt(res);
                    }
                    case "contingency": {
                        double phi = phiSquared();
                        return Math.sqrt(phi / (phi + 1));
                    }
                    default: {
                        double ha = 0;
                        for (long[] v : countA.values()) {
                            double f = (double) v[0] / count;
                            ha += f * Math.log(f);
                        }
                        double dep = 0;
                        for (Map.Entry<List<Object>, long[]> e : countAB.entrySet()) {
                            double ab = e.getValue()[0];
                            double b = countB.get(e.getKey().get(1))[0];
                            dep += (ab / count) * Math.log(ab / b);
                        }
                        dep -= ha;
                        dep /= ha;
                        return -dep;
                    }
                }
            }
        });
    }
}
