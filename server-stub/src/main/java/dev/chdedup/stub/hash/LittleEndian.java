package dev.chdedup.stub.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The little-endian reads and writes of the hash algorithms, and the unsigned 64x64->128-bit products they share. */
final class LittleEndian {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }

    /** The 8 bytes at {@code p}. */
    static long u64(byte[] b, int p) {
        return (long) LONG_LE.get(b, p);
    }

    /** The 4 bytes at {@code p} as an unsigned value. */
    static long u32(byte[] b, int p) {
        return (int) INT_LE.get(b, p) & 0xFFFFFFFFL;
    }

    /** The 4 bytes at {@code p} as an int. */
    static int i32(byte[] b, int p) {
        return (int) INT_LE.get(b, p);
    }

    static void put64(byte[] b, int p, long v) {
        LONG_LE.set(b, p, v);
    }

    /** The high 64 bits of the unsigned product of {@code a} and {@code b}. */
    static long multiplyHighUnsigned(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** The xor of the two halves of the unsigned 128-bit product (wyhash's mix, XXH3's mul128_fold64). */
    static long multiplyFold(long a, long b) {
        return a * b ^ multiplyHighUnsigned(a, b);
    }
}
