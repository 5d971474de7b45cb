package dev.chdedup.stub.hash;

/**
 * Google's FarmHash, the 64-bit functions ClickHouse's farmHash64 and farmFingerprint64 compute: {@link #fingerprint64}
 * is farmhashna's Hash64 (fixed forever), {@link #hash64} farmhashxo's Hash64 (farmhashna below 257 bytes but for its
 * own 33 to 96-byte paths, farmhashuo above; from 512 bytes farmhashte's vector code, which x86-64 builds with SSE 4.1
 * take: {@link FarmHashTe}), and {@link #fingerprint} the 128-to-64-bit Fingerprint of two hashes.
 */
public final class FarmHash {
    private static final long K0 = 0xc3a5c85c97cb3127L;
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;
    private static final long K_MUL = 0x9ddfea08eb382d69L;

    /** The length from which FarmHash's Hash64 takes farmhashte's path. */
    private static final int TE_LENGTH = 512;

    private FarmHash() {
    }

    private static long shiftMix(long v) {
        return v ^ (v >>> 47);
    }

    /** FarmHash's Fingerprint(uint128(low, high)). */
    public static long fingerprint(long low, long high) {
        long a = (low ^ high) * K_MUL;
        a ^= a >>> 47;
        long b = (high ^ a) * K_MUL;
        b ^= b >>> 44;
        b *= K_MUL;
        b ^= b >>> 41;
        b *= K_MUL;
        return b;
    }

    private static long hashLen16(long u, long v, long mul) {
        long a = (u ^ v) * mul;
        a ^= a >>> 47;
        long b = (v ^ a) * mul;
        b ^= b >>> 47;
        return b * mul;
    }

    private static long hashLen16(long u, long v) {
        return hashLen16(u, v, K_MUL);
    }

    private static long hashLen0to16(byte[] s, int p, int len) {
        if (len >= 8) {
            long mul = K2 + len * 2L;
            long a = LittleEndian.u64(s, p) + K2;
            long b = LittleEndian.u64(s, p + len - 8);
            long c = Long.rotateRight(b, 37) * mul + a;
            long d = (Long.rotateRight(a, 25) + b) * mul;
            return hashLen16(c, d, mul);
        }
        if (len >= 4) {
            long mul = K2 + len * 2L;
            long a = LittleEndian.u32(s, p);
            return hashLen16(len + (a << 3), LittleEndian.u32(s, p + len - 4), mul);
        }
        if (len > 0) {
            long a = s[p] & 0xFF;
            long b = s[p + (len >>> 1)] & 0xFF;
            long c = s[p + len - 1] & 0xFF;
            long y = (a + (b << 8)) & 0xFFFFFFFFL;
            long z = (len + (c << 2)) & 0xFFFFFFFFL;
            return shiftMix(y * K2 ^ z * K0) * K2;
        }
        return K2;
    }

    private static long hashLen17to32(byte[] s, int p, int len) {
        long mul = K2 + len * 2L;
        long a = LittleEndian.u64(s, p) * K1;
        long b = LittleEndian.u64(s, p + 8);
        long c = LittleEndian.u64(s, p + len - 8) * mul;
        long d = LittleEndian.u64(s, p + len - 16) * K2;
        return hashLen16(Long.rotateRight(a + b, 43) + Long.rotateRight(c, 30) + d, a + Long.rotateRight(b + K2, 18) + c, mul);
    }

    /** WeakHashLen32WithSeeds of the 32 bytes at {@code p}: {first, second}. */
    private static long[] weak32(byte[] s, int p, long a, long b) {
        long w = LittleEndian.u64(s, p);
        long x = LittleEndian.u64(s, p + 8);
        long y = LittleEndian.u64(s, p + 16);
        long z = LittleEndian.u64(s, p + 24);
        a += w;
        b = Long.rotateRight(b + a + z, 21);
        long c = a;
        a += x;
        a += y;
        b += Long.rotateRight(a, 44);
        return new long[] {a + z, b + c};
    }

