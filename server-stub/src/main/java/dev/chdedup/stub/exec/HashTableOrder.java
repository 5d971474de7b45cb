package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The order in which ClickHouse's HashTable yields distinct keys, which functions such as arrayUnion show: open
 * addressing with linear probing over 2^6 cells at first, growing fourfold (each key placed again in the order of the
 * old cells) once more than half are taken; a key's cell is its hash modulo the size, the zero key (0, the empty string)
 * kept apart and yielded first. Numbers (of at most 64 bits, with dates and decimals) hash by intHash64 of their bytes,
 * strings by ClickHouse's CRC32-based StringRefHash. {@link #hashable} tells the types for which this holds.
 */
final class HashTableOrder {
    private static final int INITIAL_DEGREE = 6;
    private static final long MASK32 = 0xFFFFFFFFL;

    private HashTableOrder() {
    }

    /** Whether keys of type {@code t} (not Nullable) hash as this class computes. */
    static boolean hashable(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof BoolType || u instanceof FloatType || u instanceof DateType
            || u instanceof DateTimeType || u instanceof StringType && !(u.name().startsWith("FixedString"))
            || u instanceof DecimalType d && d.precision <= 18;
    }

    /** The distinct non-NULL {@code keys} (values of {@code t}) in the order the hash table yields them. */
    static List<Object> distinct(List<?> keys, DataType t) {
        DataType u = t.unwrap();
        Object[] cells = new Object[1 << INITIAL_DEGREE];
        long[] hashes = new long[cells.length];
        Object zero = null;
        int count = 0;
        for (Object k : keys) {
            if (k == null) {
                continue;
            }
            long h = hash(k, u);
            if (isZero(k, u)) {
                zero = zero == null ? k : zero;
                continue;
            }
            if (insert(cells, hashes, k, h, u)) {
                count++;
                if (count > cells.length / 2) {
                    Object[] old = cells;
                    long[] oldHashes = hashes;
                    cells = new Object[old.length * 4];
                    hashes = new long[cells.length];
                    for (int i = 0; i < old.length; i++) {
                        if (old[i] != null) {
                            insert(cells, hashes, old[i], oldHashes[i], u);
                        }
                    }
                }
            }
        }
        List<Object> out = new ArrayList<>();
        if (zero != null) {
            out.add(zero);
        }
        for (Object c : cells) {
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    private static boolean insert(Object[] cells, long[] hashes, Object k, long h, DataType u) {
        int mask = cells.length - 1;
        int p = (int) (h & mask);
        while (cells[p] != null) {
            if (u.compare(cells[p], k) == 0) {
                return false;
            }
            p = (p + 1) & mask;
        }
        cells[p] = k;
        hashes[p] = h;
        return true;
    }

    private static boolean isZero(Object k, DataType u) {
        if (k instanceof String s) {
            return s.isEmpty();
        }
        return bits(k, u) == 0;
    }

    private static long hash(Object k, DataType u) {
        return k instanceof String s ? stringHash(dev.chdedup.stub.types.ByteStrings.bytes(s)) : dev.chdedup.stub.hash.MurmurHash.fmix64(bits(k, u));
    }

    /** The key's bytes as ClickHouse copies them into a zeroed UInt64: its own width, two's complement. */
    private static long bits(Object k, DataType u) {
        if (u instanceof FloatType f) {
            return f.equals(dev.chdedup.stub.types.DataTypes.FLOAT64) ? Double.doubleToRawLongBits(((Number) k).doubleValue())
                : Float.floatToRawIntBits(((Number) k).floatValue()) & MASK32;
        }
        if (u instanceof DecimalType d) {
            long unscaled = ((BigDecimal) k).unscaledValue().longValue();
            return d.precision <= 9 ? unscaled & MASK32 : unscaled;
        }
        long v = k instanceof Boolean b ? (b ? 1 : 0) : ((Number) k).longValue();
        int width = u instanceof IntType i ? i.bits : u instanceof DateType dt ? (dt.name().equals("Date32") ? 32 : 16)
            : u instanceof DateTimeType ? 32 : 8;
        return width == 64 ? v : v & ((1L << width) - 1);
    }

    /** CRC-32C of the 8 bytes of {@code v} (little-endian) from {@code crc}, as the SSE4.2 instruction computes it. */
    private static long crc32c(long crc, long v) {
        int c = (int) crc;
        for (int i = 0; i < 8; i++) {
            c ^= (int) (v >>> (8 * i)) & 0xFF;
            for (int b = 0; b < 8; b++) {
                c = (c >>> 1) ^ ((c & 1) != 0 ? 0x82F63B78 : 0);
            }
        }
        return c & MASK32;
    }

    private static long load(byte[] d, int at, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (d[at + i] & 0xFF);
        }
        return v;
    }

    private static long hashLen16(long u, long v) {
        long mul = 0x9ddfea08eb382d69L;
        long a = (u ^ v) * mul;
        a ^= a >>> 47;
        long b = (v ^ a) * mul;
        b ^= b >>> 47;
        return b * mul;
    }

    /** ClickHouse's StringRefHash on x86 (CRC32Hash): CityHash's short-string mix below 8 bytes, CRC-32C of words above. */
    static long stringHash(byte[] d) {
        int n = d.length;
        if (n == 0) {
            return 0;
        }
        if (n < 8) {
            long h;
            if (n >= 4) {
                h = hashLen16(n + (load(d, 0, 4) << 3), load(d, n - 4, 4));
            } else {
                long y = (d[0] & 0xFF) + ((long) (d[n >> 1] & 0xFF) << 8);
                long z = n + ((long) (d[n - 1] & 0xFF) << 2);
                long m = y * 0x9ae16a3b2f90404fL ^ z * 0xc949d7c7509e6557L;
                h = (m ^ (m >>> 47)) * 0x9ae16a3b2f90404fL;
            }
            return h & MASK32;
        }
        long res = MASK32;
        int pos = 0;
        do {
            res = crc32c(res, load(d, pos, 8));
            pos += 8;
        } while (pos + 8 < n);
        return crc32c(res, load(d, n - 8, 8));
    }
}
