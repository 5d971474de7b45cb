package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * multiMatchAny, multiMatchAnyIndex, multiMatchAllIndices and the multiFuzzyMatch forms, as ClickHouse runs them with
 * Hyperscan: the patterns have PCRE's syntax ({@link java.util.regex} here, '.' matching a newline too), and Hyperscan
 * reports a pattern at the earliest offset where one of its matches ends, so the "any" index is the pattern whose match
 * ends first and the indices of all come in the order of those ends (the lower index first at the same end). The fuzzy
 * forms match a pattern within a Levenshtein distance of at most 16; a pattern is taken literally there unless the
 * distance is 0.
 */
final class MultiRegexps {
    /** Hyperscan's largest edit distance. */
    private static final int MAX_DISTANCE = 16;

    private MultiRegexps() {
    }

    private static final String METACHARACTERS = "\\^$.|?*+()[]{}";

    /** Whether the pattern holds no metacharacter: its matches are its own text. */
    static boolean literal(String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            if (METACHARACTERS.indexOf(pattern.charAt(i)) >= 0) {
                return false;
            }
        }
        return true;
    }

    static Evaluator multiMatch(String name, String kind, List<Evaluator> args, boolean fuzzy) {
        Functions.arity(name, args, fuzzy ? 3 : 2);
        FunctionsStringSearch.checkString(name, args.get(0), false);
        Evaluator patternsArg = args.get(fuzzy ? 2 : 1);
        FunctionsStringSearch.checkStringArray(name, patternsArg);
        int distance = fuzzy ? distance(name, args.get(1)) : 0;
        if (!patternsArg.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Function '" + name + "' doesn't support search with non-constant needles");
        }
        List<String> patterns = new ArrayList<>();
        Object pv = patternsArg.eval(new Object[0]);
        if (pv != null) {
            for (Object o : (List<?>) pv) {
                patterns.add(ByteStrings.toText((String) o));
            }
        }
        List<Pattern> compiled = new ArrayList<>();
        for (String p : patterns) {
            if (fuzzy && distance > 0 && literal(p)) {
                if (distance > MAX_DISTANCE) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Pattern '" + p + "' failed with error 'Edit distance is too big.'");
                }
                if (p.codePointCount(0, p.length()) <= distance) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Pattern '" + p
                        + "' failed with error 'Approximate matching patterns that reduce to vacuous patterns are disallowed.'");
                }
                compiled.add(null);
                continue;
            }
            try {
                compiled.add(Pattern.compile(p, Pattern.DOTALL | Pattern.UNICODE_CASE));
            } catch (PatternSyntaxException e) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Pattern '" + p + "' failed with error '" + e.getDescription() + "'");
            }
        }
        DataType result = kind.equals("Any") ? DataTypes.UINT8 : kind.equals("AnyIndex") ? DataTypes.UINT64 : DataTypes.array(DataTypes.UINT64);
        return Functions.defaultForNulls(result, args.subList(0, 1), v -> {
            String text = ByteStrings.toText((String) v[0]);
            List<long[]> found = new ArrayList<>();
            for (int i = 0; i < patterns.size(); i++) {
                int end = compiled.get(i) == null ? fuzzyEnd(text, patterns.get(i), distance) : earliestEnd(text, compiled.get(i));
                if (end >= 0) {
                    found.add(new long[] {end, i + 1});
                }
            }
            found.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            switch (kind) {
                case "Any":
                    return found.isEmpty() ? 0L : 1L;
                case "AnyIndex":
                    return found.isEmpty() ? 0L : found.get(0)[1];
                default: {
                    List<Object> out = new ArrayList<>();
                    for (long[] f : found) {
                        out.add(f[1]);
                    }
                    return Collections.unmodifiableList(out);
                }
            }
        });
    }

    /** The edit distance argument: a constant unsigned integer of at most 32 bits. */
    private static int distance(String name, Evaluator d) {
        DataType t = d.type().unwrap();
        if (!(t instanceof IntType) || !t.name().startsWith("UInt")) {
            throw FunctionsStringSearch.illegalType(name, d);
        }
        if (!d.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        if (t.name().equals("UInt64")) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column Const(UInt64). The number is not const or does not fit in UInt32");
        }
        return (int) Functions.constLong(d);
    }

    /** The smallest end offset of a match of {@code p} in {@code text} (anchors hold at the text's own ends only), or -1. */
    private static int earliestEnd(String text, Pattern p) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            return -1;
        }
        // a match inside [0, e) is inside [0, e + 1) too: the least e with one is found by halving [0, end of the first match]
        int low = 0;
        int high = m.end();
        m.useAnchoringBounds(false).useTransparentBounds(true);
        while (low < high) {
            int mid = (low + high) >>> 1;
            m.region(0, mid);
            if (m.find()) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /** The smallest end offset of a substring within Levenshtein distance {@code d} of {@code pattern} (by code points), or -1. */
    private static int fuzzyEnd(String text, String pattern, int d) {
        int[] p = pattern.codePoints().toArray();
        int[] cost = new int[p.length + 1];
        for (int k = 0; k <= p.length; k++) {
            cost[k] = k;
        }
        if (cost[p.length] <= d) {
            return 0;
        }
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            int diagonal = cost[0];
            cost[0] = 0;
            for (int k = 1; k <= p.length; k++) {
                int above = cost[k];
                cost[k] = Math.min(Math.min(cost[k - 1] + 1, above + 1), diagonal + (p[k - 1] == c ? 0 : 1));
                diagonal = above;
            }
            if (cost[p.length] <= d) {
                return i;
            }
        }
        return -1;
    }
}
