package dev.chdedup.stub.server;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body read as ClickHouse 18.16 reads it: where the body ends before its framing said (short of its
 * {@code Content-Length}, or without its final chunk, the client having stopped sending), it simply ends there. Measured
 * on a real 18.16.1: a VALUES body announced as 50 rows and cut after 12 complete ones landed the 12 and was answered
 * 200 (with Content-Length, chunked, or cut inside a chunk, in the URL's query with TabSeparated data too); cut inside a
 * row, it failed to parse (400) and nothing landed; a reset instead of an end wrote nothing. A complete body reads
 * unchanged.
 */
final class CutBodyInputStream extends FilterInputStream {
    CutBodyInputStream(InputStream body) {
        super(body);
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (EOFException cut) {
            return -1;
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (EOFException cut) {
            return -1;
        }
    }
}
