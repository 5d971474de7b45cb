package dev.chdedup.stub.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Wang Yi's wyhash (final version 3, little-endian reads, the full 64x64->128 multiply), with that version's default
 * secret, as ClickHouse's wyHash64 computes {@code wyhash(s, len, 0, _wyp)}.
 */
public final class WyHash {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long[] SECRET = {0xa0761d6478bd642fL, 0xe7037ed1a0b428dbL, 0x8ebc6af09c88c6e3L, 0x589965cc75374cc3L};

    private WyHash() {
    }

    /** The high 64 bits of the unsigned product of {@code a} and {@code b}. */
    static long multiplyHighUnsigned(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** The xor of the two halves of the 128-bit product. */
    private static long mix(long a, long b) {
        return a * b ^ multiplyHighUnsigned(a, b);
    }

    private static long r8(byte[] b, int p) {
        return (long) LONG_LE.get(b, p);
    }

    private static long r4(byte[] b, int p) {
        return (int) INT_LE.get(b, p) & 0xFFFFFFFFL;
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
                a = r4(b, 0) << 32 | r4(b, q);
                c = r4(b, len - 4) << 32 | r4(b, len - 4 - q);
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
                    seed = mix(r8(b, p) ^ SECRET[1], r8(b, p + 8) ^ seed);
                    see1 = mix(r8(b, p + 16) ^ SECRET[2], r8(b, p + 24) ^ see1);
                    see2 = mix(r8(b, p + 32) ^ SECRET[3], r8(b, p + 40) ^ see2);
                    p += 48;
                    i -= 48;
                } while (i > 48);
                seed ^= see1 ^ see2;
            }
            while (i > 16) {
                seed = mix(r8(b, p) ^ SECRET[1], r8(b, p + 8) ^ seed);
                i -= 16;
                p += 16;
            }
            a = r8(b, p + i - 16);
            c = r8(b, p + i - 8);
        }
        return mix(SECRET[1] ^ len, mix(a ^ SECRET[1], c ^ seed));
    }
}
