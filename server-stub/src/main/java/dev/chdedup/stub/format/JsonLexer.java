package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The token level of JSON input over a {@link ByteInput}: punctuation, literals, number tokens, string literals
 * with their escapes decoded (surrogate pairs joined), and the raw text of a whole value (for skipping unknown
 * keys and for reading any JSON value into a String column).
 */
class JsonLexer {
    final ByteInput in;
    private byte[] tmp = new byte[64];
    private int tmpLen;

    JsonLexer(ByteInput in) {
        this.in = in;
    }

    void expect(char c) {
        in.skipWhitespace();
        if (in.peek() != c) {
            throw in.expected("'" + c + "'");
        }
        in.pos++;
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

    void word(String w) {
        for (int i = 0; i < w.length(); i++) {
            if (in.read() != w.charAt(i)) {
                throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                    "Cannot parse input: expected '" + w + "' before: " + in.quoteExcerpt());
            }
        }
    }

    /** A number token: sign, digits, point, exponent (and letters, for nan/inf). */
    String token() {
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

    /**
     * Reads a JSON string literal (the current byte must be its opening quote) and decodes its escapes into a
     * byte string: bytes are kept as they are (invalid UTF-8 too), a backslash-u escape becomes its UTF-8 bytes.
     */
    String string() {
        if (in.peek() != '"') {
            throw in.expected("'\"'");
        }
        in.pos++;
        int i = in.pos;
        while (i < in.lim) {
            byte b = in.buf[i];
            if (b == '"') {
                String v = in.bytes(in.pos, i);
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
                return new String(tmp, 0, tmpLen, StandardCharsets.ISO_8859_1);
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

    /** The raw bytes of the next JSON value, as input_format_json_read_*_as_strings read it; also skips one. */
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
        return new String(tmp, 0, tmpLen, StandardCharsets.ISO_8859_1);
    }

    private void put(int b) {
        if (tmpLen == tmp.length) {
            tmp = Arrays.copyOf(tmp, tmp.length * 2);
        }
        tmp[tmpLen++] = (byte) b;
    }
}
