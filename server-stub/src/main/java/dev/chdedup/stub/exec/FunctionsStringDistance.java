package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The string distances and similarities of two Strings (ClickHouse's FunctionsStringDistance): byteHammingDistance,
 * editDistance (Levenshtein), damerauLevenshteinDistance (optimal string alignment), stringJaccardIndex (of the sets
 * of bytes), jaroSimilarity and jaroWinklerSimilarity over bytes, and editDistanceUTF8 and stringJaccardIndexUTF8
 * over code points. The quadratic ones refuse a string above 65,536 units (TOO_LARGE_STRING_SIZE).
 */
final class FunctionsStringDistance {
    private static final int MAX_STRING_SIZE = 1 << 16;

    private FunctionsStringDistance() {
    }

    /** A distance of two strings' units (bytes, or code points for the UTF-8 forms). */
    private interface Distance {
        Object of(int[] a, int[] b);
    }

    static void register(FunctionFactory f) {
        add(f, "byteHammingDistance", false, DataTypes.UINT64, FunctionsStringDistance::hamming);
        f.registerAlias("mismatches", "byteHammingDistance", false);
        add(f, "editDistance", false, DataTypes.UINT64, (a, b) -> levenshtein("editDistance", a, b));
        f.registerAlias("levenshteinDistance", "editDistance", false);
        add(f, "editDistanceUTF8", true, DataTypes.UINT64, (a, b) -> levenshtein("editDistanceUTF8", a, b));
        f.registerAlias("levenshteinDistanceUTF8", "editDistanceUTF8", false);
        add(f, "damerauLevenshteinDistance", false, DataTypes.UINT64, FunctionsStringDistance::damerauLevenshtein);
        add(f, "stringJaccardIndex", false, DataTypes.FLOAT64, FunctionsStringDistance::jaccard);
        add(f, "stringJaccardIndexUTF8", true, DataTypes.FLOAT64, FunctionsStringDistance::jaccard);
        add(f, "jaroSimilarity", false, DataTypes.FLOAT64, (a, b) -> jaro("jaroSimilarity", a, b));
        add(f, "jaroWinklerSimilarity", false, DataTypes.FLOAT64, FunctionsStringDistance::jaroWinkler);
    }

    private static void add(FunctionFactory f, String name, boolean utf8, DataType result, Distance d) {
        f.register(name, FunctionsString.CATEGORY, (args, ctx) -> {
            Functions.arity(name, args, 2);
            for (Evaluator a : args) {
                DataType t = a.type().unwrap();
                if (!(t instanceof dev.chdedup.stub.types.StringType st && st.fixedLength == 0) && !StringArguments.isNull(t)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
                }
            }
            return Functions.strict(result, args, v -> d.of(units((String) v[0], utf8), units((String) v[1], utf8)));
        });
    }

    /**
     * The bytes of a string, or its code points: a byte below 0xC0 or from 0xF8 stands for itself, any other must
     * start a well-formed sequence (BAD_ARGUMENTS otherwise).
     */
    private static int[] units(String s, boolean utf8) {
        if (!utf8 || ByteStrings.isAscii(s)) {
            int[] out = new int[s.length()];
            for (int i = 0; i < out.length; i++) {
                out[i] = s.charAt(i) & 0xFF;
            }
            return out;
        }
        int[] out = new int[s.length()];
        int n = 0;
        for (int i = 0; i < s.length(); ) {
            int b = s.charAt(i) & 0xFF;
            if (b < 0xC0 || b >= 0xF8) {
                out[n++] = b;
                i++;
                continue;
            }
            int k = ByteStrings.utf8SequenceLength(s, i);
            if (k == 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Illegal UTF-8 sequence, while processing '" + ByteStrings.toText(s.substring(i)) + "'");
            }
            out[n++] = ByteStrings.toText(s.substring(i, i + k)).codePointAt(0);
            i += k;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static void checkSize(String name, int[] a, int[] b) {
        if (a.length > MAX_STRING_SIZE || b.length > MAX_STRING_SIZE) {
            throw new ChException(ErrorCode.TOO_LARGE_STRING_SIZE, "The string size is too big for function " + name
                + ", should be at most " + MAX_STRING_SIZE);
        }
    }

    /** The positions where the strings differ, and every unit of the longer one past the shorter one's end. */
    private static Object hamming(int[] a, int[] b) {
        long d = Math.abs(a.length - b.length);
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            d += a[i] != b[i] ? 1 : 0;
        }
        return d;
    }

    private static Object levenshtein(String name, int[] a, int[] b) {
        checkSize(name, a, b);
        int[] prev = new int[b.length + 1];
        int[] cur = new int[b.length + 1];
        for (int j = 0; j <= b.length; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length; i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length; j++) {
                cur[j] = Math.min(Math.min(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return (long) prev[b.length];
    }

    /** The optimal string alignment distance: Levenshtein's with a transposition of two adjacent units costing 1. */
    private static Object damerauLevenshtein(int[] a, int[] b) {
        checkSize("damerauLevenshteinDistance", a, b);
        int[][] d = new int[a.length + 1][b.length + 1];
        for (int i = 0; i <= a.length; i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length; j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length; i++) {
            for (int j = 1; j <= b.length; j++) {
                int cost = a[i - 1] == b[j - 1] ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return (long) d[a.length][b.length];
    }

    /** |A ∩ B| / |A ∪ B| of the sets of units; 0 when a string is empty. */
    private static Object jaccard(int[] a, int[] b) {
        if (a.length == 0 || b.length == 0) {
            return 0.0;
        }
        Set<Integer> x = new HashSet<>();
        Set<Integer> y = new HashSet<>();
        for (int u : a) {
            x.add(u);
        }
        for (int u : b) {
            y.add(u);
        }
        int union = x.size() + y.size();
        x.retainAll(y);
        return (double) x.size() / (union - x.size());
    }

    /**
     * Jaro's similarity: units matching within half the longer length less one, and their transpositions; when a
     * string is empty, the other one's length (as ClickHouse answers).
     */
    private static double jaro(String name, int[] a, int[] b) {
        if (a.length == 0 || b.length == 0) {
            return a.length + b.length;
        }
        checkSize(name, a, b);
        if (java.util.Arrays.equals(a, b)) {
            return 1.0;
        }
        int range = Math.max(0, Math.max(a.length, b.length) / 2 - 1);
        boolean[] matchedA = new boolean[a.length];
        boolean[] matchedB = new boolean[b.length];
        int matches = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = Math.max(0, i - range); j < Math.min(b.length, i + range + 1); j++) {
                if (!matchedB[j] && a[i] == b[j]) {
                    matchedA[i] = true;
                    matchedB[j] = true;
                    matches++;
                    break;
                }
            }
        }
        if (matches == 0) {
            return 0.0;
        }
        double transpositions = 0;
        for (int i = 0, j = 0, k = 0; k < matches; k++, i++, j++) {
            while (!matchedA[i]) {
                i++;
            }
            while (!matchedB[j]) {
                j++;
            }
            if (a[i] != b[j]) {
                transpositions += 0.5;
            }
        }
        double m = matches;
        return 1.0 / 3.0 * (m / a.length + m / b.length + (m - transpositions) / m);
    }

    /** Jaro's similarity raised, above 0.7, by 0.1 of the rest for each unit of a common prefix of up to 4. */
    private static Object jaroWinkler(int[] a, int[] b) {
        if (a.length == 0 || b.length == 0) {
            return (double) (a.length + b.length);
        }
        checkSize("jaroWinklerSimilarity", a, b);
        double s = jaro("jaroWinklerSimilarity", a, b);
        if (s > 0.7) {
            int common = Math.min(4, Math.min(a.length, b.length));
            int prefix = 0;
            while (prefix < common && a[prefix] == b[prefix]) {
                prefix++;
            }
            s += prefix * 0.1 * (1.0 - s);
        }
        return s;
    }
}
