package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON text for the JSON and Dynamic types: writes typed values as ClickHouse shows them inside a JSON value
 * (64-bit integers quoted, nan and inf as null), and parses JSON text into objects (sorted maps) whose leaves are
 * {@link TypedValue}s typed as ClickHouse infers them. Strings stay byte strings; {@code \\u} escapes become UTF-8.
 */
public final class JsonText {
    private JsonText() {
    }

    static void string(String bytes, StringBuilder sb) {
        string(bytes, sb, false);
    }

    /** {@code escapeSlash}: '/' as {@code \/} (output_format_json_escape_forward_slashes). */
    static void string(String bytes, StringBuilder sb, boolean escapeSlash) {
        sb.append('"');
        for (int i = 0; i < bytes.length(); i++) {
            char c = bytes.charAt(i);
            switch (c) {
                case '/': sb.append(escapeSlash ? "\\/" : "/"); break;
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    static void value(DataType t, Object v, StringBuilder sb) {
        value(t, v, sb, JsonQuoting.quote64());
    }

    /**
     * How {@link #value} writes: 64-bit and larger integers as JSON strings (output_format_json_quote_64bit_integers),
     * '/' escaped (output_format_json_escape_forward_slashes), nan and inf as strings rather than null
     * (output_format_json_quote_denormals).
     */
    record Style(boolean quote64, boolean escapeSlash, boolean quoteDenormals) {
    }

    /** {@code quote64}: 64-bit and larger integers as JSON strings (output_format_json_quote_64bit_integers). */
    static void value(DataType t, Object v, StringBuilder sb, boolean quote64) {
        value(t, v, sb, new Style(quote64, false, false));
    }

    /**
     * toJSONString's text of a value: integers bare, '/' escaped, tuples as arrays (named: objects), maps as objects;
     * {@code quoteDenormals}: nan and inf as "nan", "inf", "-inf", else null.
     */
    public static String toJsonString(DataType t, Object v, boolean quoteDenormals) {
        StringBuilder sb = new StringBuilder();
        value(t, v, sb, new Style(false, true, quoteDenormals));
        return sb.toString();
    }

    static void value(DataType t, Object v, StringBuilder sb, Style style) {
        boolean quote64 = style.quote64();
        if (v == null) {
            sb.append("null");
            return;
        }
        DataType b = t.unwrap();
        if (b instanceof IntType || b instanceof BigIntType) {
            boolean quote = quote64 && (b instanceof BigIntType || ((IntType) b).bits == 64);
            sb.append(quote ? "\"" : "").append(Values.text(v, b)).append(quote ? "\"" : "");
        } else if (b instanceof FloatType || b instanceof BFloat16Type) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                sb.append(!style.quoteDenormals() ? "null" : Double.isNaN(d) ? "\"nan\"" : d > 0 ? "\"inf\"" : "\"-inf\"");
            } else {
                sb.append(Values.text(v, b));
            }
        } else if (b instanceof BoolType || b instanceof DecimalType) {
            sb.append(Values.text(v, b));
        } else if (b instanceof StringType) {
            string((String) v, sb, style.escapeSlash());
        } else if (b instanceof ArrayType) {
            sb.append('[');
            List<?> l = (List<?>) v;
            for (int i = 0; i < l.size(); i++) {
                sb.append(i > 0 ? "," : "");
                value(((ArrayType) b).element, l.get(i), sb, style);
            }
            sb.append(']');
        } else if (b instanceof TupleType) {
            TupleType tt = (TupleType) b;
            List<?> l = (List<?>) v;
            sb.append(tt.names != null ? '{' : '[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i > 0 ? "," : "");
                if (tt.names != null) {
                    string(ByteStrings.fromText(tt.names.get(i)), sb, style.escapeSlash());
                    sb.append(':');
                }
                value(tt.elements.get(i), l.get(i), sb, style);
            }
            sb.append(tt.names != null ? '}' : ']');
        } else if (b instanceof MapType) {
            MapType m = (MapType) b;
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                sb.append(first ? "" : ",");
                first = false;
                string(Values.text(e.getKey(), m.key.unwrap()), sb, style.escapeSlash());
                sb.append(':');
                value(m.value, e.getValue(), sb, style);
            }
            sb.append('}');
        } else if (b instanceof DynamicType || b instanceof VariantType) {
            value(((TypedValue) v).type(), ((TypedValue) v).value(), sb, style);
        } else if (b instanceof JsonType) {
            ((JsonType) b).formatJson(v, sb, quote64);
        } else {
            string(Values.text(v, b), sb, style.escapeSlash());
        }
    }

    /** A recursive-descent reader of one JSON text. */
    static final class Parser {
        private final String s;
        /** The JSON type whose value is being read (arrays of objects in it get its nested type), or null. */
        private final JsonType owner;
        private int pos;

        Parser(String s) {
            this(s, null);
        }

        Parser(String s, JsonType owner) {
            this.s = s;
            this.owner = owner;
        }

        private ChException error(String expected) {
            return new ChException(ErrorCode.INCORRECT_DATA, "Cannot parse JSON: expected " + expected + " at position " + (pos + 1)
                + " of '" + ByteStrings.toText(s.length() > 80 ? s.substring(0, 80) + "..." : s) + "'");
        }

