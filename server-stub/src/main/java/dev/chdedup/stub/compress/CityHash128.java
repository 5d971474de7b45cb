package dev.chdedup.stub.compress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * CityHash128 exactly as in CityHash v1.0.2 (the frozen version ClickHouse uses for
 * the checksums of its native compressed blocks, {@code CityHash_v1_0_2::CityHash128}).
 * It is responsible only for the hash function itself: given a byte range it returns
 * the 128-bit result as {@code {low64, high64}}, the order in which ClickHouse stores
 * the two halves (low half first, each half little-endian) in front of a compressed
 * block. Later CityHash releases changed the algorithm, so this must not be "upgraded".
 * {@link #hash64} is CityHash64 of the same version, ClickHouse's {@code cityHash64} and {@code URLHash}.
 * The implementation keeps all state in local variables and allocates nothing except
 * the two-element result array.
 */
public final class CityHash128 {

    private static final long K0 = 0xc3a5c85c97cb3127L;
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;
    private static final long K3 = 0xc949d7c7509e6557L;
    private static final long K_MUL = 0x9ddfea08eb382d69L;

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private CityHash128() {
    }

    /** Hashes the whole array; see {@link #hash128(byte[], int, int)}. */
    public static long[] hash128(byte[] data) {
        return hash128(data, 0, data.length);
    }

    /**
     * Computes CityHash128 v1.0.2 of {@code data[off, off + len)}.
     *
     * @return a new two-element array {@code {low64, high64}}
     */
    public static long[] hash128(byte[] data, int off, int len) {
        Objects.checkFromIndexSize(off, len, data.length);
        if (len >= 16) {
            return withSeed(data, off + 16, len - 16, fetch64(data, off) ^ K3, fetch64(data, off + 8));
        } else if (len >= 8) {
            return withSeed(data, off, 0,
                    fetch64(data, off) ^ (len * K0), fetch64(data, off + len - 8) ^ K1);
        } else {
            return withSeed(data, off, len, K0, K1);
        }
    }

    /** CityHash128WithSeed v1.0.2 of {@code data[off, off + len)} with the seed {@code {seedLow, seedHigh}}. */
    public static long[] hash128WithSeed(byte[] data, int off, int len, long seedLow, long seedHigh) {
        java.util.Objects.checkFromIndexSize(off, len, data.length);
        return withSeed(data, off, len, seedLow, seedHigh);
    }

    private static long[] withSeed(byte[] s, int pos, int len, long seedLow, long seedHigh) {
        if (len < 128) {
            return cityMurmur(s, pos, len, seedLow, seedHigh);
        }
        // 56 bytes of state: v (v0, v1), w (w0, w1), x, y, z.
        long x = seedLow;
        long y = seedHigh;
        long z = len * K1;
        long v0 = Long.rotateRight(y ^ K1, 49) * K1 + fetch64(s, pos);
        long v1 = Long.rotateRight(v0, 42) * K1 + fetch64(s, pos + 8);
        long w0 = Long.rotateRight(y + z, 35) * K1 + x;
        long w1 = Long.rotateRight(x + fetch64(s, pos + 88), 53) * K1;

        // Inner loop: two 64-byte rounds per iteration (the reference unrolls it the same way).
        do {
            for (int round = 0; round < 2; round++) {
                x = Long.rotateRight(x + y + v0 + fetch64(s, pos + 16), 37) * K1;
                y = Long.rotateRight(y + v1 + fetch64(s, pos + 48), 42) * K1;
                x ^= w1;
                y ^= v0;
                z = Long.rotateRight(z ^ w0, 33);
                // v = WeakHashLen32WithSeeds(s, v1 * K1, x + w0)
                {
                    long a = v1 * K1;
                    long b = x + w0;
                    long p0 = fetch64(s, pos);
                    long p3 = fetch64(s, pos + 24);
                    a += p0;
                    b = Long.rotateRight(b + a + p3, 21);
                    long c = a;
                    a += fetch64(s, pos + 8);
                    a += fetch64(s, pos + 16);
                    b += Long.rotateRight(a, 44);
                    v0 = a + p3;
                    v1 = b + c;
                }
                // w = WeakHashLen32WithSeeds(s + 32, z + w1, y)
                {
                    long a = z + w1;
                    long b = y;
                    long p3 = fetch64(s, pos + 56);
                    a += fetch64(s, pos + 32);
                    b = Long.rotateRight(b + a + p3, 21);
                    long c = a;
                    a += fetch64(s, pos + 40);
                    a += fetch64(s, pos + 48);
                    b += Long.rotateRight(a, 44);
                    w0 = a + p3;
                    w1 = b + c;
                }
                long t = z;
                z = x;
                x = t;
                pos += 64;
            }
            len -= 128;
        } while (len >= 128);

        y += Long.rotateRight(w0, 37) * K0 + z;
        x += Long.rotateRight(v0 + z, 49) * K0;
        // Hash up to four 32-byte chunks taken from the end of the remaining input.
        for (int tailDone = 0; tailDone < len; ) {
            tailDone += 32;
            int chunk = pos + len - tailDone;
            y = Long.rotateRight(y - x, 42) * K0 + v1;
            w0 += fetch64(s, chunk + 16);
            x = Long.rotateRight(x, 49) * K0 + w0;
            w0 += v0;
            // v = WeakHashLen32WithSeeds(chunk, v0, v1)
            long a = v0;
            long b = v1;
            long p3 = fetch64(s, chunk + 24);
            a += fetch64(s, chunk);
            b = Long.rotateRight(b + a + p3, 21);
            long c = a;
            a += fetch64(s, chunk + 8);
            a += fetch64(s, chunk + 16);
            b += Long.rotateRight(a, 44);
            v0 = a + p3;
            v1 = b + c;
        }
        x = hashLen16(x, v0);
        y = hashLen16(y, w0);
        return new long[] {
            hashLen16(x + v1, w1) + y,
            hashLen16(x + w1, y + v1)
        };
    }

    /** CityHash64 v1.0.2 of {@code data[off, off + len)}. */
    public static long hash64(byte[] s, int off, int len) {
        Objects.checkFromIndexSize(off, len, s.length);
        if (len <= 16) {
            return hashLen0to16(s, off, len);
        }
        if (len <= 32) {
            return hashLen17to32(s, off, len);
        }
        if (len <= 64) {
            return hashLen33to64(s, off, len);
        }
        long x = fetch64(s, off);
        long y = fetch64(s, off + len - 16) ^ K1;
        long z = fetch64(s, off + len - 56) ^ K0;
        long[] v = weakHashLen32WithSeeds(s, off + len - 64, len, y);
        long[] w = weakHashLen32WithSeeds(s, off + len - 32, len * K1, K0);
        z += shiftMix(v[1]) * K1;
        x = Long.rotateRight(z + x, 39) * K1;
        y = Long.rotateRight(y, 33) * K1;
        int pos = off;
        int left = (len - 1) & ~63;
        do {
            x = Long.rotateRight(x + y + v[0] + fetch64(s, pos + 16), 37) * K1;
            y = Long.rotateRight(y + v[1] + fetch64(s, pos + 48), 42) * K1;
            x ^= w[1];
            y ^= v[0];
            z = Long.rotateRight(z ^ w[0], 33);
            v = weakHashLen32WithSeeds(s, pos, v[1] * K1, x + w[0]);
            w = weakHashLen32WithSeeds(s, pos + 32, z + w[1], y);
            long t = z;
            z = x;
            x = t;
            pos += 64;
            left -= 64;
        } while (left != 0);
        return hashLen16(hashLen16(v[0], w[0]) + shiftMix(y) * K1 + z, hashLen16(v[1], w[1]) + x);
    }

    private static long hashLen17to32(byte[] s, int pos, int len) {
        long a = fetch64(s, pos) * K1;
        long b = fetch64(s, pos + 8);
        long c = fetch64(s, pos + len - 8) * K2;
        long d = fetch64(s, pos + len - 16) * K0;
        return hashLen16(Long.rotateRight(a - b, 43) + Long.rotateRight(c, 30) + d, a + Long.rotateRight(b ^ K3, 20) - c + len);
    }

    private static long hashLen33to64(byte[] s, int pos, int len) {
        long z = fetch64(s, pos + 24);
        long a = fetch64(s, pos) + (len + fetch64(s, pos + len - 16)) * K0;
        long b = Long.rotateRight(a + z, 52);
        long c = Long.rotateRight(a, 37);
        a += fetch64(s, pos + 8);
        c += Long.rotateRight(a, 7);
        a += fetch64(s, pos + 16);
        long vf = a + z;
        long vs = b + Long.rotateRight(a, 31) + c;
        a = fetch64(s, pos + 16) + fetch64(s, pos + len - 32);
        z = fetch64(s, pos + len - 8);
        b = Long.rotateRight(a + z, 52);
        c = Long.rotateRight(a, 37);
        a += fetch64(s, pos + len - 24);
        c += Long.rotateRight(a, 7);
        a += fetch64(s, pos + len - 16);
        long wf = a + z;
        long ws = b + Long.rotateRight(a, 31) + c;
        long r = shiftMix((vf + ws) * K2 + (wf + vs) * K0);
        return shiftMix(r * K0 + vs) * K2;
    }

    /** WeakHashLen32WithSeeds of the 32 bytes at {@code pos}: {first, second}. */
    private static long[] weakHashLen32WithSeeds(byte[] s, int pos, long a, long b) {
        long w = fetch64(s, pos);
        long x = fetch64(s, pos + 8);
        long y = fetch64(s, pos + 16);
        long z = fetch64(s, pos + 24);
        a += w;
        b = Long.rotateRight(b + a + z, 21);
        long c = a;
        a += x;
        a += y;
        b += Long.rotateRight(a, 44);
        return new long[] {a + z, b + c};
    }

    /** CityMurmur: the path for inputs (after seeding) shorter than 128 bytes. */
    private static long[] cityMurmur(byte[] s, int pos, int len, long seedLow, long seedHigh) {
        long a = seedLow;
        long b = seedHigh;
        long c;
        long d;
        int l = len - 16;
        if (l <= 0) {
            a = shiftMix(a * K1) * K1;
            c = b * K1 + hashLen0to16(s, pos, len);
            d = shiftMix(a + (len >= 8 ? fetch64(s, pos) : c));
        } else {
            c = hashLen16(fetch64(s, pos + len - 8) + K1, a);
            d = hashLen16(b + len, c + fetch64(s, pos + len - 16));
            a += d;
            do {
                a ^= shiftMix(fetch64(s, pos) * K1) * K1;
                a *= K1;
                b ^= a;
                c ^= shiftMix(fetch64(s, pos + 8) * K1) * K1;
                c *= K1;
                d ^= c;
                pos += 16;
                l -= 16;
            } while (l > 0);
        }
        a = hashLen16(a, c);
        b = hashLen16(d, b);
        return new long[] {a ^ b, hashLen16(b, a)};
    }

    private static long hashLen0to16(byte[] s, int pos, int len) {
        if (len > 8) {
            long a = fetch64(s, pos);
            long b = fetch64(s, pos + len - 8);
            // RotateByAtLeast1: len is in 9..16 here, never 0.
            return hashLen16(a, Long.rotateRight(b + len, len)) ^ b;
        }
        if (len >= 4) {
            long a = fetch32(s, pos);
            return hashLen16(len + (a << 3), fetch32(s, pos + len - 4));
        }
        if (len > 0) {
            int a = s[pos] & 0xff;
            int b = s[pos + (len >>> 1)] & 0xff;
            int c = s[pos + len - 1] & 0xff;
            long y = (a + (b << 8)) & 0xffffffffL;
            long z = (len + (c << 2)) & 0xffffffffL;
            return shiftMix(y * K2 ^ z * K3) * K2;
        }
        return K2;
    }

    /** CityHash's Hash128to64 of the 128 bits {@code high:low}, with which ClickHouse folds 64-bit hashes together. */
    public static long hash128to64(long low, long high) {
        return hashLen16(low, high);
    }

    /** Hash128to64 of the pair (u, v): Murmur-inspired 128-to-64-bit mix. */
    private static long hashLen16(long u, long v) {
        long a = (u ^ v) * K_MUL;
        a ^= a >>> 47;
        long b = (v ^ a) * K_MUL;
        b ^= b >>> 47;
        b *= K_MUL;
        return b;
    }

    private static long shiftMix(long val) {
        return val ^ (val >>> 47);
    }

    private static long fetch64(byte[] s, int pos) {
        return (long) LONG_LE.get(s, pos);
    }

    private static long fetch32(byte[] s, int pos) {
        return ((int) INT_LE.get(s, pos)) & 0xffffffffL;
    }
}
