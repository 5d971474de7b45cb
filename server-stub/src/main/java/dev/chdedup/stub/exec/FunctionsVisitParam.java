package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import java.math.BigInteger;
import java.util.List;

/**
 * The simpleJSON functions (visitParam*), as ClickHouse's FunctionsVisitParam: no parse of the document, the value
 * after the first {@code "name":} (exactly so, anywhere in the text). Has: whether it occurs; Int and UInt: the
 * integer at the value's start (past one opening quote; UInt drops a sign), 0 when none or out of range; Float: the
 * number there; Bool: whether the value is {@code true}; Raw: the value's text up to the comma or bracket that ends it
 * (empty when nothing does); String: a quoted string's value with its escapes decoded (empty when it is not one).
 */
final class FunctionsVisitParam {
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private FunctionsVisitParam() {
    }

    private interface Extract {
        /** The result for the value starting at {@code from} in {@code json}, or its type's default for -1. */
        Object of(String json, int from);
    }

    static void register(FunctionFactory f) {
        register(f, "simpleJSONHas", "visitParamHas", DataTypes.UINT8, (s, i) -> i < 0 ? 0L : 1L);
        register(f, "simpleJSONExtractUInt", "visitParamExtractUInt", DataTypes.UINT64, (s, i) -> integer(s, i, false));
        register(f, "simpleJSONExtractInt", "visitParamExtractInt", DataTypes.INT64, (s, i) -> integer(s, i, true));
        register(f, "simpleJSONExtractFloat", "visitParamExtractFloat", DataTypes.FLOAT64, FunctionsVisitParam::floating);
        register(f, "simpleJSONExtractBool", "visitParamExtractBool", DataTypes.UINT8, (s, i) -> i >= 0 && s.startsWith("true", i) ? 1L : 0L);
        register(f, "simpleJSONExtractRaw", "visitParamExtractRaw", DataTypes.STRING, FunctionsVisitParam::raw);
        register(f, "simpleJSONExtractString", "visitParamExtractString", DataTypes.STRING, FunctionsVisitParam::string);
    }

    private static void register(FunctionFactory f, String name, String alias, DataType type, Extract fn) {
        f.register(name, FunctionsJSON.CATEGORY, (args, ctx) -> build(name, args, type, fn));
        f.registerAlias(alias, name, false);
    }

    private static Evaluator build(String name, List<Evaluator> args, DataType type, Extract fn) {
        Functions.arity(name, args, 2);
        Evaluator doc = args.get(0);
        Evaluator field = args.get(1);
        DataType dt = doc.type().unwrap();
        if (dt instanceof StringType && ((StringType) dt).fixedLength > 0) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Function '" + name + "' doesn't support FixedString haystack argument");
        }
        if (!(dt instanceof StringType) && !(dt instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + doc.type().name() + " of argument of function " + name);
        }
        if (!Functions.isString(field.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + field.type().name() + " of argument of function " + name);
        }
        if (!field.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        if (dt instanceof NothingType) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        String needle = "\"" + Functions.constString(field) + "\":";
        Object none = fn.of("", -1);
        return Evaluator.of(doc.type().isNullable() ? DataTypes.nullable(type) : type, r -> {
            Object v = doc.eval(r);
            if (v == null) {
                return null;
            }
            String s = (String) v;
            int at = s.indexOf(needle);
            return at < 0 ? none : fn.of(s, at + needle.length());
        });
    }

    private static Object integer(String s, int i, boolean signed) {
        if (i < 0) {
            return 0L;
        }
        if (i < s.length() && s.charAt(i) == '"') {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == start) {
            return 0L;
        }
        BigInteger b = new BigInteger(s.substring(start, i));
        if (!signed) {
            return b.compareTo(UINT64_MAX) > 0 ? 0L : b.longValue();
        }
        b = negative ? b.negate() : b;
        return b.bitLength() >= 64 ? 0L : b.longValue();
    }

    private static Object floating(String s, int i) {
        if (i < 0) {
            return 0.0;
        }
        if (i < s.length() && s.charAt(i) == '"') {
            i++;
        }
        int start = i;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        String rest = s.substring(i, Math.min(s.length(), i + 3)).toLowerCase(java.util.Locale.ROOT);
        if (rest.equals("nan") || rest.equals("inf")) {
            boolean negative = s.charAt(start) == '-';
            return rest.equals("nan") ? Double.NaN : negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        int digits = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        if (i == digits || i == digits + 1 && s.charAt(digits) == '.') {
            return 0.0;
        }
        int mantissa = i;
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int e = i + 1;
            if (e < s.length() && (s.charAt(e) == '-' || s.charAt(e) == '+')) {
                e++;
            }
            int expDigits = e;
            while (e < s.length() && Character.isDigit(s.charAt(e))) {
                e++;
            }
            i = e > expDigits ? e : mantissa;
        }
        return Double.parseDouble(s.substring(start, i));
    }

    private static Object raw(String s, int i) {
        if (i < 0) {
            return "";
        }
        int depth = 0;
        for (int j = i; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c == '"') {
                j++;
                while (j < s.length() && s.charAt(j) != '"') {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}' || c == ',') {
                if (depth == 0) {
                    return s.substring(i, j);
                }
                if (c != ',') {
                    depth--;
                }
            }
        }
        return "";
    }

    private static Object string(String s, int i) {
        if (i < 0 || i >= s.length() || s.charAt(i) != '"') {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int j = i + 1; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (++j >= s.length()) {
                return "";
            }
            char e = s.charAt(j);
            switch (e) {
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'u': {
                    int cp = hex4(s, j + 1);
                    if (cp < 0) {
                        return "";
                    }
                    j += 4;
                    if (Character.isHighSurrogate((char) cp) && s.startsWith("\\u", j + 1) && hex4(s, j + 3) >= 0
                        && Character.isLowSurrogate((char) hex4(s, j + 3))) {
                        cp = Character.toCodePoint((char) cp, (char) hex4(s, j + 3));
                        j += 6;
                    }
                    sb.append(ByteStrings.fromText(new String(Character.toChars(cp))));
                    break;
                }
                default: sb.append(e);
            }
        }
        return "";
    }

    private static int hex4(String s, int from) {
        if (from + 4 > s.length()) {
            return -1;
        }
        int v = 0;
        for (int k = from; k < from + 4; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }
}
