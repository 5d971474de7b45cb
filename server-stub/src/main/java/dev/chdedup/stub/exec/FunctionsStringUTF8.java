package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;

/**
 * The UTF-8 string functions of ClickHouse's category String that read code points: initcapUTF8, isValidUTF8,
 * toValidUTF8, the normalizeUTF8 forms, caseFoldUTF8, removeDiacriticsUTF8, and startsWith/endsWith in their UTF-8
 * and case-insensitive forms. The ICU-based ones (normalization, case folding) refuse invalid UTF-8 with
 * CANNOT_NORMALIZE_STRING, as ClickHouse's do; the others keep a byte that starts no well-formed sequence as it is.
 */
final class FunctionsStringUTF8 {
    private FunctionsStringUTF8() {
    }

    static void register(FunctionFactory f) {
        String c = FunctionsString.CATEGORY;
        f.register("initcapUTF8", c, (args, ctx) -> {
            if (args.size() == 1 && args.get(0).type().unwrap() instanceof StringType st && st.fixedLength > 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function initcapUTF8 cannot work with FixedString argument");
            }
            return FunctionsString.stringToString("initcapUTF8", args, true, FunctionsStringUTF8::initcap);
        });
        f.register("isValidUTF8", c, (args, ctx) -> FunctionsString.predicate("isValidUTF8", args, FunctionsStringUTF8::isValid));
        f.register("toValidUTF8", c, (args, ctx) -> FunctionsString.stringToString("toValidUTF8", args, false, FunctionsStringUTF8::toValid));
        for (Normalizer.Form form : Normalizer.Form.values()) {
            String name = "normalizeUTF8" + form.name();
            f.register(name, c, (args, ctx) -> icu(name, args, s -> Normalizer.normalize(s, form)));
        }
        f.register("normalizeUTF8NFKCCasefold", c, (args, ctx) -> icu("normalizeUTF8NFKCCasefold", args,
            s -> Normalizer.normalize(caseFold(Normalizer.normalize(s, Normalizer.Form.NFKC)), Normalizer.Form.NFKC)));
        f.register("caseFoldUTF8", c, (args, ctx) -> icu("caseFoldUTF8", args, FunctionsStringUTF8::caseFold));
        f.register("removeDiacriticsUTF8", c, (args, ctx) -> icu("removeDiacriticsUTF8", args, FunctionsStringUTF8::removeDiacritics));
        f.registerAlias("removeAccentsUTF8", "removeDiacriticsUTF8", false);
        f.register("startsWithUTF8", c, (args, ctx) -> startsEndsWith("startsWithUTF8", args, true, false, true));
        f.register("endsWithUTF8", c, (args, ctx) -> startsEndsWith("endsWithUTF8", args, false, false, true));
        f.register("startsWithCaseInsensitive", c, (args, ctx) -> startsEndsWith("startsWithCaseInsensitive", args, true, true, false));
        f.register("endsWithCaseInsensitive", c, (args, ctx) -> startsEndsWith("endsWithCaseInsensitive", args, false, true, false));
        f.register("startsWithCaseInsensitiveUTF8", c, (args, ctx) -> startsEndsWith("startsWithCaseInsensitiveUTF8", args, true, true, true));
        f.register("endsWithCaseInsensitiveUTF8", c, (args, ctx) -> startsEndsWith("endsWithCaseInsensitiveUTF8", args, false, true, true));
    }

    /** Whether the bytes are well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF). */
    static boolean isValid(String s) {
        for (int i = 0; i < s.length(); ) {
            int k = ByteStrings.utf8SequenceLength(s, i);
            if (k == 0) {
                return false;
            }
            i += k;
        }
        return true;
    }

    /**
     * The bytes with each run of bytes that are not well-formed UTF-8 replaced by one U+FFFD: a byte that starts no
     * sequence, or a sequence that is not well-formed, is skipped byte by byte; a sequence cut short by the string's
     * end is replaced whole.
     */
    static String toValid(String s) {
        if (ByteStrings.isAscii(s)) {
            return s;
        }
        String replacement = ByteStrings.fromText("\uFFFD");
        StringBuilder sb = new StringBuilder(s.length());
        boolean justReplaced = false;
        int i = 0;
        while (i < s.length()) {
            int b = s.charAt(i) & 0xFF;
            int declared = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF8 ? 4 : 5;
            if (declared <= 4 && i + declared > s.length()) {
                break;
            }
            if (declared <= 4 && ByteStrings.utf8SequenceLength(s, i) == declared) {
                sb.append(s, i, i + declared);
                justReplaced = false;
                i += declared;
            } else {
                if (!justReplaced) {
                    sb.append(replacement);
                }
                justReplaced = true;
                i++;
            }
        }
        if (i < s.length() && !justReplaced) {
            sb.append(replacement);
        }
        return sb.toString();
    }

