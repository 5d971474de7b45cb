package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The String Replacement functions format (ClickHouse's formatString: {} or {n} placeholders, {{ and }} for braces),
 * overlay and overlayUTF8 (part of a string replaced from an offset), translate and translateUTF8 (characters mapped
 * one to one, or deleted), and regexpQuoteMeta (the bytes re2 would read as operators escaped).
 */
final class FunctionsStringReplacement {
    static final String CATEGORY = "String Replacement";

    private FunctionsStringReplacement() {
    }

    static void register(FunctionFactory f) {
        f.register("format", CATEGORY, (args, ctx) -> format(args));
        f.registerCaseInsensitive("overlay", CATEGORY, (args, ctx) -> overlay("overlay", args, false));
        f.register("overlayUTF8", CATEGORY, (args, ctx) -> overlay("overlayUTF8", args, true));
        f.register("translate", CATEGORY, (args, ctx) -> translate("translate", args, false));
        f.register("translateUTF8", CATEGORY, (args, ctx) -> translate("translateUTF8", args, true));
        f.register("regexpQuoteMeta", CATEGORY, (args, ctx) -> regexpQuoteMeta(args));
    }

    /** format(pattern, arg, ...): the pattern (a constant) with each placeholder replaced by its argument's text. */
    private static Evaluator format(List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function format doesn't match: passed "
                + args.size() + ", should be at least 2");
        }
        Object pattern = StringArguments.constant("format", args, 0);
        if (!(pattern instanceof String)) {
            throw new ChException(ErrorCode.BAD_GET, "Bad get: requested String");
        }
        List<Object> pieces = parseFormat((String) pattern, args.size() - 1);
        List<DataType> types = new ArrayList<>();
        args.forEach(a -> types.add(TypeRules.stripNullable(a.type())));
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            StringBuilder sb = new StringBuilder();
            for (Object p : pieces) {
                if (p instanceof String) {
                    sb.append((String) p);
                } else {
                    int i = (Integer) p + 1;
                    sb.append(v[i] instanceof String ? (String) v[i] : Values.text(v[i], types.get(i)));
                }
            }
            return sb.toString();
        });
    }

    /** The pattern as literal byte strings and argument indexes (0-based), BAD_ARGUMENTS for a malformed one. */
    private static List<Object> parseFormat(String pattern, int arguments) {
        List<Object> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        Boolean automatic = null;
        int next = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '{' && i + 1 < pattern.length() && pattern.charAt(i + 1) == '{' || c == '}' && i + 1 < pattern.length() && pattern.charAt(i + 1) == '}') {
                lit.append(c);
                i++;
            } else if (c == '}') {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Closed curly brace without open one at position " + i);
            } else if (c == '{') {
                int close = pattern.indexOf('}', i);
                if (close < 0) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Last open curly brace is not closed");
                }
                String inside = pattern.substring(i + 1, close);
                int index;
                if (inside.isEmpty()) {
                    if (Boolean.FALSE.equals(automatic)) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot switch from manual field specification to automatic field numbering");
                    }
                    automatic = true;
                    index = next++;
                } else {
                    if (!inside.chars().allMatch(Character::isDigit)) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Not a number in curly braces at position " + (i + 1));
                    }
                    if (Boolean.TRUE.equals(automatic)) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot switch from automatic field numbering to manual field specification");
                    }
                    automatic = false;
                    index = inside.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(inside);
                    if (index >= arguments) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Too big number for arguments, must be at most " + (arguments - 1));
                    }
                }
                if (index >= arguments) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Not enough arguments to fill the placeholders in the format string");
                }
                if (lit.length() > 0) {
                    out.add(lit.toString());
                    lit.setLength(0);
                }
                out.add(index);
                i = close;
            } else {
                lit.append(c);
            }
        }
        if (lit.length() > 0) {
            out.add(lit.toString());
        }
        return out;
    }

    /**
     * overlay(s, replace, offset[, length]): s with its {@code length} units (the replacement's, when absent or
     * negative) from the 1-based offset (from the end when negative, past the end when 0) replaced.
     */
    private static Evaluator overlay(String name, List<Evaluator> args, boolean utf8) {
        Functions.argumentCount(name, args, 3, 1);
        String[] names = {"s", "replace", "offset", "length"};
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            boolean ok = i < 2 ? t instanceof StringType && ((StringType) t).fixedLength == 0
                : t instanceof dev.chdedup.stub.types.IntType it && it.bits <= 64;
            if (!ok && !StringArguments.isNull(t)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], name, i < 2 ? "String" : "(U)Int8/16/32/64",
                    args.get(i).type());
            }
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            String replace = (String) v[1];
            long offset = StringArguments.toLong(v[2], args.get(2).type());
            long length = v.length > 3 ? StringArguments.toLong(v[3], args.get(3).type()) : -1;
            int[] starts = utf8 ? codePointStarts(s) : null;
            long n = utf8 ? starts.length - 1 : s.length();
            long prefix = offset > 0 ? Math.min(offset - 1, n) : offset == 0 ? n : Math.max(0, n + offset);
            long replaced = length < 0 ? (utf8 ? ByteStrings.codePoints(replace) : replace.length()) : length;
            long suffix = Math.min(n, prefix + replaced);
            if (!utf8) {
                return s.substring(0, (int) prefix) + replace + s.substring((int) suffix);
            }
            return s.substring(0, starts[(int) prefix]) + replace + s.substring(starts[(int) suffix]);
        });
    }

    /** The byte offsets where the code points of {@code s} start, and its length last. */
    private static int[] codePointStarts(String s) {
        int[] starts = new int[s.length() + 1];
        int n = 0;
        for (int i = 0; i < s.length(); i += Math.max(1, ByteStrings.utf8SequenceLength(s, i))) {
            starts[n++] = i;
        }
        starts[n++] = s.length();
        return java.util.Arrays.copyOf(starts, n);
    }

    /**
     * translate(s, from, to): each character of {@code from} in s replaced by the one at its position in {@code to},
     * or deleted when {@code to} is shorter (a later position winning); from and to are constants, ASCII for the
     * byte form, and to no longer than from.
     */
    private static Evaluator translate(String name, List<Evaluator> args, boolean utf8) {
        Functions.arity(name, args, 3);
        for (int i = 0; i < 3; i++) {
            StringArguments.string(name, args, i);
        }
        if (utf8 && args.get(0).type().unwrap() instanceof StringType st && st.fixedLength > 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function translateUTF8 does not support FixedString argument");
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        String from = (String) StringArguments.constant(name, args, 1);
        String to = (String) StringArguments.constant(name, args, 2);
        if (!utf8 && (!ByteStrings.isAscii(from) || !ByteStrings.isAscii(to))) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second and third arguments must be ASCII strings");
        }
        int[] f = ByteStrings.toText(from).codePoints().toArray();
        int[] t = ByteStrings.toText(to).codePoints().toArray();
        if (f.length < t.length) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second argument of function " + name + " must not be shorter than the third argument."
                + " Size of the second argument: " + f.length + ", size of the third argument: " + t.length);
        }
        Map<Integer, String> map = new HashMap<>();
        for (int i = 0; i < f.length; i++) {
            map.put(f[i], i < t.length ? ByteStrings.fromText(new String(Character.toChars(t[i]))) : "");
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            StringBuilder sb = new StringBuilder(s.length());
            for (int i = 0; i < s.length(); ) {
                int k = utf8 ? Math.max(1, ByteStrings.utf8SequenceLength(s, i)) : 1;
                String unit = s.substring(i, i + k);
                int cp = k == 1 ? unit.charAt(0) : ByteStrings.toText(unit).codePointAt(0);
                String mapped = k == 1 && cp >= 0x80 ? null : map.get(cp);
                sb.append(mapped != null ? mapped : unit);
                i += k;
            }
            return sb.toString();
        });
    }

    /** regexpQuoteMeta(s): s with a backslash before each byte re2 reads as an operator (and before a zero byte). */
    private static Evaluator regexpQuoteMeta(List<Evaluator> args) {
        Functions.arity("regexpQuoteMeta", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of 1 argument of function regexpQuoteMeta. Must be String");
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            StringBuilder sb = new StringBuilder(s.length() + 8);
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if ("\0\\|()^$.[]?*+{:-".indexOf(c) >= 0) {
                    sb.append('\\');
                }
                sb.append(c);
            }
            return sb.toString();
        });
    }
}
