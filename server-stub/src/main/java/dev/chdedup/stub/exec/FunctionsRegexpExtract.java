package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;

/**
 * regexpExtract and regexpPosition (ClickHouse's regexpExtract and regexpPosition, of category String): the text of a
 * capture group of the first match, and the 1-based byte position where an occurrence of a match (or of one of its
 * groups) starts or ends, 0 when there is none. Patterns are constants, matched as {@link RegexpFunctions} matches them.
 */
final class FunctionsRegexpExtract {
    private FunctionsRegexpExtract() {
    }

    static void register(FunctionFactory f) {
        f.register("regexpExtract", FunctionsString.CATEGORY, (args, ctx) -> extract(args));
        f.registerAlias("REGEXP_EXTRACT", "regexpExtract", true);
        f.registerAlias("REGEXP_SUBSTR", "regexpExtract", true);
        f.register("regexpPosition", FunctionsString.CATEGORY, (args, ctx) -> position(args));
        f.registerAlias("regexpInstr", "regexpPosition", true);
        f.registerAlias("regexp_instr", "regexpPosition", true);
    }

    private static void stringArgument(String fn, List<Evaluator> args, int i, String name) {
        DataType t = args.get(i).type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !StringArguments.isNull(t)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, name, fn, "String", args.get(i).type());
        }
    }

    private static void integerArgument(String fn, List<Evaluator> args, int i, String name) {
        DataType t = args.get(i).type();
        if (!TypeRules.isInteger(t) && !StringArguments.isNull(t)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, name, fn, "Integer", t);
        }
    }

    private static String constPattern(String fn, List<Evaluator> args, int i) {
        if (!args.get(i).constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, i + 1, "pattern", fn, "const String", args.get(i).type());
        }
        Object v = args.get(i).eval(new Object[0]);
        return v == null ? null : (String) v;
    }

    /** regexpExtract(haystack, pattern[, index]): group {@code index} (1, or 0 without groups, by default) of the first match. */
    private static Evaluator extract(List<Evaluator> args) {
        Functions.argumentCount("regexpExtract", args, 2, 1);
        stringArgument("regexpExtract", args, 0, "haystack");
        stringArgument("regexpExtract", args, 1, "pattern");
        if (args.size() == 3) {
            integerArgument("regexpExtract", args, 2, "index");
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        String source = constPattern("regexpExtract", args, 1);
        RegexpFunctions.PatternCache patterns = new RegexpFunctions.PatternCache();
        int groups = patterns.get(source).matcher("").groupCount();
        return Functions.strict(DataTypes.STRING, args, v -> {
            long index = v.length > 2 ? StringArguments.toLong(v[2], args.get(2).type()) : Math.min(1, groups);
            if (index < 0 || index > groups) {
                throw new ChException(ErrorCode.INDEX_OF_POSITIONAL_ARGUMENT_IS_OUT_OF_RANGE, "Index value " + index + " for regexp pattern `"
                    + ByteStrings.toText(source) + "` in function regexpExtract is out-of-range, should be in [0, " + (groups + 1) + ")");
            }
            Matcher m = patterns.get(source).matcher(ByteStrings.toText((String) v[0]));
            if (!m.find() || m.group((int) index) == null) {
                return "";
            }
            return ByteStrings.fromText(m.group((int) index));
        });
    }

    /**
     * regexpPosition(haystack, pattern[, position[, occurrence[, return_option[, flags[, subexpression]]]]]): searching
     * from byte {@code position}, the start (return_option 0) or the byte after the end (1) of the occurrence-th match,
     * or of its group {@code subexpression}; the search ends at an empty match and at the haystack's end. Flags: i (ignore case), c (respect
     * case), m (multi-line), n and s (a dot matches a new line).
     */
    private static Evaluator position(List<Evaluator> args) {
        String fn = "regexpPosition";
        Functions.argumentCount(fn, args, 2, 5);
        stringArgument(fn, args, 0, "haystack");
        stringArgument(fn, args, 1, "pattern");
        String[] names = {"position", "occurrence", "return_option", "flags", "subexpression"};
        for (int i = 2; i < args.size(); i++) {
            if (i == 5) {
                stringArgument(fn, args, i, names[i - 2]);
            } else {
                integerArgument(fn, args, i, names[i - 2]);
            }
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        String pattern = constPattern(fn, args, 1);
        RegexpFunctions.PatternCache patterns = new RegexpFunctions.PatternCache();
        return Functions.strict(DataTypes.UINT64, args, v -> {
            long from = v.length > 2 ? StringArguments.toLong(v[2], args.get(2).type()) : 1;
            long occurrence = v.length > 3 ? StringArguments.toLong(v[3], args.get(3).type()) : 1;
            long returnOption = v.length > 4 ? StringArguments.toLong(v[4], args.get(4).type()) : 0;
            if (from < 1) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'position' for function regexpPosition must be >= 1, got " + from);
            }
            if (occurrence < 1) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'occurrence' for function regexpPosition must be >= 1, got " + occurrence);
            }
            if (returnOption != 0 && returnOption != 1) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument 'return_option' for function regexpPosition must be 0 or 1, got " + returnOption);
            }
            String source = flagged(pattern, v.length > 5 ? (String) v[5] : "");
            Matcher m = patterns.get(source).matcher("");
            long group = v.length > 6 ? StringArguments.toLong(v[6], args.get(6).type()) : 0;
            if (group < 0 || group > m.groupCount()) {
                throw new ChException(ErrorCode.INDEX_OF_POSITIONAL_ARGUMENT_IS_OUT_OF_RANGE, "Argument 'subexpression' value " + group
                    + " for regexp pattern `" + ByteStrings.toText(pattern) + "` in function regexpPosition is out-of-range, should be in [0, "
                    + m.groupCount() + "]");
            }
            byte[] bytes = Functions.bytes(v[0]);
            if (from > bytes.length + 1) {
                return 0L;
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            int start = new String(bytes, 0, (int) from - 1, StandardCharsets.UTF_8).length();
            m = patterns.get(source).matcher(text);
            int searchFrom = start;
            for (long k = 1; searchFrom <= text.length() && m.find(searchFrom); k++) {
                if (k == occurrence) {
                    if (m.group((int) group) == null) {
                        return 0L;
                    }
                    int at = returnOption == 0 ? m.start((int) group) : m.end((int) group);
                    return (long) text.substring(0, at).getBytes(StandardCharsets.UTF_8).length + 1;
                }
                if (m.end() == m.start() || m.end() >= text.length()) {
                    return 0L;
                }
                searchFrom = m.end();
            }
            return 0L;
        });
    }

    /** The pattern with the flags as inline options: i, c (undoing i), m, and n or s. */
    private static String flagged(String pattern, String flags) {
        boolean ignoreCase = false;
        boolean multiLine = false;
        boolean dotAll = false;
        for (char c : flags.toCharArray()) {
            switch (c) {
                case 'i': ignoreCase = true; break;
                case 'c': ignoreCase = false; break;
                case 'm': multiLine = true; break;
                case 'n': case 's': dotAll = true; break;
                default:
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown regex flag '" + c
                        + "' for function regexpPosition. Supported flags are 'i', 'c', 'm', 'n', 's'");
            }
        }
        String options = (ignoreCase ? "i" : "") + (multiLine ? "m" : "") + (dotAll ? "s" : "");
        return options.isEmpty() ? pattern : "(?" + options + ")" + pattern;
    }
}
