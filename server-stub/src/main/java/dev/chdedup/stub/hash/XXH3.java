package dev.chdedup.stub.hash;

/**
 * XXH3 (xxHash 0.8's frozen format), 64 and 128 bits, with seed 0 and the default 192-byte secret, as ClickHouse's
 * xxh3 and xxh3_128 compute them: inputs up to 16 bytes are mixed directly, up to 128 and 240 bytes as 16-byte pairs,
 * longer ones through eight accumulators over 64-byte stripes, scrambled after every block of 16 stripes.
 */
public final class XXH3 {

    private static final long P32_1 = 0x9E3779B1L;
    private static final long P32_2 = 0x85EBCA77L;
    private static final long P32_3 = 0xC2B2AE3DL;
    private static final long P64_1 = 0x9E3779B185EBCA87L;
    private static final long P64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P64_3 = 0x165667B19E3779F9L;
    private static final long P64_4 = 0x85EBCA77C2B2AE63L;
    private static final long P64_5 = 0x27D4EB2F165667C5L;
    private static final long PRIME_MX1 = 0x165667919E3779F9L;
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

    private static final int STRIPE = 64;
    private static final int CONSUME_RATE = 8;
    private static final int SECRET_SIZE_MIN = 136;
    private static final int MIDSIZE_START = 3;
    private static final int MIDSIZE_LAST = 17;
    private static final int LASTACC_START = 7;
    private static final int MERGEACCS_START = 11;

    /** The default secret (XXH3_kSecret). */
    private static final byte[] SECRET = bytes(
        "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
        + "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
        + "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e");

    private XXH3() {
    }

