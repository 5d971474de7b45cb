package dev.chdedup.stub.format;

import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The buffered byte writer under every output format: values are copied straight into an internal buffer that
 * goes to the stream in large chunks, with the escaping rules of the text formats (TabSeparated escapes, CSV
 * double quotes, JSON strings) applied on the way so no intermediate strings are built. Values are byte strings
 * ({@link ByteStrings}): every method but {@link #writeUtf8} writes a char below 256 as that one byte (a char
 * above, which only text has, as its UTF-8 bytes). A writer that shows a name (a column, a type) through the
 * escaping methods converts it with {@code ByteStrings.fromText} first.
 */
final class ByteSink {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final OutputStream out;
    private byte[] buf = new byte[1 << 16];
    private int len;

    ByteSink(OutputStream out) {
        this.out = out;
    }

    private void room(int n) throws IOException {
        if (len + n > buf.length) {
            flushBuffer();
            if (n > buf.length) {
                buf = new byte[Math.max(n, buf.length * 2)];
            }
        }
    }

    void flushBuffer() throws IOException {
        if (len > 0) {
            out.write(buf, 0, len);
            len = 0;
        }
    }

    /** Writes out the buffer and flushes the stream, leaving it open. */
    void flush() throws IOException {
        flushBuffer();
        out.flush();
    }

    void write(int b) throws IOException {
        if (len == buf.length) {
            flushBuffer();
        }
        buf[len++] = (byte) b;
    }

    void write(byte[] b, int off, int n) throws IOException {
        room(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    void tabs(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            write('\t');
        }
    }

    void writeLong(long v) throws IOException {
        if (v >= 0 && v < 10) {
            write((int) ('0' + v));
            return;
        }
        writeUtf8(Long.toString(v));
    }

    /** Writes text {@code s} (a name, a number, a setting's text) encoded as UTF-8, unescaped. */
    void writeUtf8(CharSequence s) throws IOException {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (len == buf.length) {
                    flushBuffer();
                }
                buf[len++] = (byte) c;
            } else {
                i = writeNonAscii(s, i, c);
            }
        }
    }

    /** Writes byte string {@code s} unescaped, one byte per char. */
    void writeBytes(CharSequence s) throws IOException {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c <= 0xFF) {
                if (len == buf.length) {
                    flushBuffer();
                }
                buf[len++] = (byte) c;
            } else {
                i = writeNonAscii(s, i, c);
            }
        }
    }

    /** Writes byte string char {@code c} at {@code i} as its byte (above 255: as UTF-8); returns the last index used. */
    private int writeByte(CharSequence s, int i, char c) throws IOException {
        if (c <= 0xFF) {
            write(c);
            return i;
        }
        return writeNonAscii(s, i, c);
    }

    /** Encodes the non-ASCII char at {@code i} (a surrogate pair as one code point); returns the last index used. */
    private int writeNonAscii(CharSequence s, int i, char c) throws IOException {
        room(4);
        if (c < 0x800) {
            buf[len++] = (byte) (0xC0 | (c >> 6));
            buf[len++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
            int cp = Character.toCodePoint(c, s.charAt(i + 1));
            buf[len++] = (byte) (0xF0 | (cp >> 18));
            buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[len++] = (byte) (0x80 | (cp & 0x3F));
            return i + 1;
        } else if (Character.isSurrogate(c)) {
            buf[len++] = '?';
        } else {
            buf[len++] = (byte) (0xE0 | (c >> 12));
            buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
            buf[len++] = (byte) (0x80 | (c & 0x3F));
        }
        return i;
    }

    /**
     * Writes {@code s} with TabSeparated escaping: backslash, tab, line feed, carriage return, backspace, form
     * feed, NUL and {@code quote} get a backslash escape ({@code '} for values, {@code =} for TSKV names).
     */
    void writeEscaped(CharSequence s, char quote) throws IOException {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                i = writeByte(s, i, c);
                continue;
            }
            char e;
            switch (c) {
                case '\\': e = '\\'; break;
                case '\t': e = 't'; break;
                case '\n': e = 'n'; break;
                case '\r': e = 'r'; break;
                case '\b': e = 'b'; break;
                case '\f': e = 'f'; break;
                case '\0': e = '0'; break;
                default: e = c == quote ? c : 0;
            }
            if (len + 2 > buf.length) {
                flushBuffer();
            }
            if (e != 0) {
                buf[len++] = '\\';
                buf[len++] = (byte) e;
            } else {
                buf[len++] = (byte) c;
            }
        }
    }

    /** Writes {@code s} as a CSV field in double quotes, a quote inside doubled. */
    void writeCsvQuoted(CharSequence s) throws IOException {
        write('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                i = writeByte(s, i, c);
            } else {
                if (c == '"') {
                    write('"');
                }
                write(c);
            }
        }
        write('"');
    }

    /**
     * Writes {@code s} as a JSON string literal the way ClickHouse does: the short escapes, other control
     * characters as a backslash-u escape, U+2028/U+2029 (bytes E2 80 A8/A9) escaped, and {@code /} as
     * {@code \/} when asked. Other bytes go out as they are, invalid UTF-8 too, unless {@code validUtf8} asks
     * for each byte that is not part of a valid UTF-8 sequence to become U+FFFD (as the JSON format always does,
     * and JSONEachRow with output_format_json_validate_utf8).
     */
    void writeJsonString(CharSequence s, boolean escapeSlash, boolean validUtf8) throws IOException {
        write('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c == 0xE2 && i + 2 < n && s.charAt(i + 1) == 0x80
                    && (s.charAt(i + 2) == 0xA8 || s.charAt(i + 2) == 0xA9)) {
                    writeUtf8(s.charAt(i + 2) == 0xA8 ? "\\u2028" : "\\u2029");
                    i += 2;
                } else if (c == 0x2028 || c == 0x2029) {
                    writeUtf8(c == 0x2028 ? "\\u2028" : "\\u2029");
                } else if (c > 0xFF || !validUtf8) {
                    i = writeByte(s, i, c);
                } else {
                    int k = ByteStrings.utf8SequenceLength(s, i);
                    if (k == 0) {
                        write(0xEF);
                        write(0xBF);
                        write(0xBD);
                    } else {
                        for (int j = i; j < i + k; j++) {
                            write(s.charAt(j));
                        }
                        i += k - 1;
                    }
                }
                continue;
            }
            switch (c) {
                case '"': write('\\'); write('"'); break;
                case '\\': write('\\'); write('\\'); break;
                case '\n': write('\\'); write('n'); break;
                case '\t': write('\\'); write('t'); break;
                case '\r': write('\\'); write('r'); break;
                case '\b': write('\\'); write('b'); break;
                case '\f': write('\\'); write('f'); break;
                case '/':
                    if (escapeSlash) {
                        write('\\');
                    }
                    write('/');
                    break;
                default:
                    if (c < 0x20) {
                        write('\\');
                        write('u');
                        write('0');
                        write('0');
                        write(HEX[c >> 4]);
                        write(HEX[c & 0xF]);
                    } else {
                        write(c);
                    }
            }
        }
        write('"');
    }
}
