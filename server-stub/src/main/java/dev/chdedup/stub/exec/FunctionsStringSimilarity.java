package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.DataTypes;
import java.util.List;

/**
 * ngramDistance and ngramSearch with their CaseInsensitive and UTF8 forms, as ClickHouse's FunctionsStringSimilarity
 * computes them: the 4-grams of bytes (3-grams of code points for UTF-8, a code point being its up to four bytes as a
 * little-endian number) are counted by a 16-bit hash (CRC-32C, as the SSE4.2 instruction ClickHouse uses); the distance
 * is the size of the symmetric difference of the two multisets of hashes over the sum of their sizes, the search is
 * 1 - the needle's n-grams missing from the haystack over the needle's. Case-insensitively the ASCII bytes are lowered,
 * and UTF-8 code points lose bit 5 of each byte (and bit 0 of a two-byte sequence's first), as ClickHouse approximates
 * case folding. A Float32; a haystack or needle over 32 KiB is not similar at all (1 and 0).
 */
final class FunctionsStringSimilarity {
    private static final int MAX_STRING_SIZE = 1 << 15;
    private static final int[] CRC32C_TABLE = crc32cTable();

    private FunctionsStringSimilarity() {
    }

    static void register(FunctionFactory f) {
        for (String kind : new String[] {"ngramDistance", "ngramSearch"}) {
            for (String sfx : new String[] {"", "CaseInsensitive", "UTF8", "CaseInsensitiveUTF8"}) {
                String name = kind + sfx;
                f.register(name, FunctionsStringSearch.CATEGORY, (args, ctx) -> similarity(name, args, kind.equals("ngramDistance"),
                    sfx.contains("UTF8"), sfx.contains("CaseInsensitive")));
            }
        }
    }

    private static int[] crc32cTable() {
        int[] t = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? c >>> 1 ^ 0x82F63B78 : c >>> 1;
            }
            t[i] = c;
        }
        return t;
    }

    /** The CRC-32C instruction on 64 bits: {@code crc} updated with the eight little-endian bytes of {@code data}, no inversions. */
    static int crc32cU64(int crc, long data) {
        for (int i = 0; i < 8; i++) {
            crc = crc >>> 8 ^ CRC32C_TABLE[(crc ^ (int) (data >>> (8 * i))) & 0xFF];
        }
        return crc;
    }

    private static Evaluator similarity(String name, List<Evaluator> args, boolean symmetric, boolean utf8, boolean caseInsensitive) {
        Functions.arity(name, args, 2);
        FunctionsStringSearch.checkString(name, args.get(0), false);
        FunctionsStringSearch.checkString(name, args.get(1), false);
        return Functions.defaultForNulls(DataTypes.FLOAT32, args, v -> {
            String haystack = (String) v[0];
            String needle = (String) v[1];
            if (haystack.length() > MAX_STRING_SIZE || needle.length() > MAX_STRING_SIZE) {
                return symmetric ? 1.0f : 0.0f;
            }
            int[] needleHashes = utf8 ? utf8Hashes(needle, caseInsensitive) : asciiHashes(needle, caseInsensitive);
            int[] haystackHashes = utf8 ? utf8Hashes(haystack, caseInsensitive) : asciiHashes(haystack, caseInsensitive);
            short[] stats = new short[1 << 16];
            for (int h : needleHashes) {
                stats[h]++;
            }
            long distance = needleHashes.length;
            for (int h : haystackHashes) {
                if (stats[h] > 0) {
                    distance--;
                } else if (symmetric) {
                    distance++;
                }
                stats[h]--;
            }
            if (symmetric) {
                return (float) distance / Math.max(haystackHashes.length + needleHashes.length, 1);
            }
            return 1.0f - (float) distance / Math.max(needleHashes.length, 1);
        });
    }

    /** The hashes of the 4-grams of bytes. */
    private static int[] asciiHashes(String s, boolean caseInsensitive) {
        int n = Math.max(0, s.length() - 3);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            long gram = 0;
            for (int k = 0; k < 4; k++) {
                char c = s.charAt(i + k);
                gram |= (long) (caseInsensitive ? StringSearcher.lowerAscii(c) : c) << (8 * k);
            }
            out[i] = crc32cU64(-1, gram) & 0xFFFF;
        }
        return out;
    }

    /** The length of the UTF-8 sequence a byte starts, as ClickHouse's UTF8::seqLength (1 for a continuation byte). */
    private static int sequenceLength(char c) {
        return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : c < 0xFC ? 5 : c < 0xFE ? 6 : 1;
    }

    /** The hashes of the 3-grams of code points (each its bytes as a little-endian number, at most four of them). */
    private static int[] utf8Hashes(String s, boolean caseInsensitive) {
        int[] cps = new int[s.length()];
        int n = 0;
        for (int pos = 0; pos < s.length(); ) {
            int length = Math.min(sequenceLength(s.charAt(pos)), s.length() - pos);
            int cp = 0;
            for (int k = 0; k < Math.min(length, 4); k++) {
                cp |= s.charAt(pos + k) << (8 * k);
            }
            if (caseInsensitive) {
                if (length >= 4) {
                    cp &= ~(1 << (5 + 24));
                }
                if (length >= 3) {
                    cp &= ~(1 << (5 + 16));
                }
                if (length >= 2) {
                    cp &= ~1;
                    cp &= ~(1 << (5 + 8));
                }
                cp &= ~(1 << 5);
            }
            cps[n++] = cp;
            pos += length;
        }
        int grams = Math.max(0, n - 2);
        int[] out = new int[grams];
        for (int i = 0; i < grams; i++) {
            long combined = (cps[i] & 0xFFFFFFFFL) << 32 | cps[i + 1] & 0xFFFFFFFFL;
            out[i] = crc32cU64(cps[i + 2], combined) & 0xFFFF;
        }
        return out;
    }
}
