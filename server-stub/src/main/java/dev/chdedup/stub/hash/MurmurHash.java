package dev.chdedup.stub.hash;

/**
 * Austin Appleby's MurmurHash2 (32-bit, and MurmurHash64A) and MurmurHash3 (x86_32 and x64_128), reading the input
 * little-endian as ClickHouse's murmurHash2_32, murmurHash2_64, murmurHash3_32, murmurHash3_64 and murmurHash3_128
 * do; also the 64-bit finalizer fmix64, which is ClickHouse's intHash64.
 */
public final class MurmurHash {

    private MurmurHash() {
    }

    /** MurmurHash2 (32-bit) of {@code b} with {@code seed}, as an unsigned value. */
    public static long murmur2_32(byte[] b, int seed) {
        final int m = 0x5bd1e995;
        int len = b.length;
        int h = seed ^ len;
        int i = 0;
        for (; len - i >= 4; i += 4) {
            int k = LittleEndian.i32(b, i);
            k *= m;
            k ^= k >>> 24;
            k *= m;
            h *= m;
            h ^= k;
        }
        switch (len - i) {
            case 3:
                h ^= (b[i + 2] & 0xFF) << 16;
                // fall through
            case 2:
                h ^= (b[i + 1] & 0xFF) << 8;
                // fall through
            case 1:
                h ^= b[i] & 0xFF;
                h *= m;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= m;
        h ^= h >>> 15;
        return h & 0xFFFFFFFFL;
    }

    /** MurmurHash64A of {@code b} with {@code seed}. */
    public static long murmur64A(byte[] b, long seed) {
        final long m = 0xc6a4a7935bd1e995L;
        int len = b.length;
        long h = seed ^ (len * m);
        int i = 0;
        for (; len - i >= 8; i += 8) {
            long k = LittleEndian.u64(b, i);
            k *= m;
            k ^= k >>> 47;
            k *= m;
            h ^= k;
            h *= m;
        }
        int rest = len - i;
        if (rest > 0) {
            for (int j = rest - 1; j >= 0; j--) {
                h ^= (b[i + j] & 0xFFL) << (8 * j);
            }
            h *= m;
        }
        h ^= h >>> 47;
        h *= m;
        h ^= h >>> 47;
        return h;
    }

    /** MurmurHash3_x86_32 of {@code b} with {@code seed}, as an unsigned value. */
    public static long murmur3_32(byte[] b, int seed) {
        final int c1 = 0xcc9e2d51;
        final int c2 = 0x1b873593;
        int len = b.length;
        int h = seed;
        int i = 0;
        for (; len - i >= 4; i += 4) {
            int k = LittleEndian.i32(b, i);
            h ^= mix32(k, c1, c2);
            h = Integer.rotateLeft(h, 13);
            h = h * 5 + 0xe6546b64;
        }
        int k = 0;
        for (int j = len - i - 1; j >= 0; j--) {
            k ^= (b[i + j] & 0xFF) << (8 * j);
        }
        if (len - i > 0) {
            h ^= mix32(k, c1, c2);
        }
        h ^= len;
        return fmix32(h) & 0xFFFFFFFFL;
    }

    private static int mix32(int k, int c1, int c2) {
        k *= c1;
        k = Integer.rotateLeft(k, 15);
        return k * c2;
    }

    /** MurmurHash3's 32-bit finalizer. */
    public static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** MurmurHash3_x64_128 of {@code b} with {@code seed}: {h1, h2}, the first and second 8 bytes of its output. */
    public static long[] murmur3_128(byte[] b, long seed) {
        final long c1 = 0x87c37b91114253d5L;
        final long c2 = 0x4cf5ad432745937fL;
        int len = b.length;
        long h1 = seed;
        long h2 = seed;
        int i = 0;
        for (; len - i >= 16; i += 16) {
            long k1 = LittleEndian.u64(b, i);
            long k2 = LittleEndian.u64(b, i + 8);
            h1 ^= Long.rotateLeft(k1 * c1, 31) * c2;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= Long.rotateLeft(k2 * c2, 33) * c1;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int rest = len - i;
        long k1 = 0;
        long k2 = 0;
        for (int j = rest - 1; j >= 8; j--) {
            k2 ^= (b[i + j] & 0xFFL) << (8 * (j - 8));
        }
        if (rest > 8) {
            h2 ^= Long.rotateLeft(k2 * c2, 33) * c1;
        }
        for (int j = Math.min(rest, 8) - 1; j >= 0; j--) {
            k1 ^= (b[i + j] & 0xFFL) << (8 * j);
        }
        if (rest > 0) {
            h1 ^= Long.rotateLeft(k1 * c1, 31) * c2;
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    /** MurmurHash3's 64-bit finalizer (ClickHouse's intHash64). */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
