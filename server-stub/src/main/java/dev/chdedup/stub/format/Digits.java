package dev.chdedup.stub.format;

/**
 * Decimal digits read eight bytes at a time, for the text readers' integer fields: how many of the eight bytes of a
 * little-endian word are digits before the first that is not, and the number those digits make, in a few multiplies
 * instead of a loop over the bytes.
 */
final class Digits {
    private static final java.lang.invoke.VarHandle LE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long HIGHS = 0x8080808080808080L;
    private static final long ZEROS = 0x3030303030303030L;

    private Digits() {
    }

    /** Eight bytes of {@code b} from {@code off} (which has them), the first in the lowest byte. */
    static long word(byte[] b, int off) {
        return (long) LE_LONG.get(b, off);
    }

    /** How many bytes of {@code w} from its lowest are '0' to '9' before one that is not (8: all of them). */
    static int leading(long w) {
        long low7 = w & ~HIGHS;
        // per byte, with no carry between bytes: at least '0' (0x30 + 0x50 reaches the high bit), at most '9' (0x3A + 0x46
        // would), and not a byte above 0x7F
        long digit = (low7 + 0x5050505050505050L) & ~(low7 + 0x4646464646464646L) & ~w & HIGHS;
        return Long.numberOfTrailingZeros(~digit & HIGHS) >>> 3;
    }

    /** The number the first {@code n} bytes of {@code w} (1 to 8, all digits, as {@link #leading} found) make. */
    static long value(long w, int n) {
        // the digits moved to the top of the word, the bytes after them shifted out, so the eight bytes are the number
        // with leading zeros; then pairs, fours and the eight are formed, each step within its own lanes
        long x = (w - ZEROS) << ((8 - n) << 3);
        x = (x * 10 + (x >>> 8)) & 0x00FF00FF00FF00FFL;
        x = (x * 100 + (x >>> 16)) & 0x0000FFFF0000FFFFL;
        return (x * 10000 + (x >>> 32)) & 0xFFFFFFFFL;
    }
}
