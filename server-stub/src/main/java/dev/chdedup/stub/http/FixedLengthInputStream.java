package dev.chdedup.stub.http;

import java.io.EOFException;
import java.io.IOException;

/**
 * A request body framed by {@code Content-Length} (or an absent body, length 0): yields exactly that many bytes,
 * and treats an end of stream before them as a truncated request.
 */
final class FixedLengthInputStream extends BodyInputStream {

    private long remaining;

    FixedLengthInputStream(ConnectionInput in, long length) {
        super(in);
        this.remaining = length;
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw new EOFException("Request body is shorter than its Content-Length (" + remaining + " bytes missing)");
        }
        remaining -= n;
        return n;
    }

    @Override
    protected boolean knownEmpty() {
        return remaining == 0;
    }

    @Override
    public int available() {
        return (int) Math.min(in.buffered(), remaining);
    }
}