    private static long naHashLen33to64(byte[] s, int p, int len) {
        long mul = K2 + len * 2L;
        long a = LittleEndian.u64(s, p) * K2;
        long b = LittleEndian.u64(s, p + 8);
        long c = LittleEndian.u64(s, p + len - 8) * mul;
        long d = LittleEndian.u64(s, p + len - 16) * K2;
        long y = Long.rotateRight(a + b, 43) + Long.rotateRight(c, 30) + d;
        long z = hashLen16(y, a + Long.rotateRight(b + K2, 18) + c, mul);
        long e = LittleEndian.u64(s, p + 16) * mul;
        long f = LittleEndian.u64(s, p + 24);
        long g = (y + LittleEndian.u64(s, p + len - 32)) * mul;
        long h = (z + LittleEndian.u64(s, p + len - 24)) * mul;
        return hashLen16(Long.rotateRight(e + f, 43) + Long.rotateRight(g, 30) + h, e + Long.rotateRight(f + a, 18) + g, mul);
    }

    /** farmhashna's Hash64, which is FarmHash's Fingerprint64. */
    public static long fingerprint64(byte[] s) {
        int len = s.length;
        if (len <= 16) {
            return hashLen0to16(s, 0, len);
        }
        if (len <= 32) {
            return hashLen17to32(s, 0, len);
        }
        if (len <= 64) {
            return naHashLen33to64(s, 0, len);
        }
        final long seed = 81;
        long x = seed;
        long y = seed * K1 + 113;
        long z = shiftMix(y * K2 + 113) * K2;
        long[] v = {0, 0};
        long[] w = {0, 0};
        x = x * K2 + LittleEndian.u64(s, 0);
        int end = ((len - 1) / 64) * 64;
        int last64 = len - 64;
        int p = 0;
        do {
            x = Long.rotateRight(x + y + v[0] + LittleEndian.u64(s, p + 8), 37) * K1;
            y = Long.rotateRight(y + v[1] + LittleEndian.u64(s, p + 48), 42) * K1;
            x ^= w[1];
            y += v[0] + LittleEndian.u64(s, p + 40);
            z = Long.rotateRight(z + w[0], 33) * K1;
            v = weak32(s, p, v[1] * K1, x + w[0]);
            w = weak32(s, p + 32, z + w[1], y + LittleEndian.u64(s, p + 16));
            long t = z;
            z = x;
            x = t;
            p += 64;
        } while (p != end);
        long mul = K1 + ((z & 0xff) << 1);
        p = last64;
        w[0] += (len - 1) & 63;
        v[0] += w[0];
        w[0] += v[0];
        x = Long.rotateRight(x + y + v[0] + LittleEndian.u64(s, p + 8), 37) * mul;
        y = Long.rotateRight(y + v[1] + LittleEndian.u64(s, p + 48), 42) * mul;
        x ^= w[1] * 9;
        y += v[0] * 9 + LittleEndian.u64(s, p + 40);
        z = Long.rotateRight(z + w[0], 33) * mul;
        v = weak32(s, p, v[1] * mul, x + w[0]);
        w = weak32(s, p + 32, z + w[1], y + LittleEndian.u64(s, p + 16));
        long t = z;
        z = x;
        x = t;
        return hashLen16(hashLen16(v[0], w[0], mul) + shiftMix(y) * K0 + z, hashLen16(v[1], w[1], mul) + x, mul);
    }

    private static long xoH32(byte[] s, int p, int len, long mul, long seed0, long seed1) {
        long a = LittleEndian.u64(s, p) * K1;
        long b = LittleEndian.u64(s, p + 8);
        long c = LittleEndian.u64(s, p + len - 8) * mul;
        long d = LittleEndian.u64(s, p + len - 16) * K2;
        long u = Long.rotateRight(a + b, 43) + Long.rotateRight(c, 30) + d + seed0;
        long v = a + Long.rotateRight(b + K2, 18) + c + seed1;
        a = shiftMix((u ^ v) * mul);
        return shiftMix((v ^ a) * mul);
    }

