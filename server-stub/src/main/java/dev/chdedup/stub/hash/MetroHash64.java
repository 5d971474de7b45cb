package dev.chdedup.stub.hash;

/**
 * J. Andrew Rogers' MetroHash64, its first variant ({@code metrohash64_1}), which ClickHouse's metroHash64 computes:
 * 32-byte stripes over four lanes, then the 16, 8, 4, 2 and 1-byte tails, all read little-endian.
 */
public final class MetroHash64 {
    private static final long K0 = 0xC83A91E1L;
    private static final long K1 = 0x8648DBDBL;
    private static final long K2 = 0x7BDEC03BL;
    private static final long K3 = 0x2F5870A5L;

    private MetroHash64() {
    }

    /** metrohash64_1 of {@code b} with {@code seed}. */
    public static long hash(byte[] b, int seed) {
        int len = b.length;
        int p = 0;
        long h = ((seed & 0xFFFFFFFFL) + K2) * K0 + len;
        if (len >= 32) {
            long v0 = h;
            long v1 = h;
            long v2 = h;
            long v3 = h;
            do {
                v0 = Long.rotateRight(v0 + LittleEndian.u64(b, p) * K0, 29) + v2;
                v1 = Long.rotateRight(v1 + LittleEndian.u64(b, p + 8) * K1, 29) + v3;
                v2 = Long.rotateRight(v2 + LittleEndian.u64(b, p + 16) * K2, 29) + v0;
                v3 = Long.rotateRight(v3 + LittleEndian.u64(b, p + 24) * K3, 29) + v1;
                p += 32;
            } while (p <= len - 32);
            v2 ^= Long.rotateRight((v0 + v3) * K0 + v1, 33) * K1;
            v3 ^= Long.rotateRight((v1 + v2) * K1 + v0, 33) * K0;
            v0 ^= Long.rotateRight((v0 + v2) * K0 + v3, 33) * K1;
            v1 ^= Long.rotateRight((v1 + v3) * K1 + v2, 33) * K0;
            h += v0 ^ v1;
        }
        if (len - p >= 16) {
            long v0 = Long.rotateRight(h + LittleEndian.u64(b, p) * K0, 33) * K1;
            long v1 = Long.rotateRight(h + LittleEndian.u64(b, p + 8) * K1, 33) * K2;
            v0 ^= Long.rotateRight(v0 * K0, 35) + v1;
            v1 ^= Long.rotateRight(v1 * K3, 35) + v0;
            h += v1;
            p += 16;
        }
        if (len - p >= 8) {
            h += LittleEndian.u64(b, p) * K3;
            h ^= Long.rotateRight(h, 33) * K1;
            p += 8;
        }
        if (len - p >= 4) {
            h += LittleEndian.u32(b, p) * K3;
            h ^= Long.rotateRight(h, 15) * K1;
            p += 4;
        }
        if (len - p >= 2) {
            h += ((b[p] & 0xFFL) | (b[p + 1] & 0xFFL) << 8) * K3;
            h ^= Long.rotateRight(h, 13) * K1;
            p += 2;
        }
        if (len - p >= 1) {
            h += (b[p] & 0xFFL) * K3;
            h ^= Long.rotateRight(h, 25) * K1;
        }
        h ^= Long.rotateRight(h, 33);
        h *= K0;
        h ^= Long.rotateRight(h, 33);
        return h;
    }
}
