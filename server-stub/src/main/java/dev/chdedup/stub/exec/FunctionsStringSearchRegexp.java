package dev.chdedup.stub.exec;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The regular-expression searches of the String Search category that ClickHouse runs with re2 (match, extract,
 * extractAll, countMatches, extractGroups, extractAllGroupsHorizontal and Vertical), here with re2j over the UTF-8 bytes
 * (re2's syntax: no backreferences; '.' matches a newline too), and those it runs with
 * Hyperscan (multiMatchAny, multiMatchAnyIndex, multiMatchAllIndices and the multiFuzzyMatch forms, {@link
 * MultiRegexps}).
 */
final class FunctionsStringSearchRegexp {
    private FunctionsStringSearchRegexp() {
    }

    static void register(FunctionFactory f) {
        String category = FunctionsStringSearch.CATEGORY;
        f.register("match", category, (args, ctx) -> match(args));
        f.registerAlias("REGEXP_MATCHES", "match", true);
        f.register("extract", category, (args, ctx) -> extract(args));
        f.register("extractAll", category, (args, ctx) -> extractAll(args));
        f.register("countMatches", category, (args, ctx) -> countMatches("countMatches", args, false));
        f.register("countMatchesCaseInsensitive", category, (args, ctx) -> countMatches("countMatchesCaseInsensitive", args, true));
        f.register("extractGroups", category, (args, ctx) -> extractGroups(args));
        f.register("extractAllGroupsHorizontal", category, (args, ctx) -> extractAllGroups("extractAllGroupsHorizontal", args, true));
        f.register("extractAllGroupsVertical", "String Splitting", (args, ctx) -> extractAllGroups("extractAllGroupsVertical", args, false));
        f.registerAlias("extractAllGroups", "extractAllGroupsVertical", false);
        for (String kind : new String[] {"Any", "AnyIndex", "AllIndices"}) {
            f.register("multiMatch" + kind, category, (args, ctx) -> MultiRegexps.multiMatch("multiMatch" + kind, kind, args, false));
            f.register("multiFuzzyMatch" + kind, category, (args, ctx) -> MultiRegexps.multiMatch("multiFuzzyMatch" + kind, kind, args, true));
        }
    }

    /** An re2 pattern: CANNOT_COMPILE_REGEXP with re2's wording when it does not compile. */
    static Pattern compile(String byteString, boolean caseInsensitive) {
        String text = ByteStrings.toText(byteString);
        try {
            return Pattern.compile(text, Pattern.DOTALL | (caseInsensitive ? Pattern.CASE_INSENSITIVE : 0));
        } catch (PatternSyntaxException e) {
            throw new ChException(ErrorCode.CANNOT_COMPILE_REGEXP, "OptimizedRegularExpression: cannot compile re2: " + text + ", error: "
                + e.getDescription());
        }
    }

    /** The constant String pattern argument, else ILLEGAL_COLUMN (or ILLEGAL_TYPE_OF_ARGUMENT for another type). */
    private static String constPattern(String name, Evaluator a) {
        FunctionsStringSearch.checkString(name, a, true);
        if (!a.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "A value of illegal type was provided as 2nd argument 'pattern' to function '"
                + name + "'. Expected: constant String, got: " + a.type().name());
        }
        Object v = a.eval(new Object[0]);
        return v == null ? "" : (String) v;
    }

    /** The byte string of {@code [start, end)} of a match over {@code h}'s bytes (an unmatched group is ''). */
    private static String slice(String h, int start, int end) {
        return start < 0 ? "" : h.substring(start, end);
    }

    /** The last pattern compiled, kept: a constant pattern (the usual case) is compiled once per query. */
    private static final class PatternCache {
        private String source;
        private Pattern pattern;

        Pattern get(String byteString) {
            if (!byteString.equals(source)) {
                pattern = compile(byteString, false);
                source = byteString;
            }
            return pattern;
        }
    }

    /** match(haystack, pattern): whether the pattern matches a part of the haystack; the pattern may vary by row. */
    private static Evaluator match(List<Evaluator> args) {
        Functions.arity("match", args, 2);
        FunctionsStringSearch.checkString("match", args.get(0), true);
        FunctionsStringSearch.checkString("match", args.get(1), false);
        Evaluator pattern = args.get(1);
        PatternCache cache = new PatternCache();
        if (pattern.constant() && pattern.eval(new Object[0]) != null) {
            cache.get((String) pattern.eval(new Object[0]));
        }
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> cache.get((String) v[1]).matcher(ByteStrings.bytes((String) v[0])).find() ? 1L : 0L);
    }

    /** The constant pattern of extract and extractAll (ILLEGAL_COLUMN when it varies). */
    private static Pattern constantPattern(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        Evaluator pattern = args.get(1);
        FunctionsStringSearch.checkString(name, pattern, false);
        if (!pattern.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        Object v = pattern.eval(new Object[0]);
        return compile(v == null ? "" : (String) v, false);
    }

    /** The first group of a match, or the whole match when the pattern has no group. */
    private static String firstGroup(String h, Matcher m) {
        return m.groupCount() > 0 ? slice(h, m.start(1), m.end(1)) : h.substring(m.start(), m.end());
    }

    /** extract(haystack, pattern): the first group (or the match) of the first match, '' when none. */
    private static Evaluator extract(List<Evaluator> args) {
        FunctionsStringSearch.checkString("extract", args.get(0), false);
        Pattern p = constantPattern("extract", args);
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            String h = (String) v[0];
            Matcher m = p.matcher(ByteStrings.bytes(h));
            return m.find() ? firstGroup(h, m) : "";
        });
    }

    /** extractAll(haystack, pattern): the first group (or the match) of each non-empty match. */
    private static Evaluator extractAll(List<Evaluator> args) {
        Functions.arity("extractAll", args, 2);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof NothingType) && !(t instanceof StringType st && st.fixedLength == 0)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "haystack", "extractAll", "String", args.get(0).type());
        }
        Evaluator pattern = args.get(1);
        if (!(pattern.type().unwrap() instanceof StringType) || !pattern.constant()) {
            throw Functions.illegalArgument(pattern.type().unwrap() instanceof StringType ? ErrorCode.ILLEGAL_COLUMN
                : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "pattern", "extractAll", "const String", pattern.type());
        }
        Pattern p = constantPattern("extractAll", args);
        return FunctionsStringSplitting.arrayOfStrings(args.subList(0, 1), v -> {
            String h = (String) v[0];
            Matcher m = p.matcher(ByteStrings.bytes(h));
            List<Object> out = new ArrayList<>();
            int at = 0;
            while (at <= h.length() && m.find(at)) {
                if (m.end() == m.start()) {
                    at = m.end() + 1;
                    continue;
                }
                out.add(firstGroup(h, m));
                at = m.end();
            }
            return out;
        });
    }

    /**
     * countMatches: the non-empty matches that do not overlap (an empty match moves on by one byte); case-insensitively a
     * pattern without metacharacters is a string whose ASCII letters match in either case, as ClickHouse searches it.
     */
    private static Evaluator countMatches(String name, List<Evaluator> args, boolean caseInsensitive) {
        Functions.arity(name, args, 2);
        FunctionsStringSearch.checkString(name, args.get(0), true);
        String source = constPattern(name, args.get(1));
        Pattern p = compile(source, caseInsensitive);
        if (caseInsensitive && MultiRegexps.literal(source)) {
            // a pattern without metacharacters is searched as a string, its case ignored for ASCII letters only
            StringSearcher searcher = new StringSearcher(false, true);
            return Functions.defaultForNulls(DataTypes.UINT64, args.subList(0, 1), v -> searcher.count((String) v[0], source, 1));
        }
        return Functions.defaultForNulls(DataTypes.UINT64, args.subList(0, 1), v -> {
            String h = (String) v[0];
            Matcher m = p.matcher(ByteStrings.bytes(h));
            long n = 0;
            int at = 0;
            while (at <= h.length() && m.find(at)) {
                if (m.end() == m.start()) {
                    at = m.end() + 1;
                    continue;
                }
                n++;
                at = m.end();
            }
            return n;
        });
    }

    /** The pattern of the extract*Groups functions: a constant with at least one group, else BAD_ARGUMENTS. */
    private static Pattern groupPattern(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 1st argument 'haystack' to function '"
                + name + "'. Expected: const String or const FixedString, got: " + args.get(0).type().name());
        }
        Evaluator needle = args.get(1);
        if (!(needle.type().unwrap() instanceof StringType) || !needle.constant()) {
            throw new ChException(needle.type().unwrap() instanceof StringType ? ErrorCode.ILLEGAL_COLUMN : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT,
                "A value of illegal type was provided as 2nd argument 'needle' to function '" + name
                    + "'. Expected: const String or const FixedString, got: " + needle.type().name());
        }
        String source = (String) needle.eval(new Object[0]);
        Pattern p = compile(source, false);
        if (p.groupCount() == 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "There are no groups in regexp: " + ByteStrings.toText(source));
        }
        return p;
    }

    /** extractGroups(haystack, pattern): the groups of the first match; an empty array when nothing matches. */
    private static Evaluator extractGroups(List<Evaluator> args) {
        Pattern p = groupPattern("extractGroups", args);
        return Functions.defaultForNulls(DataTypes.array(DataTypes.STRING), args, v -> {
            String h = (String) v[0];
            Matcher m = p.matcher(ByteStrings.bytes(h));
            List<Object> out = new ArrayList<>();
            if (m.find()) {
                for (int g = 1; g <= m.groupCount(); g++) {
                    out.add(slice(h, m.start(g), m.end(g)));
                }
            }
            return Collections.unmodifiableList(out);
        });
    }

    /**
     * extractAllGroupsVertical: the groups of each match, a row per match; Horizontal: a row per group of its value in
     * each match. A match that is empty moves the search on by one byte. A NULL haystack is searched as ''.
     */
    private static Evaluator extractAllGroups(String name, List<Evaluator> args, boolean horizontal) {
        Pattern p = groupPattern(name, args);
        Evaluator h = args.get(0);
        int groups = p.groupCount();
        return Evaluator.of(DataTypes.array(DataTypes.array(DataTypes.STRING)), r -> {
            Object hv = h.eval(r);
            String s = hv == null ? "" : (String) hv;
            Matcher m = p.matcher(ByteStrings.bytes(s));
            List<List<Object>> rows = new ArrayList<>();
            if (horizontal) {
                for (int g = 0; g < groups; g++) {
                    rows.add(new ArrayList<>());
                }
            }
            int at = 0;
            while (at < s.length() && m.find(at)) {
                List<Object> match = new ArrayList<>();
                for (int g = 1; g <= groups; g++) {
                    match.add(slice(s, m.start(g), m.end(g)));
                }
                if (horizontal) {
                    for (int g = 0; g < groups; g++) {
                        rows.get(g).add(match.get(g));
                    }
                } else {
                    rows.add(Collections.unmodifiableList(match));
                }
                at = m.end() > m.start() ? m.end() : m.end() + 1;
            }
            List<Object> out = new ArrayList<>();
            for (List<Object> row : rows) {
                out.add(Collections.unmodifiableList(row));
            }
            return Collections.unmodifiableList(out);
        });
    }
}
