package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.compress.CityHash128;
import java.util.List;

/**
 * The measures of association of two categorical values, after ClickHouse's CrossTab.h: each value is hashed
 * (CityHash64 of its bytes in memory, as UniqVariadicHash) and counted, each a, each b and each pair of hashes, in
 * hash maps laid out as ClickHouse's ({@link HashMapCounts}), since the sums below run in their order. Phi squared is
 * the sum over the pairs of ab^2 / (a b), less 1, clamped to [0, min(|A|, |B|) - 1]; it gives cramersV,
 * cramersVBiasCorrected and contingency; theilsU is the uncertainty coefficient from the entropies. Float64, NaN
 * below two rows.
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
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        p.none(name);
        DataType ta = args.get(0).unwrap();
        DataType tb = args.get(1).unwrap();
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Aggregates.State() {
            final HashMapCounts countA = new HashMapCounts(4, HashMapCounts.TRIVIAL);
            final HashMapCounts countB = new HashMapCounts(4, HashMapCounts.TRIVIAL);
            final HashMapCounts countAB = new HashMapCounts(4, HashMapCounts.UINT128);
            long count;

            @Override
            public void add(Object[] row) {
                long ha = hash(row[0], ta);
                long hb = hash(row[1], tb);
                count++;
                countA.add(ha, 0, 1);
                countB.add(hb, 0, 1);
                countAB.add(ha, hb, 1);
            }

            double phiSquared() {
                double[] sum = {0};
                countAB.forEach((a, b, ab) -> {
                    double fa = countA.get(a, 0);
                    double fb = countB.get(b, 0);
                    double fab = ab;
                    sum[0] += (fab * fab) / (fa * fb);
                });
                double phi = Math.max(sum[0] - 1.0, 0.0);
                long q = Math.min(countA.size(), countB.size());
                return q <= 1 ? 0.0 : Math.min(phi, (double) (q - 1));
            }

            @Override
            public Object result() {
                if (count < 2) {
                    return Double.NaN;
                }
                double qa = countA.size();
                double qb = countB.size();
                switch (kind) {
                    case "cramersV": {
                        long q = Math.min(countA.size(), countB.size());
                        return q <= 1 ? Double.NaN : Math.sqrt(phiSquared() / (double) (q - 1));
                    }
                    case "cramersVBiasCorrected": {
                        double phi = phiSquared();
                        double n1 = count - 1;
                        double res = Math.max(0.0, phi - (qa - 1) * (qb - 1) / n1);
                        double ca = qa - (qa - 1) * (qa - 1) / n1;
                        double cb = qb - (qb - 1) * (qb - 1) / n1;
                        double denom = Math.min(ca, cb) - 1.0;
                        return denom <= 0.0 ? Double.NaN : Math.sqrt(res / denom);
                    }
                    case "contingency": {
                        double phi = phiSquared();
                        return Math.sqrt(phi / (phi + 1.0));
                    }
                    default:
                        return theilsU();
                }
            }

            double theilsU() {
                double n = count;
                double[] ha = {0};
                countA.forEach((a, unused, fa) -> {
                    double prob = fa / n;
                    ha[0] += prob * Math.log(prob);
                });
                if (ha[0] == 0.0) {
                    return 0.0;
                }
                double[] dep = {0};
                countAB.forEach((a, b, ab) -> {
                    double fab = ab;
                    dep[0] += (fab / n) * Math.log(fab / countB.get(b, 0));
                });
                return (ha[0] - dep[0]) / ha[0];
            }
        });
    }

    /**
     * UniqVariadicHash of one value: CityHash64 of its bytes in memory (a string's bytes, a number's little-endian
     * bytes, an array of fixed-size elements its elements' bytes); other values have no such bytes (NOT_IMPLEMENTED, as
     * ClickHouse's getDataAt).
     */
    static long hash(Object v, DataType t) {
        byte[] b = memoryBytes(v, t);
        return CityHash128.hash64(b, 0, b.length);
    }

    private static byte[] memoryBytes(Object v, DataType t) {
        if (t instanceof ArrayType at) {
            DataType e = at.element;
            if (e.isNullable() || !ReinterpretFunctions.fixedWidth(e)) {
                throw notContiguous(t);
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (Object x : (List<?>) v) {
                out.writeBytes(ReinterpretFunctions.bytes(x, e));
            }
            return out.toByteArray();
        }
        if (t instanceof StringType || ReinterpretFunctions.fixedWidth(t)) {
            return ReinterpretFunctions.bytes(v, t);
        }
        throw notContiguous(t);
    }

    private static ChException notContiguous(DataType t) {
        return new ChException(ErrorCode.NOT_IMPLEMENTED, "Method getDataAt is not supported for " + t.name());
    }
}