        private void ws() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        void end() {
            ws();
            if (pos != s.length()) {
                throw error("the end of the value");
            }
        }

        private boolean eat(char c) {
            ws();
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        /** A Map for an object, a TypedValue for anything else, null for null. */
        Object value() {
            return value(owner, null);
        }

        /**
         * A value inside an object of type {@code in}; {@code element} is the JSON type of the objects of the array
         * this value is an element of (null outside arrays).
         */
        private Object value(JsonType in, JsonType element) {
            ws();
            if (pos >= s.length()) {
                throw error("a value");
            }
            char c = s.charAt(pos);
            if (c == '{') {
                pos++;
                Map<String, Object> m = new TreeMap<>();
                if (eat('}')) {
                    return m;
                }
                do {
                    ws();
                    String key = ByteStrings.toText(string());
                    if (!eat(':')) {
                        throw error("':'");
                    }
                    m.put(key, value(element != null ? element : in, null));
                } while (eat(','));
                if (!eat('}')) {
                    throw error("',' or '}'");
                }
                return m;
            }
            if (c == '[') {
                int start = pos;
                pos++;
                List<Object> l = new ArrayList<>();
                JsonType objects = element != null ? element : in == null ? null : in.nested();
                if (!eat(']')) {
                    do {
                        l.add(value(in, objects));
                    } while (eat(','));
                    if (!eat(']')) {
                        throw error("',' or ']'");
                    }
                }
                return array(l, s.substring(start, pos), objects);
            }
            if (c == '"') {
                return new TypedValue(DataTypes.STRING, string());
            }
            if (s.startsWith("true", pos) || s.startsWith("false", pos)) {
                boolean b = s.startsWith("true", pos);
                pos += b ? 4 : 5;
                return new TypedValue(DataTypes.BOOL, b);
            }
            if (s.startsWith("null", pos)) {
                pos += 4;
                return null;
            }
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String num = s.substring(start, pos);
            if (num.isEmpty()) {
                throw error("a value");
            }
            if (num.matches("-?\\d+")) {
                BigInteger n = new BigInteger(num);
                if (n.bitLength() < 64) {
                    return new TypedValue(DataTypes.INT64, n.longValue());
                }
                if (n.signum() > 0 && n.bitLength() == 64) {
                    return new TypedValue(DataTypes.UINT64, n.longValue());
                }
            }
            try {
                return new TypedValue(DataTypes.FLOAT64, Double.parseDouble(num));
            } catch (NumberFormatException e) {
                throw error("a number");
            }
        }

        /** The array's elements under one inferred Array(Nullable(T)) type, or its text when they have none. */
        @SuppressWarnings("unchecked")
        private static TypedValue array(List<Object> l, String text, JsonType objects) {
            if (objects != null && !l.isEmpty() && l.stream().allMatch(o -> o instanceof Map)) {
                List<Object> values = new ArrayList<>();
                for (Object o : l) {
                    values.add(objects.fromTree((Map<String, Object>) o));
                }
                return new TypedValue(DataTypes.array(objects), Collections.unmodifiableList(values));
            }
            DataType element = null;
            for (Object o : l) {
                if (o == null) {
                    continue;
                }
                if (!(o instanceof TypedValue)) {
                    return new TypedValue(DataTypes.STRING, text);
                }
                DataType t = ((TypedValue) o).type();
                if (element == null || element.equals(t)) {
                    element = t;
                } else if (isNumber(element) && isNumber(t)) {
                    element = DataTypes.FLOAT64;
                } else {
                    return new TypedValue(DataTypes.STRING, text);
                }
            }
            if (element == null) {
                element = DataTypes.STRING;
            }
            DataType arrayType = DataTypes.array(element instanceof ArrayType ? element : DataTypes.nullable(element));
            List<Object> values = new ArrayList<>();
            for (Object o : l) {
                values.add(o == null ? null : ((ArrayType) arrayType).element.convert(((TypedValue) o).value(), ((TypedValue) o).type()));
            }
            return new TypedValue(arrayType, Collections.unmodifiableList(values));
        }

        private static boolean isNumber(DataType t) {
            return t.equals(DataTypes.INT64) || t.equals(DataTypes.UINT64) || t.equals(DataTypes.FLOAT64);
        }

        private String string() {
            if (pos >= s.length() || s.charAt(pos) != '"') {
                throw error("'\"'");
            }
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("the closing '\"'");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("an escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n': sb.append('\n'); break;
                    case 't': sb.append('\t'); break;
                    case 'r': sb.append('\r'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'u': {
                        int cp = hex4();
                        if (cp >= 0xD800 && cp < 0xDC00 && s.startsWith("\\u", pos)) {
                            pos += 2;
                            cp = Character.toCodePoint((char) cp, (char) hex4());
                        }
                        sb.append(ByteStrings.fromText(new String(Character.toChars(cp))));
                        break;
                    }
                    default: sb.append(e);
                }
            }
        }

        private int hex4() {
            if (pos + 4 > s.length()) {
                throw error("four hex digits");
            }
            try {
                int v = Integer.parseInt(s.substring(pos, pos + 4), 16);
                pos += 4;
                return v;
            } catch (NumberFormatException e) {
                throw error("four hex digits");
            }
        }
    }
}