    /**
     * Each letter upper-cased at the start of a word and lower-cased inside one, a word being a run of letters and
     * digits; a code point whose other case has another UTF-8 length stays as it is.
     */
    static String initcap(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean prevAlphaNumeric = false;
        for (int i = 0; i < s.length(); ) {
            int k = ByteStrings.utf8SequenceLength(s, i);
            if (k == 0) {
                sb.append(s.charAt(i++));
                continue;
            }
            String unit = s.substring(i, i + k);
            int cp = ByteStrings.toText(unit).codePointAt(0);
            boolean alpha = Character.isLetter(cp);
            boolean alphaNumeric = alpha || Character.isDigit(cp);
            int mapped = !alpha ? cp : alphaNumeric && !prevAlphaNumeric ? Character.toUpperCase(cp) : Character.toLowerCase(cp);
            String out = ByteStrings.fromText(new String(Character.toChars(mapped)));
            sb.append(out.length() == k ? out : unit);
            prevAlphaNumeric = alphaNumeric;
            i += k;
        }
        return sb.toString();
    }

    /** Full case folding, code point by code point (no context, so a final sigma folds as any sigma). */
    static String caseFold(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> {
            String upper = new String(Character.toChars(cp)).toUpperCase(Locale.ROOT);
            upper.codePoints().forEach(u -> sb.append(new String(Character.toChars(u)).toLowerCase(Locale.ROOT)));
        });
        return sb.toString();
    }

    /** The text without its combining marks (decomposed, marks dropped, composed again). */
    static String removeDiacritics(String text) {
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFD);
        StringBuilder sb = new StringBuilder(decomposed.length());
        decomposed.codePoints().filter(cp -> Character.getType(cp) != Character.NON_SPACING_MARK).forEach(sb::appendCodePoint);
        return Normalizer.normalize(sb, Normalizer.Form.NFC);
    }

    /** A function over the text of a String (not a FixedString) that must be valid UTF-8, as ICU needs it. */
    private static Evaluator icu(String name, List<Evaluator> args, java.util.function.UnaryOperator<String> fn) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (t instanceof StringType st && st.fixedLength > 0) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Cannot apply function " + name + " to fixed string");
        }
        StringArguments.plainString(name, args, 0);
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            if (!isValid(s)) {
                throw new ChException(ErrorCode.CANNOT_NORMALIZE_STRING, name + " failed (strFromUTF8): U_INVALID_CHAR_FOUND");
            }
            return ByteStrings.fromText(fn.apply(ByteStrings.toText(s)));
        });
    }

    /**
     * startsWith/endsWith in their UTF-8 and case-insensitive forms: of two Strings (FixedString only for the byte
     * forms), or two arrays (elements compared as they are); case-insensitive means ASCII letters for the byte forms,
     * code points lower-cased one by one for the UTF-8 ones.
     */
    private static Evaluator startsEndsWith(String name, List<Evaluator> args, boolean starts, boolean caseInsensitive, boolean utf8) {
        Functions.arity(name, args, 2);
        DataType a = TypeRules.stripNullable(args.get(0).type());
        DataType b = TypeRules.stripNullable(args.get(1).type());
        if (a instanceof ArrayType && b instanceof ArrayType) {
            DataType ea = ((ArrayType) a).element;
            DataType eb = ((ArrayType) b).element;
            return Functions.strict(DataTypes.UINT8, args, v -> {
                List<?> x = (List<?>) v[0];
                List<?> y = (List<?>) v[1];
                if (y.size() > x.size()) {
                    return 0L;
                }
                int from = starts ? 0 : x.size() - y.size();
                for (int i = 0; i < y.size(); i++) {
                    Object p = x.get(from + i);
                    Object q = y.get(i);
                    if (p == null || q == null ? p != q : TypeRules.compare(p, ea, q, eb) != 0) {
                        return 0L;
                    }
                }
                return 1L;
            });
        }
        boolean ok = true;
        for (DataType t : List.of(a, b)) {
            ok &= t.unwrap() instanceof StringType st && (!utf8 || st.fixedLength == 0) || StringArguments.isNull(t);
        }
        if (!ok) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + args.get(0).type().name() + " "
                + args.get(1).type().name() + " of arguments of function " + name + ". Both must be String or Array");
        }
        return Functions.strict(DataTypes.UINT8, args, v -> {
            String s = (String) v[0];
            String p = (String) v[1];
            if (caseInsensitive) {
                s = utf8 ? Utf8Functions.changeCase(s, false) : StringFunctions.asciiCase(s, false);
                p = utf8 ? Utf8Functions.changeCase(p, false) : StringFunctions.asciiCase(p, false);
            }
            return (starts ? s.startsWith(p) : s.endsWith(p)) ? 1L : 0L;
        });
    }
}
