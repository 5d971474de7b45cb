package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A streaming JSON reader that turns JSON values straight into values of a target type, with ClickHouse's
 * leniencies: numbers may come as strings and strings as numbers, booleans read as 1/0 for numeric columns,
 * any JSON value reads as its raw text into a String column, tuples come as arrays or (named) objects, and
 * null in a non-Nullable place means the default (input_format_null_as_default).
 */
final class JsonInput {
    final ByteInput in;
    private final FormatSettings s;
    private byte[] tmp = new byte[64];
    private int tmpLen;

    JsonInput(ByteInput in, FormatSettings s) {
        this.in = in;
        this.s = s;
    }

    void expect(char c) {
        in.skipWhitespace();
        if (in.peek() != c) {
            throw in.expected("'" + c + "'");
        }
        in.pos++;
    }

    /** Reads a JSON value as type {@code t}; at the top level a null for a non-Nullable column is DEFAULT. */
    Object read(DataType t, boolean top) {
        in.skipWhitespace();
        int c = in.peek();
        if (c == 'n') {
            word("null");
            if (t.isNullable()) {
                return null;
            }
            if (!s.nullAsDefault) {
                throw new ChException(ErrorCode.CANNOT_PARSE_TEXT,
                    "Cannot parse null as " + t.name() + ": the type is not Nullable");
            }
            return top ? RowReader.DEFAULT : t.defaultValue();
        }
        DataType b = t.unwrap();
        if (b instanceof StringType) {
            String v = c == '"' ? string() : raw();
            return ((StringType) b).fixedLength == 0 ? v : b.parseText(v);
        }
        if (b instanceof ArrayType) {
            expect('[');
            List<Object> l = new ArrayList<>();
            if (!end(']')) {
                do {
                    l.add(read(((ArrayType) b).element, false));
                } while (next(']'));
            }
            return Collections.unmodifiableList(l);
        }
        if (b instanceof TupleType) {
            return tuple((TupleType) b, c);
        }
        if (b instanceof MapType) {
            MapType m = (MapType) b;
            expect('{');
            Map<Object, Object> out = new LinkedHashMap<>();
            if (!end('}')) {
                do {
                    in.skipWhitespace();
                    Object k = TextFields.parse(m.key, string(), s);
                    expect(':');
                    out.put(k, read(m.value, false));
                } while (next('}'));
            }
            return Collections.unmodifiableMap(out);
        }
        if (b instanceof NothingType) {
            raw();
            return null;
        }
        if (c == '"') {
            return TextFields.parse(b, string(), s);
        }
        if (c == 't' || c == 'f') {
            boolean v = c == 't';
            word(v ? "true" : "false");
            return b instanceof BoolType ? (Object) v : b.convert(v, DataTypes.BOOL);
        }
        if (c == '-' || c == '+' || c >= '0' && c <= '9' || c == '.') {
            return TextFields.parse(b, token(), s);
        }
        throw in.expected("a value of type " + b.name());
    }

    private Object tuple(TupleType tt, int c) {
        List<Object> out = new ArrayList<>(tt.elements.size());
        if (c == '{' && tt.names != null) {
            in.pos++;
            Object[] vals = new Object[tt.elements.size()];
            boolean[] set = new boolean[vals.length];
            if (!end('}')) {
                do {
                    in.skipWhitespace();
                    int k = tt.names.indexOf(string());
                    expect(':');
                    if (k < 0) {
                        raw();
                    } else {
                        vals[k] = read(tt.elements.get(k), false);
                        set[k] = true;
                    }
                } while (next('}'));
            }
            for (int i = 0; i < vals.length; i++) {
                out.add(set[i] ? vals[i] : tt.elements.get(i).defaultValue());
            }
            return Collections.unmodifiableList(out);
        }
        expect('[');
        for (int i = 0; i < tt.elements.size(); i++) {
            if (i > 0) {
                expect(',');
            }
            out.add(read(tt.elements.get(i), false));
        }
        expect(']');
        return Collections.unmodifiableList(out);
    }

    /** True (consumed) if the container closes right away with {@code close}. */
    boolean end(char close) {
        in.skipWhitespace();
        return in.tryByte(close);
    }

