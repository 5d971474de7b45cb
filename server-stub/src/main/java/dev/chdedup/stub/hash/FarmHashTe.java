package dev.chdedup.stub.hash;

/**
 * FarmHash's farmhashte Hash64 for strings of 512 bytes or more, the path x86-64 builds with SSE 4.1 take (ClickHouse's
 * farmHash64): 256-byte rounds over twelve 128-bit registers, here each a {@code long[2]} (low, high 64 bits) with the
 * SSE operations it uses written out: 64-bit lane addition, 32-bit lane multiplication, byte shuffles.
 */
final class FarmHashTe {
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;
    /** The byte order of every shuffle: result byte i is source byte SHUF[i] (_mm_set_epi8's arguments reversed). */
    private static final int[] SHUF = {1, 3, 7, 0, 13, 14, 2, 12, 9, 6, 15, 8, 5, 10, 11, 4};
    /** The 32-bit lane multipliers. */
    private static final long[] MULT = vector(new int[] {0x51, 0x2d, 0x9e, 0xcc, 0xed, 0x33, 0x3e, 0x34, 0x03, 0xfa, 0x54, 0x45, 0x39, 0x33, 0xd6, 0xbd});

    private FarmHashTe() {
    }

    private static long[] vector(int[] bytes) {
        long lo = 0;
        long hi = 0;
        for (int i = 7; i >= 0; i--) {
            lo = lo << 8 | bytes[i];
            hi = hi << 8 | bytes[8 + i];
        }
        return new long[] {lo, hi};
    }

    private static long[] add(long[] x, long[] y) {
        return new long[] {x[0] + y[0], x[1] + y[1]};
    }

    private static long[] xor(long[] x, long[] y) {
        return new long[] {x[0] ^ y[0], x[1] ^ y[1]};
    }

    private static long mul32x2(long a, long b) {
        long lo = (a * b) & 0xFFFFFFFFL;
        long hi = ((a >>> 32) * (b >>> 32)) & 0xFFFFFFFFL;
        return hi << 32 | lo;
    }

    /** _mm_mullo_epi32 of {@code k} and {@code x}. */
    private static long[] mul(long[] k, long[] x) {
        return new long[] {mul32x2(k[0], x[0]), mul32x2(k[1], x[1])};
    }

    private static int byteAt(long[] x, int i) {
        return (int) (x[i >> 3] >>> (8 * (i & 7))) & 0xFF;
    }

    /** _mm_shuffle_epi8(x, SHUF). */
    private static long[] shuf(long[] x) {
        int[] b = new int[16];
        for (int i = 0; i < 16; i++) {
            b[i] = byteAt(x, SHUF[i]);
        }
        return vector(b);
    }

    private static long[] set1(long v) {
        long lane = v & 0xFFFFFFFFL;
        long w = lane << 32 | lane;
        return new long[] {w, w};
    }

    private static long[] low(long v) {
        return new long[] {v, 0};
    }

    private static long[] fetch(byte[] s, int p) {
        return new long[] {LittleEndian.u64(s, p), LittleEndian.u64(s, p + 8)};
    }

    /** farmhashte's Hash64 of {@code s}, at least 256 bytes long. */
    static long hash64(byte[] s) {
        return hash64Long(s, K2, K1);
    }