    /** FarmHash's Hash64 as x86-64 builds with SSE 4.1 compute it: farmhashxo's, farmhashte's from 512 bytes. */
    public static long hash64(byte[] s) {
        int len = s.length;
        if (len >= TE_LENGTH) {
            return FarmHashTe.hash64(s);
        }
        if (len <= 32 || len > 96 && len <= 256) {
            return fingerprint64(s);
        }
        if (len <= 64) {
            long mul0 = K2 - 30;
            long mul1 = K2 - 30 + 2L * len;
            long h0 = xoH32(s, 0, 32, mul0, 0, 0);
            long h1 = xoH32(s, len - 32, 32, mul1, 0, 0);
            return (h1 * mul1 + h0) * mul1;
        }
        if (len <= 96) {
            long mul0 = K2 - 114;
            long mul1 = K2 - 114 + 2L * len;
            long h0 = xoH32(s, 0, 32, mul0, 0, 0);
            long h1 = xoH32(s, 32, 32, mul1, 0, 0);
            long h2 = xoH32(s, len - 32, 32, mul1, h0, h1);
            return (h2 * 9 + (h0 >>> 17) + (h1 >>> 21)) * mul1;
        }
        return uoHash64(s, 81, 0);
    }

    private static long uoH(long x, long y, long mul, int r) {
        long a = (x ^ y) * mul;
        a ^= a >>> 47;
        long b = (y ^ a) * mul;
        return Long.rotateRight(b, r) * mul;
    }

    /** farmhashuo's Hash64WithSeeds for strings over 64 bytes. */
    private static long uoHash64(byte[] s, long seed0, long seed1) {
        int len = s.length;
        long x = seed0;
        long y = seed1 * K2 + 113;
        long z = shiftMix(y * K2) * K2;
        long v0 = seed0;
        long v1 = seed1;
        long w0 = 0;
        long w1 = 0;
        long u = x - z;
        x *= K2;
        long mul = K2 + (u & 0x82);
        int end = ((len - 1) / 64) * 64;
        int p = 0;
        do {
            long a0 = LittleEndian.u64(s, p);
            long a1 = LittleEndian.u64(s, p + 8);
            long a2 = LittleEndian.u64(s, p + 16);
            long a3 = LittleEndian.u64(s, p + 24);
            long a4 = LittleEndian.u64(s, p + 32);
            long a5 = LittleEndian.u64(s, p + 40);
            long a6 = LittleEndian.u64(s, p + 48);
            long a7 = LittleEndian.u64(s, p + 56);
            x += a0 + a1;
            y += a2;
            z += a3;
            v0 += a4;
            v1 += a5 + a1;
            w0 += a6;
            w1 += a7;
            x = Long.rotateRight(x, 26);
            x *= 9;
            y = Long.rotateRight(y, 29);
            z *= mul;
            v0 = Long.rotateRight(v0, 33);
            v1 = Long.rotateRight(v1, 30);
            w0 ^= x;
            w0 *= 9;
            z = Long.rotateRight(z, 32);
            z += w1;
            w1 += z;
            z *= 9;
            long t = u;
            u = y;
            y = t;
            z += a0 + a6;
            v0 += a2;
            v1 += a3;
            w0 += a4;
            w1 += a5 + a6;
            x += a1;
            y += a7;
            y += v0;
            v0 += x - y;
            v1 += w0;
            w0 += v1;
            w1 += x - y;
            x += w1;
            w1 = Long.rotateRight(w1, 34);
            t = u;
            u = z;
            z = t;
            p += 64;
        } while (p != end);
        p = len - 64;
        u *= 9;
        v1 = Long.rotateRight(v1, 28);
        v0 = Long.rotateRight(v0, 20);
        w0 += (len - 1) & 63;
        u += y;
        y += u;
        x = Long.rotateRight(y - x + v0 + LittleEndian.u64(s, p + 8), 37) * mul;
        y = Long.rotateRight(y ^ v1 ^ LittleEndian.u64(s, p + 48), 42) * mul;
        x ^= w1 * 9;
        y += v0 + LittleEndian.u64(s, p + 40);
        z = Long.rotateRight(z + w0, 33) * mul;
        long[] v = weak32(s, p, v1 * mul, x + w0);
        long[] w = weak32(s, p + 32, z + w1, y + LittleEndian.u64(s, p + 16));
        return uoH(hashLen16(v[0] + x, w[0] ^ y, mul) + z - u, uoH(v[1] + y, w[1] + z, K2, 30) ^ x, K2, 31);
    }
}