    /** After an element: true on ',', false on {@code close}, an error otherwise. */
    boolean next(char close) {
        in.skipWhitespace();
        int c = in.read();
        if (c == ',') {
            return true;
        }
        if (c == close) {
            return false;
        }
        if (c >= 0) {
            in.pos--;
        }
        throw in.expected("',' or '" + close + "'");
    }

    private void word(String w) {
        for (int i = 0; i < w.length(); i++) {
            if (in.read() != w.charAt(i)) {
                throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                    "Cannot parse input: expected '" + w + "' before: " + in.quoteExcerpt());
            }
        }
    }

    /** A number token: sign, digits, point, exponent (and letters, for nan/inf). */
    private String token() {
        tmpLen = 0;
        while (true) {
            int c = in.peek();
            if (c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
                put(c);
                in.pos++;
            } else {
                return new String(tmp, 0, tmpLen, StandardCharsets.ISO_8859_1);
            }
        }
    }

    /** Reads a JSON string literal (the current byte must be its opening quote) and decodes its escapes. */
    String string() {
        if (in.peek() != '"') {
            throw in.expected("'\"'");
        }
        in.pos++;
        int i = in.pos;
        while (i < in.lim) {
            byte b = in.buf[i];
            if (b == '"') {
                String v = in.utf8(in.pos, i);
                in.pos = i + 1;
                return v;
            }
            if (b == '\\') {
                break;
            }
            i++;
        }
        tmpLen = 0;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                    "Cannot parse JSON string: expected closing quote");
            }
            if (c == '"') {
                return new String(tmp, 0, tmpLen, StandardCharsets.UTF_8);
            }
            if (c != '\\') {
                put(c);
                continue;
            }
            int e = in.read();
            switch (e) {
                case 'n': put('\n'); break;
                case 't': put('\t'); break;
                case 'r': put('\r'); break;
                case 'b': put('\b'); break;
                case 'f': put('\f'); break;
                case '0': put(0); break;
                case 'u': codePoint(); break;
                case -1: throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                    "Cannot parse JSON string: expected closing quote");
                default: put(e);
            }
        }
    }

    private void codePoint() {
        int cp = hex4();
        if (Character.isHighSurrogate((char) cp) && in.peek() == '\\' && in.peekAt(1) == 'u') {
            in.pos += 2;
            int lo = hex4();
            cp = Character.isLowSurrogate((char) lo) ? Character.toCodePoint((char) cp, (char) lo) : 0xFFFD;
        } else if (Character.isSurrogate((char) cp)) {
            cp = 0xFFFD;
        }
        byte[] enc = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        for (byte x : enc) {
            put(x & 0xFF);
        }
    }

    private int hex4() {
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int h = TextFields.hex((byte) in.read());
            if (h < 0) {
                throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                    "Cannot parse JSON string: bad \\u escape before: " + in.quoteExcerpt());
            }
            v = v * 16 + h;
        }
        return v;
    }

    /** The raw text of the next JSON value, as input_format_json_read_*_as_strings read it; also skips one. */
    String raw() {
        in.skipWhitespace();
        tmpLen = 0;
        int depth = 0;
        boolean str = false;
        while (true) {
            int c = in.peek();
            if (c < 0) {
                if (depth > 0 || str) {
                    throw in.expected("the end of a JSON value");
                }
                break;
            }
            if (str) {
                in.pos++;
                put(c);
                if (c == '\\') {
                    put(in.read());
                } else if (c == '"') {
                    str = false;
                    if (depth == 0) {
                        break;
                    }
                }
                continue;
            }
            if (depth == 0 && tmpLen > 0 && (c == ',' || c == '}' || c == ']' || c <= ' ')) {
                break;
            }
            in.pos++;
            put(c);
            if (c == '"') {
                str = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth <= 0) {
                    break;
                }
            }
        }
        return new String(tmp, 0, tmpLen, StandardCharsets.UTF_8);
    }

    private void put(int b) {
        if (tmpLen == tmp.length) {
            tmp = Arrays.copyOf(tmp, tmp.length * 2);
        }
        tmp[tmpLen++] = (byte) b;
    }
}
