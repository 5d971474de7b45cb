package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The buffered byte cursor the text input formats scan: peeks and consumes bytes, and can keep a span that is
 * still being scanned in the buffer while refilling ({@link #more(int)}), so a field is cut out of the buffer
 * without copying in the common case. Cuts spans out as byte-string values or as UTF-8 names, and renders the
 * "before: '...'" excerpts of ClickHouse's parse errors. Not thread-safe; one per reader.
 */
final class ByteInput {
    private final InputStream in;
    byte[] buf;
    int pos;
    int lim;
    private boolean eof;
    /** Small inputs (one-row inserts) start with a small buffer; a stream that keeps filling it grows it to this. */
    private static final int MAX_READ_BUFFER = 1 << 16;
    private boolean lastReadFilled;

    ByteInput(InputStream in) {
        this.in = in;
        this.buf = new byte[1 << 13];
    }

    /**
     * Reads more bytes after {@link #lim}, first moving the bytes from {@code keepFrom} on to the buffer start
     * (growing the buffer when they fill it). Returns how far positions moved down (0 or more; at least one byte
     * was added), which the caller subtracts from the positions it holds. Returns -1 at the end of input, and
     * then nothing has moved: every position from {@code keepFrom} on still points at the same byte (bytes
     * before {@code keepFrom} may be gone), so a caller can finish the span it was scanning.
     */
    int more(int keepFrom) {
        if (eof) {
            return -1;
        }
        int shift = 0;
        if (keepFrom > 0) {
            System.arraycopy(buf, keepFrom, buf, 0, lim - keepFrom);
            lim -= keepFrom;
            pos -= keepFrom;
            shift = keepFrom;
        }
        if (lim == buf.length || lastReadFilled && buf.length < MAX_READ_BUFFER && lim > buf.length / 2) {
            byte[] bigger = new byte[buf.length * 2];
            System.arraycopy(buf, 0, bigger, 0, lim);
            buf = bigger;
        }
        int n;
        try {
            n = in.read(buf, lim, buf.length - lim);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (n <= 0) {
            eof = true;
            if (shift > 0) {
                System.arraycopy(buf, 0, buf, shift, lim);
                lim += shift;
                pos += shift;
            }
            return -1;
        }
        lastReadFilled = n == buf.length - lim;
        lim += n;
        return shift;
    }

    /** The next byte without consuming it, or -1 at the end of input. */
    int peek() {
        if (pos < lim || more(pos) >= 0 && pos < lim) {
            return buf[pos] & 0xFF;
        }
        return -1;
    }

    /** The byte {@code ahead} positions after the current one, or -1 past the end of input. */
    int peekAt(int ahead) {
        while (pos + ahead >= lim) {
            if (more(pos) < 0) {
                return -1;
            }
        }
        return buf[pos + ahead] & 0xFF;
    }

    int read() {
        int b = peek();
        if (b >= 0) {
            pos++;
        }
        return b;
    }

    boolean atEnd() {
        return peek() < 0;
    }

    boolean tryByte(int b) {
        if (peek() == b) {
            pos++;
            return true;
        }
        return false;
    }

    /** Skips ASCII whitespace (space, \t, \n, \r, \f, \v). */
    void skipWhitespace() {
        while (true) {
            int b = peek();
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 11) {
                pos++;
            } else {
                return;
            }
        }
    }

    /** Skips a UTF-8 byte order mark at the current position. */
    void skipBom() {
        if (peek() == 0xEF && peekAt(1) == 0xBB && peekAt(2) == 0xBF) {
            pos += 3;
        }
    }

    /** The span as a String value: one char per byte ({@link dev.chdedup.stub.types.ByteStrings}). */
    String bytes(int from, int to) {
        return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** The span decoded as UTF-8 text, for names (header fields, keys) and messages. */
    String utf8(int from, int to) {
        return new String(buf, from, to - from, StandardCharsets.UTF_8);
    }

    /** Up to 40 bytes from the current position, for error messages, with the end marked as ClickHouse does. */
    String excerpt() {
        peekAt(40);
        int end = Math.min(lim, pos + 40);
        if (pos >= end) {
            return "<EOF>";
        }
        return utf8(pos, end);
    }

    /** ClickHouse's "expected X before: '...'" assertion failure at the current position. */
    ChException expected(String what) {
        return new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
            "Cannot parse input: expected " + what + " before: " + quoteExcerpt());
    }

    String quoteExcerpt() {
        String e = excerpt();
        return e.equals("<EOF>") ? e : "'" + e + "'";
    }

    /** How a byte is shown in ClickHouse's messages: '\t', '\n' or the character itself. */
    static String show(int b) {
        switch (b) {
            case '\t': return "'\\t'";
            case '\n': return "'\\n'";
            case '\r': return "'\\r'";
            case -1: return "<EOF>";
            default: return "'" + (char) b + "'";
        }
    }
}
