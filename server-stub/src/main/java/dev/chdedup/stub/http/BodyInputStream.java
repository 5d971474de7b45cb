package dev.chdedup.stub.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Base of the raw (still content-encoded) request body streams: yields exactly the bytes of one request's body
 * from the shared connection buffer and then reports end of stream, leaving the next pipelined request untouched.
 * It runs a hook before the first read (used to send {@code 100 Continue}), remembers whether the framing broke
 * (after which the connection cannot be reused), and can drain an unread remainder with a byte bound.
 * {@link #close()} does not touch the socket.
 */
abstract class BodyInputStream extends InputStream {

    /** Called once, before the first body byte is requested. */
    interface ReadHook {
        void beforeFirstRead() throws IOException;
    }

    protected final ConnectionInput in;
    private ReadHook hook;
    private boolean started;
    private boolean eof;
    private boolean broken;
    private byte[] single;

    BodyInputStream(ConnectionInput in) {
        this.in = in;
    }

    /** Reads body bytes; returns -1 exactly at the end of the body. Never called with {@code len == 0}. */
    protected abstract int readBody(byte[] b, int off, int len) throws IOException;

    /** Whether the body is known to hold no further bytes without reading. */
    protected abstract boolean knownEmpty();

    void setHook(ReadHook hook) {
        this.hook = hook;
    }

    /** Whether a read was attempted (so a pending {@code 100 Continue} has been handled). */
    boolean started() {
        return started;
    }

    /** Whether the body was fully consumed or is known to be empty. */
    boolean finished() {
        return eof || knownEmpty();
    }

    /** Whether a framing error or truncation left the connection's byte stream in an unknown position. */
    boolean broken() {
        return broken;
    }

    @Override
    public final int read() throws IOException {
        if (single == null) {
            single = new byte[1];
        }
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (eof) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        if (!started) {
            started = true;
            if (hook != null && !knownEmpty()) {
                hook.beforeFirstRead();
            }
        }
        int n;
        try {
            n = readBody(b, off, len);
        } catch (IOException | RuntimeException e) {
            broken = true;
            eof = true;
            throw e;
        }
        if (n < 0) {
            eof = true;
        }
        return n;
    }

    /**
     * Reads and discards the rest of the body, at most {@code limit} bytes.
     *
     * @return true if the end of the body was reached, false if the limit was hit or the framing is broken
     */
    boolean drain(long limit) throws IOException {
        if (finished()) {
            return !broken;
        }
        byte[] scratch = new byte[8192];
        long total = 0;
        try {
            while (total <= limit) {
                int n = read(scratch, 0, scratch.length);
                if (n < 0) {
                    return true;
                }
                total += n;
            }
        } catch (HttpException | EOFException e) {
            return false;
        }
        return false;
    }

    @Override
    public void close() {
        // the connection owns the socket; unread bytes are drained by the server after the handler returns
    }
}
