package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * The UTF-8-aware string functions (lowerUTF8, upperUTF8, reverseUTF8, substringUTF8): they read a String
 * value's bytes as UTF-8 code points, where a byte that does not start a well-formed sequence counts as one code
 * point of its own and is kept as it is, so invalid UTF-8 passes through unchanged, as in ClickHouse.
 */
final class Utf8Functions {
    private Utf8Functions() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "lowerUTF8": case "upperUTF8": case "reverseUTF8": case "substringUTF8":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        int min = name.equals("substringUTF8") ? 2 : 1;
        if (args.size() < min || args.size() > (min == 2 ? 3 : 1)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function "
                + name + " doesn't match: passed " + args.size() + ", should be " + (min == 2 ? "2 or 3" : "1"));
        }
        DataType t = args.get(0).type();
        if (!Functions.isString(t) && !(t.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name()
                + " of argument 1 of function " + name + ", expected String");
        }
        switch (name) {
            case "lowerUTF8": return Functions.strict(DataTypes.STRING, args, v -> changeCase((String) v[0], false));
            case "upperUTF8": return Functions.strict(DataTypes.STRING, args, v -> changeCase((String) v[0], true));
            case "reverseUTF8": return Functions.strict(DataTypes.STRING, args, v -> reverse((String) v[0]));
            default:
                for (int i = 1; i < args.size(); i++) {
                    if (!TypeRules.isInteger(args.get(i).type()) && !(args.get(i).type().unwrap() instanceof NothingType)) {
                        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type "
                            + args.get(i).type().name() + " of argument " + (i + 1) + " of function " + name
                            + ", expected an integer");
                    }
                }
                return Functions.strict(DataTypes.STRING, args, v -> substring((String) v[0],
                    Values.toLong(Values.toNumber(v[1], args.get(1).type())),
                    v.length > 2 ? Values.toLong(Values.toNumber(v[2], args.get(2).type())) : Long.MAX_VALUE));
        }
    }

    /** The length in bytes of the code point at {@code i}: a well-formed sequence, or one stray byte. */
    private static int unit(String s, int i) {
        return Math.max(1, ByteStrings.utf8SequenceLength(s, i));
    }

    static String changeCase(String s, boolean upper) {
        if (ByteStrings.isAscii(s)) {
            return StringFunctions.asciiCase(s, upper);
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int k = ByteStrings.utf8SequenceLength(s, i);
            if (k == 0) {
                sb.append(s.charAt(i++));
                continue;
            }
            String cp = ByteStrings.toText(s.substring(i, i + k));
            String mapped = upper ? cp.toUpperCase(java.util.Locale.ROOT) : cp.toLowerCase(java.util.Locale.ROOT);
            // a mapping to several code points (German sharp s upper-cased) leaves the code point as it was
            boolean single = mapped.codePointCount(0, mapped.length()) == 1;
            sb.append(single ? ByteStrings.fromText(mapped) : s.substring(i, i + k));
            i += k;
        }
        return sb.toString();
    }

    static String reverse(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        int end = s.length();
        int[] starts = new int[end];
        int n = 0;
        for (int i = 0; i < end; i += unit(s, i)) {
            starts[n++] = i;
        }
        for (int j = n - 1; j >= 0; j--) {
            int from = starts[j];
            int to = j + 1 < n ? starts[j + 1] : end;
            sb.append(s, from, to);
        }
        return sb.toString();
    }

    /** ClickHouse's substringUTF8: 1-based code point offsets, negative offsets from the end. */
    static String substring(String s, long offset, long length) {
        int[] starts = new int[s.length() + 1];
        int n = 0;
        for (int i = 0; i < s.length(); i += unit(s, i)) {
            starts[n++] = i;
        }
        starts[n] = s.length();
        int[] r = StringFunctions.substringBounds(n, offset, length);
        return r[1] <= r[0] ? "" : s.substring(starts[r[0]], starts[r[1]]);
    }
}
