package dev.chdedup.stub.format;

/**
 * Eight bytes of a text buffer at a time, as one little-endian {@code long}: the searches the text formats make over
 * most of their bytes (where a field ends, whether a value needs escaping, how many digits start a number) and the
 * number a run of digits makes, in a few arithmetic steps per word instead of a loop over its bytes. Each test is
 * done per byte with no carry from one byte into the next, or flags the first byte exactly.
 */
final class ByteWords {
    private static final java.lang.invoke.VarHandle LE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long ZEROS = '0' * ONES;

    private ByteWords() {
    }

    /** Eight bytes of {@code b} from {@code off} (which has them), the first in the lowest byte. */
    static long word(byte[] b, int off) {
        return (long) LE_LONG.get(b, off);
    }

    /** The word of eight bytes {@code c} (an ASCII byte). */
    static long repeat(int c) {
        return (c & 0xFFL) * ONES;
    }

    /**
     * The high bit of each byte of {@code w} that is {@code c}'s in {@code repeated} ({@link #repeat}): nonzero when one
     * is, and its lowest flag marks the first such byte exactly (a flag above it may be false).
     */
    static long equal(long w, long repeated) {
        long x = w ^ repeated;
        return (x - ONES) & ~x & HIGHS;
    }

    /** The high bit of each byte of {@code w} below {@code n} (at most 0x80), as {@link #equal} flags them. */
    static long below(long w, int n) {
        return (w - n * ONES) & ~w & HIGHS;
    }

    /** How many bytes of {@code w} from its lowest are '0' to '9' before one that is not (8: all of them). */
    static int leadingDigits(long w) {
        long low7 = w & ~HIGHS;
        // per byte, with no carry between bytes: at least '0' (0x30 + 0x50 reaches the high bit), at most '9' (0x3A + 0x46
        // would), and not a byte above 0x7F
        long digit = (low7 + 0x5050505050505050L) & ~(low7 + 0x4646464646464646L) & ~w & HIGHS;
        return Long.numberOfTrailingZeros(~digit & HIGHS) >>> 3;
    }

    /** The number the first {@code n} bytes of {@code w} (1 to 8, all digits, as {@link #leadingDigits} found) make. */
    static long digits(long w, int n) {
        // the digits moved to the top of the word, the bytes after them shifted out, so the eight bytes are the number
        // with leading zeros; then pairs, fours and the eight are formed, each step within its own lanes
        long x = (w - ZEROS) << ((8 - n) << 3);
        x = (x * 10 + (x >>> 8)) & 0x00FF00FF00FF00FFL;
        x = (x * 100 + (x >>> 16)) & 0x0000FFFF0000FFFFL;
        return (x * 10000 + (x >>> 32)) & 0xFFFFFFFFL;
    }
}
