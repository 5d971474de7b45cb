package dev.chdedup.stub.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The single read buffer of one connection. Request heads, chunk-size lines and body bytes are all taken from it,
 * so bytes of a pipelined next request that arrive together with the current one are never lost. It is
 * deliberately unsynchronized (one worker thread owns a connection) and reads lines with an explicit length
 * limit, so a client can never make the server buffer an unbounded line.
 */
final class ConnectionInput {

    private final InputStream in;
    private final byte[] buf;
    private int pos;
    private int lim;
    /** Bytes read elsewhere (the head waiter) that come before the stream's; consumed by {@link #fill()}. */
    private byte[] prefix;
    private int prefixPos;
    private int prefixLim;

    ConnectionInput(InputStream in, int bufferSize) {
        this.in = in;
        this.buf = new byte[bufferSize];
    }

    /** Number of bytes that can be read without blocking. */
    int buffered() {
        return lim - pos + prefixLim - prefixPos;
    }

    /**
     * Whether the peer has not closed its side: true when bytes are buffered or arrive (they stay buffered for the
     * next read), false on end of stream. A read that times out (the caller sets a short timeout) means connected.
     */
    boolean peek() throws IOException {
        return buffered() > 0 || fill() >= 0;
    }

    /** Puts bytes read elsewhere in front of the stream; only when nothing is buffered. */
    void prime(byte[] b, int len) {
        if (pos < lim || prefixPos < prefixLim) {
            throw new IllegalStateException("input still buffered");
        }
        prefix = b;
        prefixPos = 0;
        prefixLim = len;
    }

    private int fill() throws IOException {
        pos = 0;
        lim = 0;
        if (prefixPos < prefixLim) {
            int n = Math.min(buf.length, prefixLim - prefixPos);
            System.arraycopy(prefix, prefixPos, buf, 0, n);
            prefixPos += n;
            lim = n;
            if (prefixPos == prefixLim) {
                prefix = null;
            }
            return n;
        }
        int n = in.read(buf, 0, buf.length);
        if (n > 0) {
            lim = n;
        }
        return n;
    }

    int read() throws IOException {
        if (pos >= lim && fill() <= 0) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        int avail = lim - pos;
        if (avail <= 0) {
            if (len >= buf.length && prefixPos >= prefixLim) {
                return in.read(b, off, len); // large read: bypass the buffer
            }
            if (fill() <= 0) {
                return -1;
            }
            avail = lim;
        }
        int n = Math.min(avail, len);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
    }

    /**
     * Reads one line terminated by LF (a preceding CR is stripped) and decodes it as ISO-8859-1.
     *
     * @param max the longest accepted line in bytes, terminator excluded
     * @param tooLongStatus the status of the {@link HttpException} thrown when the line is longer than {@code max}
     * @param what a short name of the line for the error message
     * @return the line, or {@code null} on end of stream before the first byte
     * @throws EOFException on end of stream in the middle of a line
     */
    String readLine(int max, int tooLongStatus, String what) throws IOException {
        // fast path: the whole line is already buffered
        for (int i = pos; i < lim; i++) {
            if (buf[i] == '\n') {
                int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                if (end - pos > max) {
                    throw new HttpException(tooLongStatus, what + " is too long");
                }
                String line = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
                pos = i + 1;
                return line;
            }
        }
        return readLineSlow(max, tooLongStatus, what);
    }

    private String readLineSlow(int max, int tooLongStatus, String what) throws IOException {
        ByteArrayOutputStream acc = new ByteArrayOutputStream(Math.min(max + 2, 1024));
        boolean any = false;
        while (true) {
            if (pos >= lim && fill() <= 0) {
                if (!any) {
                    return null;
                }
                throw new EOFException("end of stream inside " + what);
            }
            any = true;
            int start = pos;
            while (pos < lim && buf[pos] != '\n') {
                pos++;
            }
            acc.write(buf, start, pos - start);
            if (pos < lim) {
                pos++; // consume LF
                byte[] line = acc.toByteArray();
                int len = line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
                if (len > max) {
                    throw new HttpException(tooLongStatus, what + " is too long");
                }
                return new String(line, 0, len, StandardCharsets.ISO_8859_1);
            }
            if (acc.size() > max + 1) { // +1: a CR may still be followed by LF
                throw new HttpException(tooLongStatus, what + " is too long");
            }
        }
    }
}
