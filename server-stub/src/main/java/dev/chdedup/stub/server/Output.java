package dev.chdedup.stub.server;

import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.compress.CompressedBlockOutputStream;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.format.FormatSettings;
import dev.chdedup.stub.format.Formats;
import dev.chdedup.stub.format.RowWriter;
import dev.chdedup.stub.http.ContentEncoding;
import dev.chdedup.stub.http.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The response body of one query: buffers the result up to {@link HttpInterface#RESPONSE_BUFFER} bytes so that
 * an error before then still gets a proper status, then streams; applies native LZ4 framing ({@code compress=1})
 * and HTTP compression ({@code enable_http_compression=1}: gzip, deflate, zstd, lz4); an error after the body started is appended to it,
 * as ClickHouse does.
 */
final class Output {
    private final HttpResponse resp;
    private final boolean nativeCompress;
    private final String httpEncoding;
    /** http_zlib_compression_level, for gzip and deflate. */
    private final int zlibLevel;
    /** Whether Summary and Format headers are sent (an older server sends neither). */
    private final boolean queryHeaders;
    /** Whether every response is chunked, as ClickHouse 18.16 sends even an empty or a known-length body. */
    private final boolean alwaysChunked;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private OutputStream sink;
    private boolean committed;
    /** The query's process list entry, which counts what it read; null when not attached. */
    private dev.chdedup.stub.exec.ProcessList.Entry process;

    Output(HttpResponse resp, boolean nativeCompress, String acceptEncoding, int zlibLevel, CompatibilityProfile compat) {
        this.resp = resp;
        this.queryHeaders = compat.queryHeaders();
        this.alwaysChunked = compat.legacyFraming();
        this.nativeCompress = nativeCompress;
        this.httpEncoding = ContentEncoding.choose(acceptEncoding);
        this.zlibLevel = Math.max(1, Math.min(9, zlibLevel));
    }

    /** Takes the read_rows, read_bytes and rows_before_limit figures of the query from its process list entry. */
    void attach(dev.chdedup.stub.exec.ProcessList.Entry entry) {
        this.process = entry;
    }

    /** X-ClickHouse-Summary with the rows and bytes the query read, as counted on its process list entry. */
    String summary(long writtenRows, long writtenBytes, long resultRows, long resultBytes, long elapsedNs) {
        long readRows = process == null ? 0 : process.readRows();
        long readBytes = process == null ? 0 : process.readBytes();
        long toRead = process == null ? 0 : process.tableRowsRead();
        return "{\"read_rows\":\"" + readRows + "\",\"read_bytes\":\"" + readBytes + "\",\"written_rows\":\"" + writtenRows
            + "\",\"written_bytes\":\"" + writtenBytes + "\",\"total_rows_to_read\":\"" + toRead + "\",\"result_rows\":\"" + resultRows
            + "\",\"result_bytes\":\"" + resultBytes + "\",\"elapsed_ns\":\"" + elapsedNs + "\"}";
    }

    HttpResponse response() {
        return resp;
    }

    boolean committed() {
        return committed;
    }

    /** A statement with no result: status 200, an empty body, the summary. */
    void finishEmpty(String summary) throws IOException {
        resp.status(200);
        if (queryHeaders) {
            resp.header("X-ClickHouse-Summary", summary);
        }
        resp.contentType("text/plain; charset=UTF-8");
        committed = true;
        if (alwaysChunked) {
            resp.body().flush(); // commits without a length: a chunked body of one zero-size chunk
        } else {
            resp.contentLength(0);
        }
    }

    /** Whether a block is columnar with the result's types, so a format may write it from the columns. */
    private static boolean sameTypes(Block b, List<Column> header) {
        if (b.data() == null || b.data().length != header.size()) {
            return false;
        }
        for (int i = 0; i < header.size(); i++) {
            if (!b.data()[i].type().equals(header.get(i).type())) {
                return false;
            }
        }
        return true;
    }

    void writeRows(SelectExecutor.Stream stream, String format, QueryContext ctx, long startNanos) throws IOException {
        // the result's JSON objects are written (and, as the stream is read, computed) under the query's quoting
        boolean quote64 = dev.chdedup.stub.format.FormatSettings.of(ctx.settings().changed()).jsonQuote64bitIntegers;
        try (dev.chdedup.stub.types.SessionTimeZone.Scope q = dev.chdedup.stub.types.JsonQuoting.use(quote64)) {
            writeRowsQuoted(stream, format, ctx, startNanos);
        }
    }

    private void writeRowsQuoted(SelectExecutor.Stream stream, String format, QueryContext ctx, long startNanos) throws IOException {
        String canonical = Formats.canonicalName(format);
        resp.status(200);
        resp.contentType(Formats.contentType(canonical));
        if (queryHeaders) {
            resp.header("X-ClickHouse-Format", canonical);
        }
        OutputStream target = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (sink != null) {
                    sink.write(b, off, len);
                    return;
                }
                buffer.write(b, off, len);
                if (buffer.size() > HttpInterface.RESPONSE_BUFFER) {
                    commit(-1);
                }
            }
        };
        long rowsOut = 0;
        RowWriter w = Formats.openOutput(canonical, target, stream.columns(), FormatSettings.of(ctx.settings().changed()));
        while (stream.blocks().hasNext()) {
            Block b = stream.blocks().next();
            if (sameTypes(b, stream.columns())) {
                w.writeColumns(b.data(), b.rowCount());
            } else {
                w.writeRowBlock(b.rows());
            }
            rowsOut += b.rowCount();
        }
        if (process != null) {
            process.returned(rowsOut);
        }
        w.setStatistics((System.nanoTime() - startNanos) / 1e9, process == null ? rowsOut : process.readRows(),
            process == null ? 0 : process.readBytes());
        if (process != null && process.rowsBeforeLimit() >= 0) {
            w.setRowsBeforeLimit(process.rowsBeforeLimit());
        }
        w.finish();
        if (sink == null && queryHeaders) {
            resp.header("X-ClickHouse-Summary", summary(0, 0, rowsOut, buffer.size(), System.nanoTime() - startNanos));
        }
        if (sink == null) {
            commit(buffer.size());
        }
        sink.close();
    }

    private void commit(long knownLength) throws IOException {
        committed = true;
        if (httpEncoding != null) {
            resp.header("Content-Encoding", httpEncoding);
        }
        if (knownLength >= 0 && httpEncoding == null && !nativeCompress && !alwaysChunked) {
            resp.contentLength(knownLength);
        }
        OutputStream raw = resp.body();
        OutputStream s = new NonClosing(raw);
        if (httpEncoding != null) {
            s = ContentEncoding.encoder(httpEncoding, s, zlibLevel);
        }
        if (nativeCompress) {
            s = new CompressedBlockOutputStream(s);
        }
        sink = s;
        if (buffer.size() > 0) {
            buffer.writeTo(sink);
        }
        buffer.reset();
    }

    /**
     * Writes an error into a response whose body already started, then cuts the connection without ending the body.
     * With an exception tag (the current server) the error is the tagged block ClickHouse 25.11+ writes:
     * {@code \r\n__exception__\r\n<tag>\r\n<message>\n<length of message and newline> <tag>\r\n__exception__\r\n};
     * without one (older servers) the error text follows the data on a line of its own.
     */
    void appendError(String errorBody, String exceptionTag) {
        try {
            if (sink != null) {
                sink.write(exceptionBlock(errorBody, exceptionTag));
                sink.close();
            }
            resp.cutBody();
        } catch (IOException ignored) {
            resp.abort();
        }
    }

    /** The bytes {@link #appendError} appends for {@code errorBody} (which ends with its newline). */
    static byte[] exceptionBlock(String errorBody, String exceptionTag) {
        byte[] message = errorBody.getBytes(StandardCharsets.UTF_8);
        if (exceptionTag == null) {
            return ("\n" + errorBody).getBytes(StandardCharsets.UTF_8);
        }
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(message.length + 80);
        b.writeBytes(("\r\n__exception__\r\n" + exceptionTag + "\r\n").getBytes(StandardCharsets.US_ASCII));
        b.writeBytes(message);
        b.writeBytes((message.length + " " + exceptionTag + "\r\n__exception__\r\n").getBytes(StandardCharsets.US_ASCII));
        return b.toByteArray();
    }

    /**
     * Writes an error body into a response not committed yet: LZ4-framed where the server frames errors under
     * {@code compress=1} (18.16 does), else as it is.
     */
    void writeErrorBody(byte[] text) throws IOException {
        if (alwaysChunked && nativeCompress) {
            try (OutputStream s = new CompressedBlockOutputStream(new NonClosing(resp.body()))) {
                s.write(text);
            }
        } else {
            resp.body().write(text);
        }
    }

    static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
