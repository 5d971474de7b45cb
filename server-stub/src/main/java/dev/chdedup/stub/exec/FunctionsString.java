package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * String functions of ClickHouse's category String that work on bytes: concatWithSeparator, ascii, space, firstLine,
 * initcap, isValidASCII, soundex, substringIndex, compareSubstrings, appendTrailingCharIfAbsent, basename,
 * stringBytesUniq and stringBytesEntropy. Values are byte strings ({@link ByteStrings}); a function of a NULL is NULL.
 */
final class FunctionsString {
    static final String CATEGORY = "String";

    private FunctionsString() {
    }

    static void register(FunctionFactory f) {
        f.register("concatWithSeparator", CATEGORY, (args, ctx) -> concatWithSeparator("concatWithSeparator", args));
        f.register("concatWithSeparatorAssumeInjective", CATEGORY, (args, ctx) -> concatWithSeparator("concatWithSeparatorAssumeInjective", args));
        f.registerAlias("concat_ws", "concatWithSeparator", true);
        f.registerCaseInsensitive("ascii", CATEGORY, (args, ctx) -> ascii(args));
        f.registerCaseInsensitive("space", CATEGORY, (args, ctx) -> space(args));
        f.register("firstLine", CATEGORY, (args, ctx) -> stringToString("firstLine", args, false, FunctionsString::firstLine));
        f.registerCaseInsensitive("initcap", CATEGORY, (args, ctx) -> stringToString("initcap", args, true, FunctionsString::initcap));
        f.register("isValidASCII", CATEGORY, (args, ctx) -> predicate("isValidASCII", args, s -> ByteStrings.isAscii(s)));
        f.registerAlias("isASCII", "isValidASCII", false);
        f.registerCaseInsensitive("soundex", CATEGORY, (args, ctx) -> stringToString("soundex", args, true, FunctionsString::soundex));
        f.register("substringIndex", CATEGORY, (args, ctx) -> substringIndex("substringIndex", args, false));
        f.registerAlias("SUBSTRING_INDEX", "substringIndex", true);
        f.register("substringIndexUTF8", CATEGORY, (args, ctx) -> substringIndex("substringIndexUTF8", args, true));
        f.register("compareSubstrings", CATEGORY, (args, ctx) -> compareSubstrings(args));
        f.register("appendTrailingCharIfAbsent", CATEGORY, (args, ctx) -> appendTrailingCharIfAbsent(args));
        f.register("basename", CATEGORY, (args, ctx) -> stringToString("basename", args, true, FunctionsString::basename));
        f.register("stringBytesUniq", CATEGORY, (args, ctx) -> stringBytes("stringBytesUniq", args, false));
        f.register("stringBytesEntropy", CATEGORY, (args, ctx) -> stringBytes("stringBytesEntropy", args, true));
    }

