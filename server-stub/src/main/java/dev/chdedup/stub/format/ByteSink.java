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
        if (v == Long.MIN_VALUE) {
            writeUtf8(Long.toString(v));
            return;
        }
        room(20);
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        writeDigits(v);
    }

    /** Writes {@code v} as an unsigned 64-bit number (a UInt64 at or above 2^63 is negative as a long). */
    void writeUnsignedLong(long v) throws IOException {
        if (v < 0) {
            writeUtf8(Long.toUnsignedString(v));
        } else {
            writeLong(v);
        }
    }

    /** "00" to "99", two bytes each: the digits of a number are written two at a time, as ClickHouse's itoa does. */
    private static final byte[] PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    /** The decimal digits of {@code v >= 0}, in room already made. */
    private void writeDigits(long v) {
        int n = 1;
        for (long p = 10; n < 19 && v >= p; p *= 10) {
            n++;
        }
        int i = len + n;
        len = i;
        while (v >= 100) {
            long q = v / 100;
            int r = 2 * (int) (v - q * 100);
            buf[--i] = PAIRS[r + 1];
            buf[--i] = PAIRS[r];
            v = q;
        }
        if (v >= 10) {
            int r = 2 * (int) v;
            buf[--i] = PAIRS[r + 1];
            buf[--i] = PAIRS[r];
        } else {
            buf[--i] = (byte) ('0' + v);
        }
    }

    private long lastDay = Long.MIN_VALUE;
    private final byte[] lastDate = new byte[10];

    /** Writes local time {@code local} (seconds since 1970-01-01 00:00:00 in the value's time zone) as {@code YYYY-MM-DD hh:mm:ss}. */
    void writeDateTime(long local) throws IOException {
        long day = Math.floorDiv(local, 86400L);
        int sec = (int) Math.floorMod(local, 86400L);
        if (day != lastDay) {
            java.time.LocalDate d = java.time.LocalDate.ofEpochDay(day);
            int y = d.getYear();
            if (y < 0 || y > 9999) {
                writeUtf8(d + " " + String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", sec / 3600, sec / 60 % 60, sec % 60));
                return;
            }
            lastDate[0] = (byte) ('0' + y / 1000);
            lastDate[1] = (byte) ('0' + y / 100 % 10);
            lastDate[2] = (byte) ('0' + y / 10 % 10);
            lastDate[3] = (byte) ('0' + y % 10);
            lastDate[4] = '-';
            lastDate[5] = (byte) ('0' + d.getMonthValue() / 10);
            lastDate[6] = (byte) ('0' + d.getMonthValue() % 10);
            lastDate[7] = '-';
            lastDate[8] = (byte) ('0' + d.getDayOfMonth() / 10);
            lastDate[9] = (byte) ('0' + d.getDayOfMonth() % 10);
            lastDay = day;
        }
        room(19);
        System.arraycopy(lastDate, 0, buf, len, 10);
        len += 10;
        buf[len++] = ' ';
        two(sec / 3600);
        buf[len++] = ':';
        two(sec / 60 % 60);
        buf[len++] = ':';
        two(sec % 60);
    }

    private void two(int x) {
        buf[len++] = (byte) ('0' + x / 10);
        buf[len++] = (byte) ('0' + x % 10);
    }

    /** The letter after the backslash that escapes ASCII {@code c} in TabSeparated, or 0 when it stays as it is. */
    private static char escapeOf(int c, char quote) {
        switch (c) {
            case '\\': return '\\';
            case '\t': return 't';
            case '\n': return 'n';
            case '\r': return 'r';
            case '\b': return 'b';
            case '\f': return 'f';
            case 0: return '0';
            default: return c == quote ? quote : 0;
        }
    }

    private static final long BACKSLASHES = ByteWords.repeat('\\');

    /**
     * Whether one of the eight bytes of {@code w} is below 0x20, a backslash or the byte {@code quotes} repeats: the
     * bytes TabSeparated may escape. Exact: no word with one of them is passed over.
     */
    private static boolean mayNeedEscape(long w, long quotes) {
        return (ByteWords.below(w, 0x20) | ByteWords.equal(w, BACKSLASHES) | ByteWords.equal(w, quotes)) != 0;
    }

    /** Writes bytes {@code b[off, off + n)} with TabSeparated escaping ({@link #writeEscaped(CharSequence, char)}). */
    void writeEscaped(byte[] b, int off, int n, char quote) throws IOException {
        int end = off + n;
        int run = off;
        long quotes = quote < 0x80 ? ByteWords.repeat(quote) : BACKSLASHES;
        for (int i = off; i < end; i++) {
            // eight bytes at a time while none of them needs an escape (most values have none at all)
            while (i + 8 <= end && !mayNeedEscape(ByteWords.word(b, i), quotes)) {
                i += 8;
            }
            if (i == end) {
                break;
            }
            int c = b[i] & 0xFF;
            if (c >= 0x20 && c != '\\' && c != quote || c >= 0x80) {
                continue;
            }
            char e = escapeOf(c, quote);
            if (e == 0) {
                continue;
            }
            write(b, run, i - run);
            room(2);
            buf[len++] = '\\';
            buf[len++] = (byte) e;
            run = i + 1;
        }
        write(b, run, end - run);
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
            char e = escapeOf(c, quote);
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
