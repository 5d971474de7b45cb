package dev.chdedup.stub.server;

import dev.chdedup.stub.exec.QueryContext;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body read as a server that commits a cut-off request reads it (ClickHouse 18.16, measured: a body cut short
 * of its {@code Content-Length}, or without its final chunk, landed its complete rows and was answered 200): where the
 * body ends before its framing said, it ends there, and the query is told ({@link QueryContext#markBodyCut}) so that the
 * insert keeps the complete rows it read and drops the partial last one. A body that is complete reads unchanged.
 */
final class CutBodyInputStream extends FilterInputStream {
    private final QueryContext ctx;

    CutBodyInputStream(InputStream body, QueryContext ctx) {
        super(body);
        this.ctx = ctx;
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (EOFException cut) {
            ctx.markBodyCut();
            return -1;
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (EOFException cut) {
            ctx.markBodyCut();
            return -1;
        }
    }
}
