package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * sparseGrams, sparseGramsUTF8, sparseGramsHashes and sparseGramsHashesUTF8 (ClickHouse's sparseGrams): the
 * substrings of at least min_ngram_length units (bytes, or code points by their lead bytes) whose two border
 * (min_ngram_length - 1)-grams hash strictly above every such gram inside them, up to max_ngram_length units and, with
 * min_cutoff_length, at least that long (max_ngram_length then staying 100, as in ClickHouse); or their hashes. A
 * Nullable string gives an Array, empty for NULL. The hash is ClickHouse's weak 32-bit CRC-32C of a string
 * ({@link #weakHash}).
 */
final class FunctionsSparseGrams {
    private static final long[] CRC32C = FunctionsCRC.table(0x82F63B78L);

    private FunctionsSparseGrams() {
    }

    static void register(FunctionFactory f) {
        String c = FunctionsString.CATEGORY;
        f.register("sparseGrams", c, (args, ctx) -> build("sparseGrams", args, false, false));
        f.register("sparseGramsUTF8", c, (args, ctx) -> build("sparseGramsUTF8", args, true, false));
        f.register("sparseGramsHashes", c, (args, ctx) -> build("sparseGramsHashes", args, false, true));
        f.register("sparseGramsHashesUTF8", c, (args, ctx) -> build("sparseGramsHashesUTF8", args, true, true));
    }

    /** CRC-32C steps (no inversion) over 8 bytes, least significant first, from {@code crc}. */
    private static long crc64(long crc, long word) {
        for (int i = 0; i < 8; i++) {
            crc = CRC32C[(int) ((crc ^ (word >>> (8 * i))) & 0xFF)] ^ (crc >>> 8);
        }
        return crc;
    }

    private static long littleEndian(byte[] b, int from, int n) {
        long w = 0;
        for (int i = n - 1; i >= 0; i--) {
            w = w << 8 | (b[from + i] & 0xFF);
        }
        return w;
    }

    /**
     * ClickHouse's updateWeakHash32 from 0: a string under 8 bytes is one word with its length in the top byte; a
     * longer one its 8-byte words, then its last 8 bytes with the bytes already hashed zeroed and the tail's length in
     * the lowest byte.
     */
    static long weakHash(byte[] b, int from, int to) {
        int n = to - from;
        if (n < 8) {
            long w = littleEndian(b, from, n) | (long) n << 56;
            return crc64(0, w) & 0xFFFFFFFFL;
        }
        long crc = 0;
        int p = from;
        for (; p + 8 <= to; p += 8) {
            crc = crc64(crc, littleEndian(b, p, 8));
        }
        if (p < to) {
            int tail = to - p;
            long w = littleEndian(b, to - 8, 8);
            w &= -1L << ((8 - tail) * 8);
            w |= tail;
            crc = crc64(crc, w);
        }
        return crc & 0xFFFFFFFFL;
    }

    private static Evaluator build(String name, List<Evaluator> args, boolean utf8, boolean hashes) {
        if (args.isEmpty() || args.size() > 4) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name + " doesn't match: passed "
                + args.size() + ", must be from 1 to 4");
        }
        DataType s = args.get(0).type().unwrap();
        if (!(s instanceof StringType && ((StringType) s).fixedLength == 0) && !StringArguments.isNull(s)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "s", name, "String", args.get(0).type());
        }
        String[] names = {"min_ngram_length", "max_ngram_length", "min_cutoff_length"};
        long[] limits = {3, 100, -1};
        for (int i = 1; i < args.size(); i++) {
            Evaluator a = args.get(i);
            if (!(a.type() instanceof IntType it && it.bits <= 64)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i - 1], name, "const Number", a.type());
            }
            if (!a.constant()) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, i + 1, names[i - 1], name, "const Number", a.type());
            }
            limits[i - 1] = StringArguments.toLong(a.eval(new Object[0]), a.type());
        }
        long min = limits[0];
        // as in ClickHouse, a fourth argument leaves max_ngram_length at its default
        long max = args.size() == 3 ? limits[1] : 100;
        long cutoff = limits[2];
        if (Long.compareUnsigned(min, 3) < 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'min_ngram_length' must be greater or equal to 3");
        }
        if (Long.compareUnsigned(max, min) < 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'max_ngram_length' must be greater or equal to 'min_ngram_length'");
        }
        if (args.size() == 4 && Long.compareUnsigned(cutoff, min) < 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'min_cutoff_length' must be greater or equal to 'min_ngram_length'");
        }
        if (args.size() == 4 && Long.compareUnsigned(cutoff, max) > 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'min_cutoff_length' must be less or equal to 'max_ngram_length'");
        }
        DataType element = hashes ? DataTypes.UINT32 : DataTypes.STRING;
        if (Functions.isNothing(args.get(0))) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        Evaluator string = args.get(0);
        return Evaluator.of(DataTypes.array(element), r -> {
            Object value = string.eval(r);
            if (value == null) {
                // a Nullable string's NULL has no grams: the result is not Nullable
                return List.of();
            }
            byte[] b = Functions.bytes(value);
            List<Object> out = new ArrayList<>();
            for (int[] g : grams(b, utf8, (int) min, max, args.size() == 4 ? cutoff : -1)) {
                out.add(hashes ? (Object) weakHash(b, g[0], g[1]) : dev.chdedup.stub.types.ByteStrings.of(b, g[0], g[1] - g[0]));
            }
            return Collections.unmodifiableList(out);
        });
    }

    /** The byte length of the unit at {@code i}: one byte, or for UTF-8 the length its lead byte declares (cut at the end). */
    private static int unit(byte[] b, int i, boolean utf8) {
        if (!utf8) {
            return 1;
        }
        int c = b[i] & 0xFF;
        int k = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : c < 0xFC ? 5 : c < 0xFE ? 6 : 1;
        return Math.min(k, b.length - i);
    }

    /**
     * The [from, to) byte ranges of the sparse grams, in the order the scan finds them: each border gram (k = min - 1
     * units) ends a gram with every earlier border gram on the stack of hashes not below it that it does not hide,
     * the stack keeping strictly decreasing hashes.
     */
    private static List<int[]> grams(byte[] b, boolean utf8, int min, long max, long cutoff) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < b.length; i += unit(b, i, utf8)) {
            starts.add(i);
        }
        starts.add(b.length);
        int k = min - 1;
        List<int[]> out = new ArrayList<>();
        // stack entries: {start byte of the border gram, index of its last unit, hash as int bits}
        List<long[]> stack = new ArrayList<>();
        for (int r = k - 1; r < starts.size() - 1; r++) {
            int left = starts.get(r - k + 1);
            int end = starts.get(r + 1);
            long h = weakHash(b, left, end);
            while (!stack.isEmpty() && stack.get(stack.size() - 1)[2] < h) {
                long[] top = stack.get(stack.size() - 1);
                long length = r - top[1] + k;
                if (length > max) {
                    stack.clear();
                    break;
                }
                if (cutoff < 0 || length >= cutoff) {
                    out.add(new int[] {(int) top[0], end});
                }
                stack.remove(stack.size() - 1);
            }
            if (!stack.isEmpty()) {
                long[] top = stack.get(stack.size() - 1);
                long length = r - top[1] + k;
                if (length <= max && (cutoff < 0 || length >= cutoff)) {
                    out.add(new int[] {(int) top[0], end});
                }
            }
            while (!stack.isEmpty() && stack.get(stack.size() - 1)[2] == h) {
                stack.remove(stack.size() - 1);
            }
            stack.add(new long[] {left, r, h});
        }
        return out;
    }
}
