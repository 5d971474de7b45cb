package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The substring search functions (ClickHouse's FunctionsStringSearch, FunctionsMultiStringSearch, HasTokenImpl,
 * HasSubsequenceImpl): position and locate, countSubstrings, the multiSearch family, hasSubsequence and hasToken, each
 * with its CaseInsensitive and UTF8 forms ({@link StringSearcher}). The regular-expression searches are in
 * {@link FunctionsStringSearchRegexp}.
 */
final class FunctionsStringSearch {
    static final String CATEGORY = "String Search";

    private FunctionsStringSearch() {
    }

    static void register(FunctionFactory f) {
        for (String sfx : new String[] {"", "CaseInsensitive", "UTF8", "CaseInsensitiveUTF8"}) {
            String position = "position" + sfx;
            if (sfx.isEmpty()) {
                f.registerCaseInsensitive(position, CATEGORY, (args, ctx) -> position(position, args, false));
            } else {
                f.register(position, CATEGORY, (args, ctx) -> position(position, args, false));
            }
            String count = "countSubstrings" + sfx;
            if (!sfx.equals("UTF8")) {
                if (sfx.isEmpty()) {
                    f.registerCaseInsensitive(count, CATEGORY, (args, ctx) -> count(count, args));
                } else {
                    f.register(count, CATEGORY, (args, ctx) -> count(count, args));
                }
            }
            for (String multi : new String[] {"multiSearchAllPositions", "multiSearchFirstPosition", "multiSearchFirstIndex", "multiSearchAny"}) {
                String name = multi + sfx;
                f.register(name, CATEGORY, (args, ctx) -> multiSearch(name, multi, args));
            }
            String subsequence = "hasSubsequence" + sfx;
            f.registerCaseInsensitive(subsequence, CATEGORY, (args, ctx) -> hasSubsequence(subsequence, args));
        }
        f.registerCaseInsensitive("locate", CATEGORY, (args, ctx) -> position("locate", args, true));
        f.registerAlias("instr", "positionCaseInsensitive", true);
        f.register("hasToken", CATEGORY, (args, ctx) -> hasToken("hasToken", args, false, false));
        f.register("hasTokenOrNull", CATEGORY, (args, ctx) -> hasToken("hasTokenOrNull", args, false, true));
        f.registerCaseInsensitive("hasTokenCaseInsensitive", CATEGORY, (args, ctx) -> hasToken("hasTokenCaseInsensitive", args, true, false));
        f.registerCaseInsensitive("hasTokenCaseInsensitiveOrNull", CATEGORY,
            (args, ctx) -> hasToken("hasTokenCaseInsensitiveOrNull", args, true, true));
        f.register("highlight", CATEGORY, (args, ctx) -> highlight(args));
    }

