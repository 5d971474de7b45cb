package dev.chdedup.stub.exec;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.hash.MurmurHash;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.util.HashSet;
import java.util.Set;

/**
 * uniqCombined(K)(x) of one number or string, after ClickHouse's AggregateFunctionUniqCombined over its
 * CombinedCardinalityEstimator: each value is hashed (intHash64 of a number's bits, a float's too (-0 apart from 0), kept
 * to 32 bits; CityHash64 of a string, kept whole in the set and to its low 32 bits in the sketch); the distinct hashes are
 * counted exactly while there are at most 2^(K-4) of them (2^(K-5) for strings), then by a HyperLogLog of 2^K buckets:
 * a hash's low K bits pick the bucket, the trailing zeros of the rest (plus one) its rank. The estimate is the
 * harmonic mean's alpha m^2 / sum 2^-rank, by linear counting (m log(m / empty buckets)) up to 2.5 m (5 m for K = 17,
 * whose bias table between its linear-counting threshold and 5 m is not reproduced), the large-range correction above
 * 2^32 / 30, rounded.
 */
final class AggregateFunctionUniqCombined {
    private static final double POW2_32 = 4294967296.0;

    private AggregateFunctionUniqCombined() {
    }

    /** Whether uniqCombined of one argument of type {@code t} (not Nullable) is computed here. */
    static boolean handles(DataType t) {
        return hashing(t) != 0;
    }

    /** 1 for a number hashed by intHash64, 2 for a float, 3 for a string, 0 for another type. */
    private static int hashing(DataType t) {
        if (t instanceof FloatType f) {
            return f.equals(DataTypes.FLOAT64) || f.equals(DataTypes.FLOAT32) ? 2 : 0;
        }
        if (t instanceof IntType i && i.bits <= 64 || t instanceof BoolType) {
            return 1;
        }
        return t instanceof StringType s && !s.name().startsWith("FixedString") ? 3 : 0;
    }

    static Aggregates.Aggregate create(DataType t, int k) {
        int how = hashing(t);
        boolean float32 = t.equals(DataTypes.FLOAT32);
        int mediumMax = 1 << (how == 3 ? k - 5 : k - 4);
        return new Aggregates.Aggregate(DataTypes.UINT64, () -> new Aggregates.State() {
            Set<Long> exact = new HashSet<>();
            byte[] ranks;

            @Override
            public void add(Object[] row) {
                Object v = row[0];
                if (v == null) {
                    return;
                }
                long key;
                if (how == 3) {
                    byte[] b = ByteStrings.bytes((String) v);
                    key = CityHash128.hash64(b, 0, b.length);
                } else if (how == 2) {
                    long bits = float32 ? Float.floatToRawIntBits(((Number) v).floatValue()) & 0xFFFFFFFFL
                        : Double.doubleToRawLongBits(((Number) v).doubleValue());
                    key = MurmurHash.fmix64(bits) & 0xFFFFFFFFL;
                } else {
                    long x = v instanceof Boolean bo ? (bo ? 1 : 0) : ((Number) v).longValue();
                    key = MurmurHash.fmix64(x) & 0xFFFFFFFFL;
                }
                if (ranks == null) {
                    if (exact.size() < mediumMax) {
                        exact.add(key);
                        return;
                    }
                    ranks = new byte[1 << k];
                    for (long e : exact) {
                        insert(e);
                    }
                    exact = null;
                }
                insert(key);
            }

            private void insert(long key) {
                int h = (int) key; // the sketch hashes 32 bits
                int bucket = h & ((1 << k) - 1);
                int tail = h >>> k;
                int maxRank = 32 - k + 1;
                int rank = tail == 0 ? maxRank : Math.min(Integer.numberOfTrailingZeros(tail) + 1, maxRank);
                if (rank > ranks[bucket]) {
                    ranks[bucket] = (byte) rank;
                }
            }

            @Override
            public Object result() {
                if (ranks == null) {
                    return (long) exact.size();
                }
                double m = 1 << k;
                double denominator = 0;
                int zeros = 0;
                for (byte r : ranks) {
                    denominator += Math.scalb(1.0, -r);
                    zeros += r == 0 ? 1 : 0;
                }
                double alpha = 0.7213 / (1 + 1.079 / m);
                double raw = alpha * m * m / denominator;
                double estimate;
                if (raw > POW2_32 / 30.0) {
                    estimate = -POW2_32 * Math.log(1.0 - raw / POW2_32);
                } else if (raw <= (k == 17 ? 5 : 2.5) * m && zeros != 0) {
                    estimate = m * Math.log(m / zeros);
                } else {
                    estimate = raw;
                }
                return (long) (estimate + 0.5);
            }
        });
    }
}