    private static byte[] bytes(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    private static long mulHigh(long a, long b) {
        return LittleEndian.multiplyHighUnsigned(a, b);
    }

    private static long xxh64Avalanche(long h) {
        h ^= h >>> 33;
        h *= P64_2;
        h ^= h >>> 29;
        h *= P64_3;
        return h ^ h >>> 32;
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= PRIME_MX1;
        return h ^ h >>> 32;
    }

    private static long rrmxmx(long h, long len) {
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= PRIME_MX2;
        h ^= (h >>> 35) + len;
        h *= PRIME_MX2;
        return h ^ h >>> 28;
    }

    private static long mix16(byte[] in, int p, int s) {
        return LittleEndian.multiplyFold(LittleEndian.u64(in, p) ^ LittleEndian.u64(SECRET, s),
            LittleEndian.u64(in, p + 8) ^ LittleEndian.u64(SECRET, s + 8));
    }

    /** XXH3_64bits of {@code in}. */
    public static long hash64(byte[] in) {
        int len = in.length;
        if (len <= 16) {
            if (len > 8) {
                long lo = LittleEndian.u64(in, 0) ^ (LittleEndian.u64(SECRET, 24) ^ LittleEndian.u64(SECRET, 32));
                long hi = LittleEndian.u64(in, len - 8) ^ (LittleEndian.u64(SECRET, 40) ^ LittleEndian.u64(SECRET, 48));
                return avalanche(len + Long.reverseBytes(lo) + hi + LittleEndian.multiplyFold(lo, hi));
            }
            if (len >= 4) {
                long input64 = LittleEndian.u32(in, len - 4) + (LittleEndian.u32(in, 0) << 32);
                return rrmxmx(input64 ^ (LittleEndian.u64(SECRET, 8) ^ LittleEndian.u64(SECRET, 16)), len);
            }
            if (len > 0) {
                return xxh64Avalanche(combined(in, len) ^ (LittleEndian.u32(SECRET, 0) ^ LittleEndian.u32(SECRET, 4)));
            }
            return xxh64Avalanche(LittleEndian.u64(SECRET, 56) ^ LittleEndian.u64(SECRET, 64));
        }
        if (len <= 128) {
            long acc = len * P64_1;
            if (len > 32) {
                if (len > 64) {
                    if (len > 96) {
                        acc += mix16(in, 48, 96);
                        acc += mix16(in, len - 64, 112);
                    }
                    acc += mix16(in, 32, 64);
                    acc += mix16(in, len - 48, 80);
                }
                acc += mix16(in, 16, 32);
                acc += mix16(in, len - 32, 48);
            }
            acc += mix16(in, 0, 0);
            acc += mix16(in, len - 16, 16);
            return avalanche(acc);
        }
        if (len <= 240) {
            long acc = len * P64_1;
            for (int i = 0; i < 8; i++) {
                acc += mix16(in, 16 * i, 16 * i);
            }
            long accEnd = mix16(in, len - 16, SECRET_SIZE_MIN - MIDSIZE_LAST);
            acc = avalanche(acc);
            for (int i = 8; i < len / 16; i++) {
                accEnd += mix16(in, 16 * i, 16 * (i - 8) + MIDSIZE_START);
            }
            return avalanche(acc + accEnd);
        }
        long[] acc = accumulate(in);
        return mergeAccs(acc, MERGEACCS_START, len * P64_1);
    }

    /** The 1 to 3 bytes of a short input with its length, as one 32-bit word. */
    private static long combined(byte[] in, int len) {
        long c1 = in[0] & 0xFF;
        long c2 = in[len >>> 1] & 0xFF;
        long c3 = in[len - 1] & 0xFF;
        return (c1 << 16 | c2 << 24 | c3 | (long) len << 8) & 0xFFFFFFFFL;
    }

    /** The eight accumulators after every stripe of an input longer than 240 bytes. */
    private static long[] accumulate(byte[] in) {
        int len = in.length;
        long[] acc = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
        int secretSize = SECRET.length;
        int stripesPerBlock = (secretSize - STRIPE) / CONSUME_RATE;
        int blockLen = STRIPE * stripesPerBlock;
        int blocks = (len - 1) / blockLen;
        for (int n = 0; n < blocks; n++) {
            for (int s = 0; s < stripesPerBlock; s++) {
                stripe(acc, in, n * blockLen + s * STRIPE, s * CONSUME_RATE);
            }
            for (int lane = 0; lane < 8; lane++) {
                long a = acc[lane];
                a ^= a >>> 47;
                a ^= LittleEndian.u64(SECRET, secretSize - STRIPE + lane * 8);
                acc[lane] = a * P32_1;
            }
        }
        int stripes = ((len - 1) - blockLen * blocks) / STRIPE;
        for (int s = 0; s < stripes; s++) {
            stripe(acc, in, blocks * blockLen + s * STRIPE, s * CONSUME_RATE);
        }
        stripe(acc, in, len - STRIPE, secretSize - STRIPE - LASTACC_START);
        return acc;
    }

    private static void stripe(long[] acc, byte[] in, int p, int s) {
        for (int lane = 0; lane < 8; lane++) {
            long value = LittleEndian.u64(in, p + lane * 8);
            long key = value ^ LittleEndian.u64(SECRET, s + lane * 8);
            acc[lane ^ 1] += value;
            acc[lane] += (key & 0xFFFFFFFFL) * (key >>> 32);
        }
    }

    private static long mergeAccs(long[] acc, int s, long start) {
        long r = start;
        for (int i = 0; i < 4; i++) {
            r += LittleEndian.multiplyFold(acc[2 * i] ^ LittleEndian.u64(SECRET, s + 16 * i), acc[2 * i + 1] ^ LittleEndian.u64(SECRET, s + 16 * i + 8));
        }
        return avalanche(r);
    }

    /** XXH3_128bits of {@code in}: {low64, high64}. */
    public static long[] hash128(byte[] in) {
        int len = in.length;
        if (len <= 16) {
            return short128(in, len);
        }
        if (len <= 240) {
            long lo = len * P64_1;
            long hi = 0;
            long[] acc;
            if (len <= 128) {
                acc = new long[] {lo, hi};
                if (len > 32) {
                    if (len > 64) {
                        if (len > 96) {
                            mix32(acc, in, 48, len - 64, 96, 0);
                        }
                        mix32(acc, in, 32, len - 48, 64, 0);
                    }
                    mix32(acc, in, 16, len - 32, 32, 0);
                }
                mix32(acc, in, 0, len - 16, 0, 0);
            } else {
                acc = new long[] {lo, hi};
                for (int i = 32; i < 160; i += 32) {
                    mix32(acc, in, i - 32, i - 16, i - 32, 0);
                }
                acc[0] = avalanche(acc[0]);
                acc[1] = avalanche(acc[1]);
                for (int i = 160; i <= len; i += 32) {
                    mix32(acc, in, i - 32, i - 16, MIDSIZE_START + i - 160, 0);
                }
                mix32(acc, in, len - 16, len - 32, SECRET_SIZE_MIN - MIDSIZE_LAST - 16, 0);
            }
            long low = avalanche(acc[0] + acc[1]);
            long high = -avalanche(acc[0] * P64_1 + acc[1] * P64_4 + len * P64_2);
            return new long[] {low, high};
        }
        long[] acc = accumulate(in);
        return new long[] {mergeAccs(acc, MERGEACCS_START, len * P64_1),
            mergeAccs(acc, SECRET.length - 64 - MERGEACCS_START, ~(len * P64_2))};
    }

    /** XXH128_mix32B with seed 0. */
    private static void mix32(long[] acc, byte[] in, int p1, int p2, int s, long seed) {
        acc[0] += mix16(in, p1, s);
        acc[0] ^= LittleEndian.u64(in, p2) + LittleEndian.u64(in, p2 + 8);
        acc[1] += mix16(in, p2, s + 16);
        acc[1] ^= LittleEndian.u64(in, p1) + LittleEndian.u64(in, p1 + 8);
    }

    private static long[] short128(byte[] in, int len) {
        if (len > 8) {
            long bitflipl = LittleEndian.u64(SECRET, 32) ^ LittleEndian.u64(SECRET, 40);
            long bitfliph = LittleEndian.u64(SECRET, 48) ^ LittleEndian.u64(SECRET, 56);
            long inLo = LittleEndian.u64(in, 0);
            long inHi = LittleEndian.u64(in, len - 8);
            long m = inLo ^ inHi ^ bitflipl;
            long mLo = m * P64_1;
            long mHi = mulHigh(m, P64_1);
            mLo += (long) (len - 1) << 54;
            inHi ^= bitfliph;
            mHi += inHi + (inHi & 0xFFFFFFFFL) * (P32_2 - 1);
            mLo ^= Long.reverseBytes(mHi);
            long hLo = mLo * P64_2;
            long hHi = mulHigh(mLo, P64_2) + mHi * P64_2;
            return new long[] {avalanche(hLo), avalanche(hHi)};
        }
        if (len >= 4) {
            long input64 = LittleEndian.u32(in, 0) + (LittleEndian.u32(in, len - 4) << 32);
            long keyed = input64 ^ (LittleEndian.u64(SECRET, 16) ^ LittleEndian.u64(SECRET, 24));
            long mul = P64_1 + ((long) len << 2);
            long lo = keyed * mul;
            long hi = mulHigh(keyed, mul);
            hi += lo << 1;
            lo ^= hi >>> 3;
            lo ^= lo >>> 35;
            lo *= PRIME_MX2;
            lo ^= lo >>> 28;
            return new long[] {lo, avalanche(hi)};
        }
        if (len > 0) {
            long combinedl = combined(in, len);
            long combinedh = Integer.rotateLeft(Integer.reverseBytes((int) combinedl), 13) & 0xFFFFFFFFL;
            long lo = combinedl ^ (LittleEndian.u32(SECRET, 0) ^ LittleEndian.u32(SECRET, 4));
            long hi = combinedh ^ (LittleEndian.u32(SECRET, 8) ^ LittleEndian.u32(SECRET, 12));
            return new long[] {xxh64Avalanche(lo), xxh64Avalanche(hi)};
        }
        return new long[] {xxh64Avalanche(LittleEndian.u64(SECRET, 64) ^ LittleEndian.u64(SECRET, 72)),
            xxh64Avalanche(LittleEndian.u64(SECRET, 80) ^ LittleEndian.u64(SECRET, 88))};
    }
}
