package dev.chdedup.stub.hash;

/**
 * Wang Yi's wyhash (final version 3, little-endian reads, the full 64x64->128 multiply), with that version's default
 * secret, as ClickHouse's wyHash64 computes {@code wyhash(s, len, 0, _wyp)}.
 */
public final class WyHash {
    private static final long[] SECRET = {0xa0761d6478bd642fL, 0xe7037ed1a0b428dbL, 0x8ebc6af09c88c6e3L, 0x589965cc75374cc3L};

    private WyHash() {
    }

    /** wyhash of {@code b} with {@code seed} and the default secret. */
    public static long hash(byte[] b, long seed) {
        int len = b.length;
        int p = 0;
        seed ^= SECRET[0];
        long a;
        long c;
        if (len <= 16) {
            if (len >= 4) {
                int q = (len >>> 3) << 2;
                a = LittleEndian.u32(b, 0) << 32 | LittleEndian.u32(b, q);
                c = LittleEndian.u32(b, len - 4) << 32 | LittleEndian.u32(b, len - 4 - q);
            } else if (len > 0) {
                a = (b[0] & 0xFFL) << 16 | (b[len >>> 1] & 0xFFL) << 8 | (b[len - 1] & 0xFFL);
                c = 0;
            } else {
                a = 0;
                c = 0;
            }
        } else {
            int i = len;
            if (i > 48) {
                long see1 = seed;
                long see2 = seed;
                do {
                    seed = LittleEndian.multiplyFold(LittleEndian.u64(b, p) ^ SECRET[1], LittleEndian.u64(b, p + 8) ^ seed);
                    see1 = LittleEndian.multiplyFold(LittleEndian.u64(b, p + 16) ^ SECRET[2], LittleEndian.u64(b, p + 24) ^ see1);
                    see2 = LittleEndian.multiplyFold(LittleEndian.u64(b, p + 32) ^ SECRET[3], LittleEndian.u64(b, p + 40) ^ see2);
                    p += 48;
                    i -= 48;
                } while (i > 48);
                seed ^= see1 ^ see2;
            }
            while (i > 16) {
                seed = LittleEndian.multiplyFold(LittleEndian.u64(b, p) ^ SECRET[1], LittleEndian.u64(b, p + 8) ^ seed);
                i -= 16;
                p += 16;
            }
            a = LittleEndian.u64(b, p + i - 16);
            c = LittleEndian.u64(b, p + i - 8);
        }
        return LittleEndian.multiplyFold(SECRET[1] ^ len, LittleEndian.multiplyFold(a ^ SECRET[1], c ^ seed));
    }
}
