package dev.chdedup.stub.exec;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The String Splitting functions (ClickHouse's FunctionsStringArray and FunctionTokens): splitByChar, splitByString,
 * splitByRegexp, arrayStringConcat,
 * splitByWhitespace, splitByNonAlpha, alphaTokens, ngrams and reverseBySeparator; the tokenizers of the text index
 * (tokens, tokensForLikePattern) are in {@link Tokenizers}. As ClickHouse's token functions, an array result is never
 * Nullable: a NULL of a Nullable argument is split as the empty string. The optional max_substrings argument keeps the
 * first N pieces when N is positive.
 */
final class FunctionsStringSplitting {
    static final String CATEGORY = "String Splitting";

    private FunctionsStringSplitting() {
    }

    static void register(FunctionFactory f) {
        f.register("splitByString", CATEGORY, (args, ctx) -> splitBySeparator("splitByString", args, false));
        f.register("splitByChar", CATEGORY, (args, ctx) -> splitByChar(args));
        f.register("arrayStringConcat", CATEGORY, (args, ctx) -> arrayStringConcat(args));
        f.registerAlias("array_to_string", "arrayStringConcat", true);
        f.register("splitByRegexp", CATEGORY, (args, ctx) -> splitBySeparator("splitByRegexp", args, true));
        f.register("splitByWhitespace", CATEGORY, (args, ctx) -> splitBy("splitByWhitespace", args, FunctionsStringSplitting::whitespace));
        f.register("splitByNonAlpha", CATEGORY, (args, ctx) -> splitBy("splitByNonAlpha", args, FunctionsStringSplitting::nonAlphaSeparator));
        f.register("alphaTokens", CATEGORY, (args, ctx) -> splitBy("alphaTokens", args, c -> !URLParts.isAlpha(c)));
        f.registerAlias("splitByAlpha", "alphaTokens", false);
        f.register("ngrams", CATEGORY, (args, ctx) -> ngrams(args));
        f.register("reverseBySeparator", CATEGORY, (args, ctx) -> reverseBySeparator(args));
        f.register("naiveBayesNgrams", CATEGORY, (args, ctx) -> naiveBayesNgrams(args));
    }

    static boolean whitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** splitByNonAlpha's separators: the ASCII bytes that are not letters or digits. */
    static boolean nonAlphaSeparator(char c) {
        return c < 0x80 && !URLParts.isAlphaNumeric(c);
    }

    /** A separator predicate over bytes. */
    interface ByteClass {
        boolean test(char c);
    }

    /**
     * An Array(String) function: Nullable(Nothing) for the literal NULL, else Array(String) whatever the arguments'
     * nullability, a NULL argument being its type's default.
     */
    static Evaluator arrayOfStrings(List<Evaluator> args, Function<Object[], List<Object>> fn) {
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        int n = args.size();
        return Evaluator.of(DataTypes.array(DataTypes.STRING), r -> {
            Object[] v = new Object[n];
            for (int i = 0; i < n; i++) {
                Object x = args.get(i).eval(r);
                v[i] = x != null ? x : TypeRules.stripNullable(args.get(i).type()).defaultValue();
            }
            return Collections.unmodifiableList(fn.apply(v));
        });
    }

    private static ChException illegal(ErrorCode code, int position, String argument, String name, String expected, Evaluator a) {
        return Functions.illegalArgument(code, position, argument, name, expected, a.type());
    }

    /** The string to split: a String (not FixedString), else ILLEGAL_TYPE_OF_ARGUMENT. */
    private static void checkSplitString(String name, List<Evaluator> args, int index) {
        DataType t = args.get(index).type().unwrap();
        if (!(t instanceof NothingType) && !(t instanceof StringType st && st.fixedLength == 0)) {
            throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, index + 1, "s", name, "String", args.get(index));
        }
    }

    /** The optional max_substrings argument (an integer; 0 or less: all), at {@code index}. */
    private static int maxSubstrings(String name, List<Evaluator> args, int index) {
        if (args.size() <= index) {
            return 0;
        }
        Evaluator a = args.get(index);
        if (!(a.type().unwrap() instanceof IntType)) {
            throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, index + 1, "max_substrings", name, "const Number", a);
        }
        if (!a.constant()) {
            throw illegal(ErrorCode.ILLEGAL_COLUMN, index + 1, "max_substrings", name, "const Number", a);
        }
        long n = Functions.constLong(a);
        return n <= 0 ? 0 : (int) Math.min(n, Integer.MAX_VALUE);
    }

    private static List<Object> limit(List<Object> pieces, int max) {
        return max > 0 && pieces.size() > max ? new ArrayList<>(pieces.subList(0, max)) : pieces;
    }

    /** splitByString(separator, s[, max]) and splitByRegexp(regexp, s[, max]): an empty separator splits into bytes. */
    private static Evaluator splitBySeparator(String name, List<Evaluator> args, boolean regexp) {
        Functions.argumentCount(name, args, 2, 1);
        Evaluator sep = args.get(0);
        String expected = regexp ? "const String or const FixedString" : "const String";
        if (!(sep.type().unwrap() instanceof StringType)) {
            throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, regexp ? "regexp" : "separator", name, expected, sep);
        }
        if (!sep.constant()) {
            throw illegal(ErrorCode.ILLEGAL_COLUMN, 1, regexp ? "regexp" : "separator", name, expected, sep);
        }
        checkSplitString(name, args, 1);
        int max = maxSubstrings(name, args, 2);
        Object sv = sep.eval(new Object[0]);
        String separator = sv == null ? "" : (String) sv;
        Pattern pattern = regexp && !separator.isEmpty() ? FunctionsStringSearchRegexp.compile(separator, false) : null;
        return arrayOfStrings(args.subList(1, 2), v -> {
            String s = (String) v[0];
            List<Object> out = separator.isEmpty() ? bytes(s) : pattern != null ? splitByRegexp(s, pattern) : splitByString(s, separator);
            return limit(out, max);
        });
    }

    /** splitByChar(separator, s[, max]): the separator a constant of exactly one byte, else BAD_ARGUMENTS. */
    private static Evaluator splitByChar(List<Evaluator> args) {
        String name = "splitByChar";
        Functions.argumentCount(name, args, 2, 1);
        Evaluator sep = args.get(0);
        if (!(sep.type().unwrap() instanceof StringType)) {
            throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "separator", name, "const String", sep);
        }
        if (!sep.constant()) {
            throw illegal(ErrorCode.ILLEGAL_COLUMN, 1, "separator", name, "const String", sep);
        }
        checkSplitString(name, args, 1);
        int max = maxSubstrings(name, args, 2);
        Object sv = sep.eval(new Object[0]);
        String separator = sv == null ? "" : (String) sv;
        if (separator.length() != 1) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Illegal separator for function splitByChar. Must be exactly one byte.");
        }
        return arrayOfStrings(args.subList(1, 2), v -> limit(splitByString((String) v[0], separator), max));
    }

    /** arrayStringConcat(array[, separator]): the elements as text joined by the constant separator; NULL elements left out. */
    private static Evaluator arrayStringConcat(List<Evaluator> args) {
        String name = "arrayStringConcat";
        Functions.argumentCount(name, args, 1, 1);
        Evaluator array = args.get(0);
        if (Functions.isNothing(array)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        if (!(array.type().unwrap() instanceof ArrayType at)) {
            throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "arr", name, "Array", array);
        }
        DataType element = TypeRules.stripNullable(at.element);
        Evaluator sep = args.size() == 2 ? args.get(1) : Evaluator.constant(DataTypes.STRING, "");
        if (!Functions.isNothing(sep)) {
            if (!(sep.type().unwrap() instanceof StringType st) || st.fixedLength > 0) {
                throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "separator", name, "const String", sep);
            }
            if (!sep.constant()) {
                throw illegal(ErrorCode.ILLEGAL_COLUMN, 2, "separator", name, "const String", sep);
            }
        }
        return Functions.defaultForNulls(DataTypes.STRING, List.of(array, sep), v -> {
            StringBuilder out = new StringBuilder();
            boolean first = true;
            for (Object o : (List<?>) v[0]) {
                if (o == null) {
                    continue;
                }
                if (!first) {
                    out.append((String) v[1]);
                }
                first = false;
                out.append(Values.text(o, element));
            }
            return out.toString();
        });
    }

    private static List<Object> bytes(String s) {
        List<Object> out = new ArrayList<>(s.length());
        for (int i = 0; i < s.length(); i++) {
            out.add(s.substring(i, i + 1));
        }
        return out;
    }

    private static List<Object> splitByString(String s, String separator) {
        List<Object> out = new ArrayList<>();
        int from = 0;
        int at;
        while ((at = s.indexOf(separator, from)) >= 0) {
            out.add(s.substring(from, at));
            from = at + separator.length();
        }
        out.add(s.substring(from));
        return out;
    }

    /** Pieces between the matches; at a place where the regexp matches only the empty string, the rest is one piece. */
    private static List<Object> splitByRegexp(String s, Pattern pattern) {
        List<Object> out = new ArrayList<>();
        if (s.isEmpty()) {
            out.add("");
            return out;
        }
        Matcher m = pattern.matcher(ByteStrings.bytes(s));
        int pos = 0;
        while (pos < s.length()) {
            if (!m.find(pos) || m.end() == m.start()) {
                out.add(s.substring(pos));
                break;
            }
            out.add(s.substring(pos, m.start()));
            pos = m.end();
            if (pos == s.length()) {
                out.add("");
            }
        }
        return out;
    }

    /** The runs of bytes that are not separators (splitByWhitespace, splitByNonAlpha, alphaTokens). */
    private static Evaluator splitBy(String name, List<Evaluator> args, ByteClass separator) {
        Functions.argumentCount(name, args, 1, 1);
        checkSplitString(name, args, 0);
        int max = maxSubstrings(name, args, 1);
        return arrayOfStrings(args.subList(0, 1), v -> limit(runs((String) v[0], separator), max));
    }

    static List<Object> runs(String s, ByteClass separator) {
        List<Object> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            while (i < s.length() && separator.test(s.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < s.length() && !separator.test(s.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(s.substring(start, i));
            }
        }
        return out;
    }

    /** The UTF-8 n-grams of code points of {@code s}, each as its bytes. */
    static List<Object> ngramsOf(String s, int n) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < s.length(); i++) {
            if (!StringSearcher.continuation(s.charAt(i))) {
                starts.add(i);
            }
        }
        starts.add(s.length());
        List<Object> out = new ArrayList<>();
        for (int k = 0; k + n < starts.size(); k++) {
            out.add(s.substring(starts.get(k), starts.get(k + n)));
        }
        return out;
    }

    /** ngrams(s, N): the N-grams of code points; N a constant unsigned integer of at least 1. */
    private static Evaluator ngrams(List<Evaluator> args) {
        Functions.argumentCount("ngrams", args, 2, 0);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType) && !(t instanceof NothingType)) {
            throw illegal(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "s", "ngrams", "String or FixedString", args.get(0));
        }
        int n = Tokenizers.ngramLength("ngrams", args.get(1), 2);
        return arrayOfStrings(args.subList(0, 1), v -> ngramsOf((String) v[0], n));
    }

    /** reverseBySeparator(s[, separator]): the pieces between separators ('.' by default) in reverse order; '' reverses the bytes. */
    private static Evaluator reverseBySeparator(List<Evaluator> args) {
        if (args.isEmpty() || args.size() > 2) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Number of arguments for function reverseBySeparator doesn't match: passed "
                + args.size() + ", should be 1 or 2");
        }
        Evaluator s = args.get(0);
        if (!(s.type().unwrap() instanceof StringType) && !(s.type().unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function reverseBySeparator must be String, got "
                + s.type().name());
        }
        String separator = ".";
        if (args.size() == 2) {
            Evaluator sep = args.get(1);
            if (!(sep.type().unwrap() instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function reverseBySeparator must be String, got "
                    + sep.type().name());
            }
            if (!sep.constant()) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function reverseBySeparator must be constant");
            }
            Object v = sep.eval(new Object[0]);
            separator = v == null ? "" : (String) v;
        }
        String sep = separator;
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            String text = (String) v[0];
            List<Object> pieces = sep.isEmpty() ? bytes(text) : splitByString(text, sep);
            Collections.reverse(pieces);
            StringBuilder out = new StringBuilder(text.length());
            for (int i = 0; i < pieces.size(); i++) {
                if (i > 0) {
                    out.append(sep);
                }
                out.append((String) pieces.get(i));
            }
            return out.toString();
        });
    }

    /** A constant String argument of naiveBayesNgrams (ILLEGAL_COLUMN when not constant). */
    private static String constStringArgument(String name, List<Evaluator> args, int index, String argument) {
        Evaluator a = args.get(index);
        if (!(a.type().unwrap() instanceof StringType) || !a.constant()) {
            throw illegal(a.type().unwrap() instanceof StringType ? ErrorCode.ILLEGAL_COLUMN : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, index + 1,
                argument, name, "const String", a);
        }
        Object v = a.eval(new Object[0]);
        return v == null ? "" : (String) v;
    }

    /**
     * A boundary token of naiveBayesNgrams: as it is in token mode; in byte and codepoint mode a number (decimal or 0x
     * hex) of at most 255 or 0x10FFFF, the byte or the code point's UTF-8 bytes; null when empty or absent.
     */
    private static String boundary(String text, String mode, String which) {
        if (text.isEmpty() || mode.equals("token")) {
            return text.isEmpty() ? null : text;
        }
        long max = mode.equals("byte") ? 255 : 0x10FFFF;
        long value = -1;
        try {
            value = text.startsWith("0x") || text.startsWith("0X") ? Long.parseLong(text.substring(2), 16) : Long.parseLong(text);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || value > max || text.startsWith("-") || text.startsWith("+")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "NaiveBayes: " + which + " for '" + mode + "' mode must be an integer between 0 and "
                + max + " (decimal or 0x hex), got '" + ByteStrings.toText(text) + "'");
        }
        return mode.equals("byte") ? String.valueOf((char) value) : ByteStrings.fromText(new String(Character.toChars((int) value)));
    }

    /**
     * naiveBayesNgrams(text, n, mode[, start_token[, end_token]]): the n-grams of the text's bytes, code points or
     * whitespace-separated tokens (joined by a space), padded with n - 1 start and end tokens when given.
     */
    private static Evaluator naiveBayesNgrams(List<Evaluator> args) {
        String name = "naiveBayesNgrams";
        Functions.argumentCount(name, args, 3, 2);
        checkSplitString(name, args, 0);
        Evaluator nArg = args.get(1);
        if (!(nArg.type().unwrap() instanceof IntType) || !nArg.type().unwrap().name().startsWith("UInt") || !nArg.constant()) {
            throw illegal(nArg.type().unwrap() instanceof IntType && nArg.type().unwrap().name().startsWith("UInt") ? ErrorCode.ILLEGAL_COLUMN
                : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "n", name, "const UInt", nArg);
        }
        long n = unsignedConstant(nArg);
        if (n < 1 || n > 1024) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function naiveBayesNgrams: n must be in range [1, 1024], got " + n);
        }
        String mode = constStringArgument(name, args, 2, "mode");
        if (!mode.equals("byte") && !mode.equals("codepoint") && !mode.equals("token")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "NaiveBayes: mode must be 'byte', 'codepoint', or 'token', got '"
                + ByteStrings.toText(mode) + "'");
        }
        String start = args.size() > 3 ? boundary(constStringArgument(name, args, 3, "start_token"), mode, "start_token") : null;
        String end = args.size() > 4 ? boundary(constStringArgument(name, args, 4, "end_token"), mode, "end_token") : null;
        int size = (int) n;
        return arrayOfStrings(args.subList(0, 1), v -> {
            String text = (String) v[0];
            List<String> units = new ArrayList<>();
            if (mode.equals("token")) {
                for (Object t : runs(text, FunctionsStringSplitting::whitespace)) {
                    units.add((String) t);
                }
            } else if (mode.equals("byte")) {
                for (Object b : bytes(text)) {
                    units.add((String) b);
                }
            } else {
                for (Object cp : ngramsOf(text, 1)) {
                    units.add((String) cp);
                }
            }
            List<String> padded = new ArrayList<>();
            for (int i = 0; start != null && i < size - 1; i++) {
                padded.add(start);
            }
            padded.addAll(units);
            for (int i = 0; end != null && i < size - 1; i++) {
                padded.add(end);
            }
            String joiner = mode.equals("token") ? " " : "";
            List<Object> out = new ArrayList<>();
            for (int i = 0; i + size <= padded.size(); i++) {
                out.add(String.join(joiner, padded.subList(i, i + size)));
            }
            return out;
        });
    }

    /** A constant unsigned integer argument's value, for checks shared with {@link Tokenizers}. */
    static long unsignedConstant(Evaluator a) {
        return Values.toLong(Values.toNumber(a.eval(new Object[0]), a.type()));
    }
}
