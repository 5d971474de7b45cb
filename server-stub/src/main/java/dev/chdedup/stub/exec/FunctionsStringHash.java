package dev.chdedup.stub.exec;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * The similarity hashes of ClickHouse's FunctionsStringHash: ngramSimHash, wordShingleSimHash (a 64-bit SimHash of
 * the string's shingles), ngramMinHash, wordShingleMinHash (the hashes of the K smallest and K largest shingle hashes)
 * and the MinHashArg forms (those shingles themselves), each also CaseInsensitive (every byte ORed with 0x20), UTF8
 * (n-grams of code points rather than bytes) or both. A shingle is n consecutive bytes or code points, or n
 * consecutive words of at least 4 bytes (a word: bytes that are not ASCII punctuation or space); its hash is the raw
 * CRC-32C of its bytes from all ones, as SSE 4.2's crc32 instruction computes it.
 */
final class FunctionsStringHash {
    private static final int DEFAULT_SHINGLE = 3;
    private static final int DEFAULT_HASHES = 6;
    private static final int MAX = 25;
    private static final int MIN_WORD = 4;
    private static final int[] CRC32C = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? c >>> 1 ^ 0x82F63B78 : c >>> 1;
            }
            CRC32C[i] = c;
        }
    }

    private FunctionsStringHash() {
    }

    static void register(FunctionFactory f) {
        for (String kind : List.of("ngram", "wordShingle")) {
            for (String hash : List.of("SimHash", "MinHash", "MinHashArg")) {
                for (String variant : List.of("", "CaseInsensitive", "UTF8", "CaseInsensitiveUTF8")) {
                    String name = kind + hash + variant;
                    boolean ngram = kind.equals("ngram");
                    boolean caseInsensitive = variant.startsWith("CaseInsensitive");
                    boolean utf8 = variant.endsWith("UTF8");
                    f.register(name, FunctionsHashing.CATEGORY, (args, ctx) -> compile(name, args, hash, ngram, caseInsensitive, utf8));
                }
            }
        }
    }

    /** A shingle: where its bytes are in the string. */
    private record Ref(int start, int length) {
    }

    private static Evaluator compile(String name, List<Evaluator> args, String hash, boolean ngram, boolean caseInsensitive, boolean utf8) {
        boolean sim = hash.equals("SimHash");
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Function " + name + " expect at least one argument");
        }
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument of function " + name + " must be String, got "
                + args.get(0).type().name());
        }
        int shingle = args.size() > 1 ? constUnsigned(name, args.get(1), "Second argument (shingle size)") : DEFAULT_SHINGLE;
        if (args.size() > 2 && sim) {
            throw new ChException(ErrorCode.TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Function " + name
                + " expect no more than two arguments (text, shingle size), got " + args.size());
        }
        int hashes = args.size() > 2 ? constUnsigned(name, args.get(2), "Third argument (num hashes)") : DEFAULT_HASHES;
        if (args.size() > 3) {
            throw new ChException(ErrorCode.TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Function " + name
                + " expect no more than three arguments (text, shingle size, num hashes), got " + args.size());
        }
        if (shingle == 0 || hashes == 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, (shingle == 0 ? "Second argument (shingle size)" : "Third argument (num hashes)")
                + " of function " + name + " cannot be zero");
        }
        if (shingle > MAX || hashes > MAX) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, (shingle > MAX ? "Second argument (shingle size)" : "Third argument (num hashes)")
                + " of function " + name + " cannot be greater then " + MAX);
        }
        DataType result;
        if (sim) {
            result = DataTypes.UINT64;
        } else if (hash.equals("MinHash")) {
            result = DataTypes.tuple(List.of(DataTypes.UINT64, DataTypes.UINT64));
        } else {
            DataType strings = DataTypes.tuple(Collections.nCopies(hashes, DataTypes.STRING));
            result = DataTypes.tuple(List.of(strings, strings));
        }
        boolean arg = hash.equals("MinHashArg");
        return Functions.defaultForNulls(result, args.subList(0, 1), v -> {
            byte[] s = ByteStrings.bytes((String) v[0]);
            List<long[]> shingles = new ArrayList<>();
            List<Ref> refs = new ArrayList<>();
            boolean whole = ngram && ngrams(s, shingle, utf8, caseInsensitive, shingles, refs);
            if (!ngram) {
                wordShingles(s, shingle, caseInsensitive, shingles, refs);
            }
            if (sim) {
                return whole ? shingles.get(0)[0] : simHash(shingles);
            }
            return minHash(s, shingles, refs, hashes, arg);
        });
    }

    private static int constUnsigned(String name, Evaluator e, String what) {
        DataType t = e.type().unwrap();
        if (!(t instanceof IntType && !((IntType) t).signed)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, what + " of function " + name + " must be unsigned integer, got " + e.type().name());
        }
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, what + " of function " + name + " must be constant");
        }
        long n = Values.toLong(Values.toNumber(e.eval(new Object[0]), t));
        return n < 0 || n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
    }

    /** The raw CRC-32C of {@code s[from, from + n)} continued from {@code crc}, a 32-bit value once any byte is hashed. */
    private static long crc(long crc, byte[] s, int from, int n, boolean caseInsensitive) {
        if (n == 0) {
            return crc;
        }
        int c = (int) crc;
        for (int i = from; i < from + n; i++) {
            int b = caseInsensitive ? s[i] | 0x20 : s[i];
            c = c >>> 8 ^ CRC32C[(c ^ b) & 0xFF];
        }
        return c & 0xFFFFFFFFL;
    }

    /**
     * The n-grams of bytes or code points, each as {hash} with its place; the whole string when it is shorter, and then
     * true.
     */
    private static boolean ngrams(byte[] s, int n, boolean utf8, boolean ci, List<long[]> hashes, List<Ref> refs) {
        if (!utf8) {
            if (s.length < n) {
                whole(s, ci, hashes, refs);
                return true;
            }
            for (int pos = 0; pos + n <= s.length; pos++) {
                hashes.add(new long[] {crc(-1L, s, pos, n, ci)});
                refs.add(new Ref(pos, n));
            }
            return false;
        }
        int start = 0;
        int end = 0;
        for (int i = 0; i < n; i++) {
            if (end >= s.length) {
                whole(s, ci, hashes, refs);
                return true;
            }
            end = nextCodePoint(s, end, s.length);
        }
        while (end < s.length) {
            start = nextCodePoint(s, start, end);
            end = nextCodePoint(s, end, s.length);
            hashes.add(new long[] {crc(-1L, s, start, end - start, ci)});
            refs.add(new Ref(start, end - start));
        }
        return false;
    }

    private static void whole(byte[] s, boolean ci, List<long[]> hashes, List<Ref> refs) {
        hashes.add(new long[] {crc(-1L, s, 0, s.length, ci)});
        refs.add(new Ref(0, s.length));
    }

    /** The position after the UTF-8 sequence at {@code pos} (its length from its first byte), at most {@code end}. */
    private static int nextCodePoint(byte[] s, int pos, int end) {
        int c = s[pos] & 0xFF;
        int len = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1;
        return Math.min(pos + len, end);
    }

    private static boolean isSeparator(byte c) {
        return c >= 0 && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z');
    }

    /**
     * The shingles of {@code n} consecutive words of at least 4 bytes; the words of a shingle hash in order, the first
     * shingle as soon as there are n words (or fewer, at the end of the string).
     */
    private static void wordShingles(byte[] s, int n, boolean ci, List<long[]> hashes, List<Ref> refs) {
        List<Ref> words = new ArrayList<>();
        int pos = 0;
        while (pos < s.length && words.size() < n) {
            Ref w = readWord(s, pos);
            pos = w.start() + w.length();
            if (w.length() >= MIN_WORD) {
                words.add(w);
            }
        }
        if (words.isEmpty()) {
            return;
        }
        hashes.add(new long[] {shingleHash(s, words, 0, ci)});
        refs.add(new Ref(words.get(0).start(), words.get(words.size() - 1).start() + words.get(words.size() - 1).length() - words.get(0).start()));
        int offset = 0;
        while (pos < s.length) {
            Ref w = readWord(s, pos);
            pos = w.start() + w.length();
            if (w.length() < MIN_WORD) {
                continue;
            }
            words.set(offset, w);
            int shingleEnd = w.start() + w.length();
            offset = (offset + 1) % words.size();
            int shingleStart = words.get(offset).start();
            hashes.add(new long[] {shingleHash(s, words, offset, ci)});
            refs.add(new Ref(shingleStart, shingleEnd - shingleStart));
        }
    }

    private static Ref readWord(byte[] s, int pos) {
        while (pos < s.length && isSeparator(s[pos])) {
            pos++;
        }
        int start = pos;
        while (pos < s.length && !isSeparator(s[pos])) {
            pos++;
        }
        return new Ref(start, pos - start);
    }

    private static long shingleHash(byte[] s, List<Ref> words, int offset, boolean ci) {
        long crc = -1L;
        for (int i = 0; i < words.size(); i++) {
            Ref w = words.get((offset + i) % words.size());
            crc = crc(crc, s, w.start(), w.length(), ci);
        }
        return crc;
    }

    /** Bit i is set when more shingle hashes have it set than not (0 without shingles). */
    private static long simHash(List<long[]> hashes) {
        long[] votes = new long[64];
        for (long[] h : hashes) {
            for (int i = 0; i < 64; i++) {
                votes[i] += (h[0] >>> i & 1) != 0 ? 1 : -1;
            }
        }
        long r = 0;
        for (int i = 0; i < 64; i++) {
            if (votes[i] > 0) {
                r |= 1L << i;
            }
        }
        return r;
    }

    /**
     * The K smallest distinct shingle hashes (largest first) and the K largest (smallest first), each folded into one
     * hash with CityHash's Hash128to64, or the shingles they came from (the first of equal hashes).
     */
    private static Object minHash(byte[] s, List<long[]> hashes, List<Ref> refs, int k, boolean arg) {
        TreeMap<Long, Ref> smallest = new TreeMap<>(Long::compareUnsigned);
        TreeMap<Long, Ref> largest = new TreeMap<>(Long::compareUnsigned);
        for (int i = 0; i < hashes.size(); i++) {
            long h = hashes.get(i)[0];
            Ref r = refs.get(i);
            smallest.putIfAbsent(h, r);
            if (smallest.size() > k) {
                smallest.pollLastEntry();
            }
            largest.putIfAbsent(h, r);
            if (largest.size() > k) {
                largest.pollFirstEntry();
            }
        }
        List<Long> low = new ArrayList<>(smallest.descendingKeySet());
        List<Long> high = new ArrayList<>(largest.keySet());
        if (!arg) {
            return List.of(fold(low), fold(high));
        }
        return List.of(strings(s, low, smallest, k), strings(s, high, largest, k));
    }

    private static long fold(List<Long> hashes) {
        long r = 0;
        for (long h : hashes) {
            r = CityHash128.hash128to64(r, h);
        }
        return r;
    }

    private static List<Object> strings(byte[] s, List<Long> order, TreeMap<Long, Ref> refs, int k) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            if (i < order.size()) {
                Ref r = refs.get(order.get(i));
                out.add(ByteStrings.of(s, r.start(), r.length()));
            } else {
                out.add("");
            }
        }
        return out;
    }
}
