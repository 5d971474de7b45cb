package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed JSON document, as the JSON functions see it through ClickHouse's SimdJSONParser: a strict parse of one
 * value (surrounding whitespace allowed, anything else after it makes the document invalid). Elements are held as
 * {@link JsonObject} (members in document order, duplicates kept), {@code List} (array), {@code String} (a byte string,
 * escapes decoded to UTF-8), {@code Long} (Int64), {@link JsonUInt64} (an integer above Int64), {@code Double},
 * {@code Boolean} and {@link #NULL}.
 */
final class JSONDocument {
    /** JSON's null (Java's null means no element). */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /** An object's members in document order. */
    record JsonObject(List<String> keys, List<Object> values) {
    }

    /** An integer in (Int64 max, UInt64 max], held as its unsigned bits. */
    record JsonUInt64(long bits) {
    }

    private final String s;
    private int pos;

    private JSONDocument(String s) {
        this.s = s;
    }

    /** The document's root element, or null when {@code bytes} is not valid JSON. */
    static Object parse(String bytes) {
        JSONDocument p = new JSONDocument(bytes);
        try {
            p.skipWhitespace();
            Object v = p.value(0);
            p.skipWhitespace();
            return p.pos == bytes.length() ? v : null;
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return null;
        }
    }

    private static IllegalArgumentException invalid() {
        return new IllegalArgumentException("invalid JSON");
    }

    private void skipWhitespace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                break;
            }
            pos++;
        }
    }

    private Object value(int depth) {
        if (depth > 1024) {
            throw invalid();
        }
        char c = s.charAt(pos);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return string();
            case 't': return literal("true", Boolean.TRUE);
            case 'f': return literal("false", Boolean.FALSE);
            case 'n': return literal("null", NULL);
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                throw invalid();
        }
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, pos)) {
            throw invalid();
        }
        pos += word.length();
        return v;
    }

    private JsonObject object(int depth) {
        pos++;
        List<String> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        skipWhitespace();
        if (s.charAt(pos) == '}') {
            pos++;
            return new JsonObject(keys, values);
        }
        while (true) {
            skipWhitespace();
            if (s.charAt(pos) != '"') {
                throw invalid();
            }
            keys.add(string());
            skipWhitespace();
            if (s.charAt(pos++) != ':') {
                throw invalid();
            }
            skipWhitespace();
            values.add(value(depth + 1));
            skipWhitespace();
            char c = s.charAt(pos++);
            if (c == '}') {
                return new JsonObject(keys, values);
            }
            if (c != ',') {
                throw invalid();
            }
        }
    }

    private List<Object> array(int depth) {
        pos++;
        List<Object> l = new ArrayList<>();
        skipWhitespace();
        if (s.charAt(pos) == ']') {
            pos++;
            return l;
        }
        while (true) {
            skipWhitespace();
            l.add(value(depth + 1));
            skipWhitespace();
            char c = s.charAt(pos++);
            if (c == ']') {
                return l;
            }
            if (c != ',') {
                throw invalid();
            }
        }
    }

    private String string() {
        pos++;
        StringBuilder sb = null;
        int start = pos;
        while (true) {
            char c = s.charAt(pos);
            if (c == '"') {
                String tail = s.substring(start, pos++);
                return sb == null ? tail : sb.append(tail).toString();
            }
            if (c < 0x20) {
                throw invalid();
            }
            if (c != '\\') {
                pos++;
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder();
            }
            sb.append(s, start, pos);
            char e = s.charAt(pos + 1);
            pos += 2;
            switch (e) {
                case '"': sb.append('"'); break;
                case '\\': sb.append('\\'); break;
                case '/': sb.append('/'); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'u': {
                    int cp = hex4();
                    if (Character.isHighSurrogate((char) cp) && s.startsWith("\\u", pos)) {
                        pos += 2;
                        int low = hex4();
                        if (!Character.isLowSurrogate((char) low)) {
                            throw invalid();
                        }
                        cp = Character.toCodePoint((char) cp, (char) low);
                    } else if (Character.isSurrogate((char) cp)) {
                        throw invalid();
                    }
                    sb.append(ByteStrings.fromText(new String(Character.toChars(cp))));
                    break;
                }
                default: throw invalid();
            }
            start = pos;
        }
    }

    private int hex4() {
        int v = Integer.parseInt(s.substring(pos, pos + 4), 16);
        if (s.charAt(pos) == '+' || s.charAt(pos) == '-') {
            throw invalid();
        }
        pos += 4;
        return v;
    }

    private Object number() {
        int start = pos;
        if (s.charAt(pos) == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
            pos++;
        }
        if (pos == digits || s.charAt(digits) == '0' && pos - digits > 1) {
            throw invalid();
        }
        boolean integer = true;
        if (pos < s.length() && s.charAt(pos) == '.') {
            integer = false;
            int frac = ++pos;
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos == frac) {
                throw invalid();
            }
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            integer = false;
            pos++;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                pos++;
            }
            int exp = pos;
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos == exp) {
                throw invalid();
            }
        }
        String text = s.substring(start, pos);
        if (integer) {
            BigInteger b = new BigInteger(text);
            if (b.bitLength() < 64) {
                return b.longValue();
            }
            if (b.signum() > 0 && b.compareTo(UINT64_MAX) <= 0) {
                return new JsonUInt64(b.longValue());
            }
            throw invalid();
        }
        double d = Double.parseDouble(text);
        if (Double.isInfinite(d)) {
            throw invalid();
        }
        return d;
    }

    /** The element's minified text, as JSONExtractRaw gives it: strings re-escaped, numbers as ClickHouse prints them. */
    static String raw(Object e) {
        StringBuilder sb = new StringBuilder();
        write(e, sb, -1, 0);
        return sb.toString();
    }

    /** The element's text with {@code indent} spaces a level, members on their own lines, as prettyPrintJSON. */
    static String pretty(Object e, int indent) {
        StringBuilder sb = new StringBuilder();
        write(e, sb, indent, 0);
        return sb.toString();
    }

    private static void write(Object e, StringBuilder sb, int indent, int level) {
        if (e instanceof JsonObject) {
            JsonObject o = (JsonObject) e;
            sb.append('{');
            for (int i = 0; i < o.keys().size(); i++) {
                sb.append(i > 0 ? "," : "");
                newline(sb, indent, level + 1);
                string(o.keys().get(i), sb);
                sb.append(indent < 0 ? ":" : ": ");
                write(o.values().get(i), sb, indent, level + 1);
            }
            if (!o.keys().isEmpty()) {
                newline(sb, indent, level);
            }
            sb.append('}');
        } else if (e instanceof List) {
            List<?> l = (List<?>) e;
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i > 0 ? "," : "");
                newline(sb, indent, level + 1);
                write(l.get(i), sb, indent, level + 1);
            }
            if (!l.isEmpty()) {
                newline(sb, indent, level);
            }
            sb.append(']');
        } else if (e instanceof String) {
            string((String) e, sb);
        } else {
            sb.append(scalarText(e));
        }
    }

    private static void newline(StringBuilder sb, int indent, int level) {
        if (indent >= 0) {
            sb.append('\n').append(" ".repeat(indent * level));
        }
    }

    /** A number's, a bool's or null's text (a string's is its bytes). */
    static String scalarText(Object e) {
        if (e instanceof Double) {
            StringBuilder sb = new StringBuilder();
            DataTypes.FLOAT64.formatText(e, sb);
            return sb.toString();
        }
        if (e instanceof JsonUInt64) {
            return Long.toUnsignedString(((JsonUInt64) e).bits());
        }
        return e instanceof String ? (String) e : String.valueOf(e);
    }

    /** A byte string as a JSON string: quote, backslash and control characters escaped (not '/'). */
    static void string(String bytes, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < bytes.length(); i++) {
            char c = bytes.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04X", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }
}