    /** A String-to-String function of one argument; {@code fixed}: a FixedString argument is taken too. */
    static Evaluator stringToString(String name, List<Evaluator> args, boolean fixed, java.util.function.UnaryOperator<String> fn) {
        Functions.arity(name, args, 1);
        if (fixed) {
            StringArguments.string(name, args, 0);
        } else {
            if (args.get(0).type().unwrap() instanceof StringType st && st.fixedLength > 0) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Column of type FixedString is not supported by this function");
            }
            StringArguments.plainString(name, args, 0);
        }
        return Functions.strict(DataTypes.STRING, args, v -> fn.apply((String) v[0]));
    }

    /** A UInt8 test of one String or FixedString. */
    static Evaluator predicate(String name, List<Evaluator> args, java.util.function.Predicate<String> test) {
        Functions.arity(name, args, 1);
        StringArguments.string(name, args, 0);
        return Functions.strict(DataTypes.UINT8, args, v -> test.test((String) v[0]) ? 1L : 0L);
    }

    /**
     * concatWithSeparator(sep, s1, ...): the arguments' texts joined by the constant {@code sep}; NULL where one is
     * NULL, Nullable(Nothing) for a literal NULL.
     */
    private static Evaluator concatWithSeparator(String name, List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed 0, should be at least 1");
        }
        DataType sepType = args.get(0).type();
        if (!Functions.isString(sepType) && !StringArguments.isNull(sepType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + sepType.name() + " of first argument of function " + name);
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        if (!args.get(0).constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + sepType.name() + " of first argument of function " + name
                + ". Must be a constant String");
        }
        List<DataType> types = new ArrayList<>();
        args.forEach(a -> types.add(TypeRules.stripNullable(a.type())));
        return Functions.strict(DataTypes.STRING, args, v -> {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i < v.length; i++) {
                if (i > 1) {
                    sb.append((String) v[0]);
                }
                sb.append(v[i] instanceof String ? (String) v[i] : Values.text(v[i], types.get(i)));
            }
            return sb.toString();
        });
    }

    /** ascii(s): the first byte's value (0 for an empty string), an Int32. */
    private static Evaluator ascii(List<Evaluator> args) {
        Functions.arity("ascii", args, 1);
        DataType t = args.get(0).type();
        if (!Functions.isString(t) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function ascii");
        }
        return Functions.strict(DataTypes.INT32, args, v -> {
            String s = (String) v[0];
            return s.isEmpty() ? 0L : (long) (s.charAt(0) & 0xFF);
        });
    }

    /** space(n): n spaces, none for n <= 0. */
    private static Evaluator space(List<Evaluator> args) {
        Functions.argumentCount("space", args, 1, 0);
        DataType t = args.get(0).type();
        if (!TypeRules.isInteger(t) && !StringArguments.isNull(t)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "n", "space", "Integer", t);
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            long n = StringArguments.toLong(v[0], t);
            if (n > 1L << 30) {
                throw new ChException(ErrorCode.TOO_LARGE_STRING_SIZE, "Too large string size in function space");
            }
            return n <= 0 ? "" : " ".repeat((int) n);
        });
    }

    /** The bytes before the first line feed or carriage return. */
    static String firstLine(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\n' || s.charAt(i) == '\r') {
                return s.substring(0, i);
            }
        }
        return s;
    }

    private static boolean isAlphaNumeric(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** Each ASCII letter upper-cased after a byte that is not an ASCII letter or digit, lower-cased after one. */
    static String initcap(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean prevAlphaNumeric = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean an = isAlphaNumeric(c);
            sb.append(StringFunctions.asciiCase(String.valueOf(c), an && !prevAlphaNumeric));
            prevAlphaNumeric = an;
        }
        return sb.toString();
    }

    /** The American Soundex code of the ASCII letters of {@code s}: a letter and three digits, 0000 without a letter. */
    static String soundex(String s) {
        final String codes = "01230120022455012623010202";
        StringBuilder sb = new StringBuilder(4);
        int i = 0;
        while (i < s.length() && !Character.isLetter(s.charAt(i)) | s.charAt(i) > 0x7F) {
            i++;
        }
        if (i == s.length()) {
            return "0000";
        }
        char first = Character.toUpperCase(s.charAt(i));
        sb.append(first);
        char last = codes.charAt(first - 'A');
        for (i++; i < s.length() && sb.length() < 4; i++) {
            char c = s.charAt(i);
            if (c > 0x7F || !Character.isLetter(c)) {
                continue;
            }
            char code = codes.charAt(Character.toUpperCase(c) - 'A');
            if (code != '0' && code != last) {
                sb.append(code);
            }
            // a letter of no code (a vowel, H, W, Y) separates two letters of one code
            last = code;
        }
        while (sb.length() < 4) {
            sb.append('0');
        }
        return sb.toString();
    }

    /**
     * substringIndex(s, delim, count): the part of s before its count-th delimiter (count > 0), after its count-th
     * from the end (count < 0), or nothing (count = 0); delim one byte, or one code point for the UTF-8 form, and
     * constant as count is.
     */
    private static Evaluator substringIndex(String name, List<Evaluator> args, boolean utf8) {
        Functions.arity(name, args, 3);
        StringArguments.string(name, args, 0);
        StringArguments.string(name, args, 1);
        DataType countType = args.get(2).type();
        if (!TypeRules.isInteger(countType) && !StringArguments.isNull(countType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 3, "count", name, "UInt or Int", countType);
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        String delim = (String) StringArguments.constant(name, args, 1);
        if (delim != null && (utf8 ? delim.isEmpty() || ByteStrings.utf8SequenceLength(delim, 0) != delim.length() : delim.length() != 1)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second argument to " + name + " must be a single " + (utf8 ? "UTF-8 character" : "character"));
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            String d = (String) v[1];
            long count = StringArguments.toLong(v[2], countType);
            if (count == 0) {
                return "";
            }
            if (count > 0) {
                int at = -d.length();
                for (long k = 0; k < count; k++) {
                    at = s.indexOf(d, at + d.length());
                    if (at < 0) {
                        return s;
                    }
                }
                return s.substring(0, at);
            }
            int at = s.length();
            for (long k = 0; k < -count; k++) {
                at = at == 0 ? -1 : s.lastIndexOf(d, at - 1);
                if (at < 0) {
                    return s;
                }
            }
            return s.substring(at + d.length());
        });
    }

    /**
     * compareSubstrings(s1, s2, offset1, offset2, n): the sign of the byte comparison of s1's and s2's n bytes from
     * those 0-based offsets (a substring cut short by its string's end is shorter), an Int8.
     */
    private static Evaluator compareSubstrings(List<Evaluator> args) {
        Functions.argumentCount("compareSubstrings", args, 5, 0);
        String[] names = {"string1", "string2", "string1_offset", "string2_offset", "num_bytes"};
        for (int i = 0; i < 5; i++) {
            DataType t = args.get(i).type().unwrap();
            boolean ok = i < 2 ? t instanceof StringType : t instanceof dev.chdedup.stub.types.IntType it && !it.signed;
            if (!ok && !(t instanceof dev.chdedup.stub.types.NothingType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], "compareSubstrings",
                    i < 2 ? "String or FixedString" : "const UInt*", args.get(i).type());
            }
        }
        return Functions.strict(DataTypes.INT8, args, v -> {
            byte[] a = Functions.bytes(v[0]);
            byte[] b = Functions.bytes(v[1]);
            long oa = (Long) v[2];
            long ob = (Long) v[3];
            long n = (Long) v[4];
            int fa = (int) Math.min(a.length, Long.compareUnsigned(oa, a.length) > 0 ? a.length : oa);
            int fb = (int) Math.min(b.length, Long.compareUnsigned(ob, b.length) > 0 ? b.length : ob);
            int na = (int) Math.min(a.length - fa, Long.compareUnsigned(n, a.length) > 0 ? a.length : n);
            int nb = (int) Math.min(b.length - fb, Long.compareUnsigned(n, b.length) > 0 ? b.length : n);
            return (long) Integer.signum(ByteStrings.compare(a, fa, na, b, fb, nb));
        });
    }

    /** appendTrailingCharIfAbsent(s, c): s with the one-byte constant c at its end, unless s is empty or ends with it. */
    private static Evaluator appendTrailingCharIfAbsent(List<Evaluator> args) {
        Functions.arity("appendTrailingCharIfAbsent", args, 2);
        StringArguments.plainString("appendTrailingCharIfAbsent", args, 0);
        StringArguments.plainString("appendTrailingCharIfAbsent", args, 1);
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        String c = (String) StringArguments.constant("appendTrailingCharIfAbsent", args, 1);
        if (c != null && c.length() != 1) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second argument of function appendTrailingCharIfAbsent must be a one-character string");
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            return s.isEmpty() || s.endsWith((String) v[1]) ? s : s + v[1];
        });
    }

    /** The part of a path after its last slash or backslash. */
    static String basename(String s) {
        int i = Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\'));
        return s.substring(i + 1);
    }

    /** stringBytesUniq (the number of distinct bytes, a UInt16) and stringBytesEntropy (Shannon's, in bits, a Float64). */
    private static Evaluator stringBytes(String name, List<Evaluator> args, boolean entropy) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type();
        if (!Functions.isString(t) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        return Functions.strict(entropy ? DataTypes.FLOAT64 : DataTypes.UINT16, args, v -> {
            String s = (String) v[0];
            int[] counts = new int[256];
            for (int i = 0; i < s.length(); i++) {
                counts[s.charAt(i) & 0xFF]++;
            }
            if (!entropy) {
                long n = 0;
                for (int c : counts) {
                    n += c > 0 ? 1 : 0;
                }
                return n;
            }
            double h = 0;
            for (int c : counts) {
                if (c > 0) {
                    double p = (double) c / s.length();
                    h -= p * (Math.log(p) / Math.log(2));
                }
            }
            return h;
        });
    }
}