    static ChException illegalType(String name, Evaluator a) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
    }

    /** A String (a FixedString too when {@code fixedAllowed}) or NULL argument, else ILLEGAL_TYPE_OF_ARGUMENT. */
    static void checkString(String name, Evaluator a, boolean fixedAllowed) {
        DataType t = a.type().unwrap();
        if (t instanceof NothingType) {
            return;
        }
        if (!(t instanceof StringType st) || !fixedAllowed && st.fixedLength > 0) {
            throw illegalType(name, a);
        }
    }

    private static boolean isUnsigned(DataType t) {
        DataType u = t.unwrap();
        return u instanceof NothingType || u instanceof IntType && u.name().startsWith("UInt");
    }

    /** position(haystack, needle[, start]) and locate(needle, haystack[, start]): UInt64, the 1-based position or 0. */
    private static Evaluator position(String name, List<Evaluator> args, boolean needleFirst) {
        if (args.size() < 2 || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be 2 or 3");
        }
        List<Evaluator> ordered = new ArrayList<>(args);
        if (needleFirst) {
            Collections.swap(ordered, 0, 1);
        }
        checkString(name, ordered.get(0), true);
        checkString(name, ordered.get(1), false);
        if (ordered.size() == 3 && !isUnsigned(ordered.get(2).type())) {
            throw illegalType(name, ordered.get(2));
        }
        StringSearcher searcher = StringSearcher.forName(needleFirst ? "position" : name);
        DataType startType = ordered.size() == 3 ? ordered.get(2).type() : null;
        return Functions.defaultForNulls(DataTypes.UINT64, ordered, v -> searcher.position((String) v[0], (String) v[1],
            v.length == 3 ? Values.toLong(Values.toNumber(v[2], startType)) : 1));
    }

    private static Evaluator count(String name, List<Evaluator> args) {
        if (args.size() < 2 || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be 2 or 3");
        }
        checkString(name, args.get(0), true);
        checkString(name, args.get(1), false);
        if (args.size() == 3 && !isUnsigned(args.get(2).type())) {
            throw illegalType(name, args.get(2));
        }
        StringSearcher searcher = StringSearcher.forName(name);
        DataType startType = args.size() == 3 ? args.get(2).type() : null;
        return Functions.defaultForNulls(DataTypes.UINT64, args, v -> searcher.count((String) v[0], (String) v[1],
            v.length == 3 ? Values.toLong(Values.toNumber(v[2], startType)) : 1));
    }

    /** An Array(String) argument of needles (or patterns), else ILLEGAL_TYPE_OF_ARGUMENT. */
    static void checkStringArray(String name, Evaluator a) {
        DataType t = a.type().unwrap();
        if (t instanceof NothingType) {
            return;
        }
        if (!(t instanceof ArrayType at) || at.element.isNullable() || !(at.element.unwrap() instanceof StringType)) {
            throw illegalType(name, a);
        }
    }

    /** The multiSearch functions over haystack and an array of needles (all positions, the first position or index, any). */
    private static Evaluator multiSearch(String name, String kind, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        checkString(name, args.get(0), false);
        checkStringArray(name, args.get(1));
        StringSearcher searcher = StringSearcher.forName(name);
        DataType result = kind.endsWith("AllPositions") ? DataTypes.array(DataTypes.UINT64) : kind.endsWith("Any") ? DataTypes.UINT8 : DataTypes.UINT64;
        return Functions.defaultForNulls(result, args, v -> {
            String h = (String) v[0];
            List<?> needles = (List<?>) v[1];
            List<Object> positions = new ArrayList<>(needles.size());
            long first = 0;
            long index = 0;
            for (int i = 0; i < needles.size(); i++) {
                long p = searcher.position(h, (String) needles.get(i), 1);
                positions.add(p);
                if (p > 0) {
                    first = first == 0 ? p : Math.min(first, p);
                    index = index == 0 ? i + 1 : index;
                }
            }
            switch (kind) {
                case "multiSearchAllPositions": return Collections.unmodifiableList(positions);
                case "multiSearchFirstPosition": return first;
                case "multiSearchFirstIndex": return index;
                default: return index > 0 ? 1L : 0L;
            }
        });
    }

    private static Evaluator hasSubsequence(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        checkString(name, args.get(0), true);
        checkString(name, args.get(1), true);
        StringSearcher searcher = StringSearcher.forName(name);
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> searcher.hasSubsequence((String) v[0], (String) v[1]) ? 1L : 0L);
    }

    /** A token separator: an ASCII byte that is not a letter or digit (bytes of 0x80 and up belong to tokens). */
    static boolean tokenSeparator(char c) {
        return c < 0x80 && !URLParts.isAlphaNumeric(c);
    }

    /**
     * hasToken(haystack, token): whether the constant token occurs with a separator (or the text's edge) on both sides;
     * a token holding a separator is BAD_ARGUMENTS, or NULL for the OrNull forms.
     */
    private static Evaluator hasToken(String name, List<Evaluator> args, boolean caseInsensitive, boolean orNull) {
        Functions.arity(name, args, 2);
        checkString(name, args.get(0), true);
        checkString(name, args.get(1), false);
        Evaluator tokenArg = args.get(1);
        if (!tokenArg.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        Object tv = tokenArg.eval(new Object[0]);
        String token = tv == null ? "" : (String) tv;
        boolean valid = token.chars().noneMatch(c -> tokenSeparator((char) c));
        if (!valid && !orNull) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Needle must not contain whitespace or separator characters");
        }
        StringSearcher searcher = new StringSearcher(false, caseInsensitive);
        Evaluator e = Functions.defaultForNulls(DataTypes.UINT8, args, v -> {
            if (!valid) {
                return null;
            }
            String h = (String) v[0];
            if (token.isEmpty()) {
                return 0L;
            }
            int at = 0;
            int[] m;
            while ((m = searcher.find(h, token, at)) != null) {
                boolean before = m[0] == 0 || tokenSeparator(h.charAt(m[0] - 1));
                boolean after = m[1] == h.length() || tokenSeparator(h.charAt(m[1]));
                if (before && after) {
                    return 1L;
                }
                at = m[0] + 1;
            }
            return 0L;
        });
        return orNull && !e.type().isNullable() ? Evaluator.of(DataTypes.nullable(e.type()), e::eval) : e;
    }

    /** A constant String argument of highlight at {@code index} (0-based). */
    private static String highlightTag(List<Evaluator> args, int index) {
        Evaluator a = args.get(index);
        if (!(a.type().unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument " + (index + 1)
                + " of function highlight, expected const String");
        }
        if (!a.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index " + index + " for function highlight must be constant");
        }
        Object v = a.eval(new Object[0]);
        return v == null ? "" : (String) v;
    }

    /**
     * highlight(haystack, needles[, open, close]): each place where a needle occurs (ASCII case ignored, occurrences may
     * overlap) wrapped in the tags ({@code <em>} and {@code </em>} by default), places that overlap or touch merged.
     */
    private static Evaluator highlight(List<Evaluator> args) {
        if (args.size() != 2 && args.size() != 4) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function highlight requires 2 or 4 arguments, got " + args.size());
        }
        Evaluator h = args.get(0);
        if (!(h.type().unwrap() instanceof StringType) && !(h.type().unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + h.type().name()
                + " of first argument of function highlight, expected String or FixedString");
        }
        Evaluator needlesArg = args.get(1);
        DataType nt = needlesArg.type().unwrap();
        if (!(nt instanceof ArrayType at) || at.element.isNullable() || !(at.element.unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + needlesArg.type().name()
                + " of second argument of function highlight, expected const Array(String)");
        }
        if (!needlesArg.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function highlight must be constant");
        }
        String open = args.size() == 4 ? highlightTag(args, 2) : "<em>";
        String close = args.size() == 4 ? highlightTag(args, 3) : "</em>";
        List<String> needles = new ArrayList<>();
        for (Object o : (List<?>) needlesArg.eval(new Object[0])) {
            if (!((String) o).isEmpty()) {
                needles.add((String) o);
            }
        }
        StringSearcher searcher = new StringSearcher(false, true);
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            String s = (String) v[0];
            boolean[] marked = new boolean[s.length()];
            for (String needle : needles) {
                int[] m;
                int from = 0;
                while ((m = searcher.find(s, needle, from)) != null) {
                    java.util.Arrays.fill(marked, m[0], m[1], true);
                    from = m[0] + 1;
                }
            }
            StringBuilder out = new StringBuilder(s.length() + 16);
            for (int i = 0; i < s.length(); i++) {
                if (marked[i] && (i == 0 || !marked[i - 1])) {
                    out.append(open);
                }
                out.append(s.charAt(i));
                if (marked[i] && (i + 1 == s.length() || !marked[i + 1])) {
                    out.append(close);
                }
            }
            return out.toString();
        });
    }
}