    private static long hash64Long(byte[] s, long seed0, long seed1) {
        int n = s.length;
        long seed2 = (seed0 + 113) * (seed1 + 9);
        long seed3 = (Long.rotateRight(seed0, 23) + 27) * (Long.rotateRight(seed1, 30) + 111);
        long[] d0 = low(seed0);
        long[] d1 = low(seed1);
        long[] d2 = shuf(d0);
        long[] d3 = shuf(d1);
        long[] d4 = xor(d0, d1);
        long[] d5 = xor(d1, d2);
        long[] d6 = xor(d2, d4);
        long[] d7 = set1(seed2 >>> 32);
        long[] d8 = mul(MULT, d2);
        long[] d9 = set1(seed3 >>> 32);
        long[] d10 = set1(seed3);
        long[] d11 = add(d2, set1(seed2));
        int end = n & ~255;
        int p = 0;
        long[] t;
        do {
            long[] z = fetch(s, p);
            d0 = add(d0, z);
            d1 = shuf(d1);
            d2 = xor(d2, d0);
            d4 = xor(d4, z);
            d4 = xor(d4, d1);
            t = d0; d0 = d6; d6 = t;
            z = fetch(s, p + 16);
            d5 = add(d5, z);
            d6 = shuf(d6);
            d8 = shuf(d8);
            d7 = xor(d7, d5);
            d0 = xor(d0, z);
            d0 = xor(d0, d6);
            t = d5; d5 = d11; d11 = t;
            z = fetch(s, p + 32);
            d1 = add(d1, z);
            d2 = shuf(d2);
            d4 = shuf(d4);
            d5 = xor(d5, z);
            d5 = xor(d5, d2);
            t = d10; d10 = d4; d4 = t;
            z = fetch(s, p + 48);
            d6 = add(d6, z);
            d7 = shuf(d7);
            d0 = shuf(d0);
            d8 = xor(d8, d6);
            d1 = xor(d1, z);
            d1 = add(d1, d7);
            z = fetch(s, p + 64);
            d2 = add(d2, z);
            d5 = shuf(d5);
            d4 = add(d4, d2);
            d6 = xor(d6, z);
            d6 = xor(d6, d11);
            t = d8; d8 = d2; d2 = t;
            z = fetch(s, p + 80);
            d7 = xor(d7, z);
            d8 = shuf(d8);
            d1 = shuf(d1);
            d0 = add(d0, d7);
            d2 = add(d2, z);
            d2 = add(d2, d8);
            t = d1; d1 = d7; d7 = t;
            z = fetch(s, p + 96);
            d4 = shuf(d4);
            d6 = shuf(d6);
            d8 = mul(MULT, d8);
            d5 = xor(d5, d11);
            d7 = xor(d7, z);
            d7 = add(d7, d4);
            t = d6; d6 = d0; d0 = t;
            z = fetch(s, p + 112);
            d8 = add(d8, z);
            d0 = shuf(d0);
            d2 = shuf(d2);
            d1 = xor(d1, d8);
            d10 = xor(d10, z);
            d10 = xor(d10, d0);
            t = d11; d11 = d5; d5 = t;
            z = fetch(s, p + 128);
            d4 = add(d4, z);
            d5 = shuf(d5);
            d7 = shuf(d7);
            d6 = add(d6, d4);
            d8 = xor(d8, z);
            d8 = xor(d8, d5);
            t = d4; d4 = d10; d10 = t;
            z = fetch(s, p + 144);
            d0 = add(d0, z);
            d1 = shuf(d1);
            d2 = add(d2, d0);
            d4 = xor(d4, z);
            d4 = xor(d4, d1);
            z = fetch(s, p + 160);
            d5 = add(d5, z);
            d6 = shuf(d6);
            d8 = shuf(d8);
            d7 = xor(d7, d5);
            d0 = xor(d0, z);
            d0 = xor(d0, d6);
            t = d2; d2 = d8; d8 = t;
            z = fetch(s, p + 176);
            d1 = add(d1, z);
            d2 = shuf(d2);
            d4 = shuf(d4);
            d5 = mul(MULT, d5);
            d5 = xor(d5, z);
            d5 = xor(d5, d2);
            t = d7; d7 = d1; d1 = t;
            z = fetch(s, p + 192);
            d6 = add(d6, z);
            d7 = shuf(d7);
            d0 = shuf(d0);
            d8 = add(d8, d6);
            d1 = xor(d1, z);
            d1 = xor(d1, d7);
            t = d0; d0 = d6; d6 = t;
            z = fetch(s, p + 208);
            d2 = add(d2, z);
            d5 = shuf(d5);
            d4 = xor(d4, d2);
            d6 = xor(d6, z);
            d6 = xor(d6, d9);
            t = d5; d5 = d11; d11 = t;
            z = fetch(s, p + 224);
            d7 = add(d7, z);
            d8 = shuf(d8);
            d1 = shuf(d1);
            d0 = xor(d0, d7);
            d2 = xor(d2, z);
            d2 = xor(d2, d8);
            t = d10; d10 = d4; d4 = t;
            z = fetch(s, p + 240);
            d3 = add(d3, z);
            d4 = shuf(d4);
            d6 = shuf(d6);
            d7 = mul(MULT, d7);
            d5 = add(d5, d3);
            d7 = xor(d7, z);
            d7 = xor(d7, d4);
            t = d3; d3 = d9; d9 = t;
            p += 256;
        } while (p != end);
        d6 = add(mul(MULT, d6), low(n));
        if (n % 256 != 0) {
            // _mm_shuffle_epi32(d8, 0b00111001): 32-bit lanes 1, 2, 3, 0
            long l0 = d8[0] & 0xFFFFFFFFL;
            long l1 = d8[0] >>> 32;
            long l2 = d8[1] & 0xFFFFFFFFL;
            long l3 = d8[1] >>> 32;
            d7 = add(new long[] {l2 << 32 | l1, l0 << 32 | l3}, d7);
            byte[] tail = java.util.Arrays.copyOfRange(s, p, p + n % 256);
            d8 = add(mul(MULT, d8), low(FarmHash.hash64(tail)));
        }
        d0 = mul(MULT, shuf(mul(MULT, d0)));
        d3 = mul(MULT, shuf(mul(MULT, d3)));
        d9 = mul(MULT, shuf(mul(MULT, d9)));
        d1 = mul(MULT, shuf(mul(MULT, d1)));
        d0 = add(d11, d0);
        d3 = xor(d7, d3);
        d9 = add(d8, d9);
        d1 = add(d10, d1);
        d4 = add(d3, d4);
        d5 = add(d9, d5);
        d6 = xor(d1, d6);
        d2 = add(d0, d2);
        long[][] out = {d0, d3, d9, d1, d4, d5, d6, d2};
        byte[] b = new byte[128];
        for (int i = 0; i < 8; i++) {
            LittleEndian.put64(b, 16 * i, out[i][0]);
            LittleEndian.put64(b, 16 * i + 8, out[i][1]);
        }
        return FarmHash.hash64(b);
    }
}
