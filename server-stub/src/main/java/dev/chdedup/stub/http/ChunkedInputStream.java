package dev.chdedup.stub.http;

import java.io.EOFException;
import java.io.IOException;

/**
 * A request body in {@code Transfer-Encoding: chunked}: decodes chunk-size lines (ignoring chunk extensions),
 * checks the CRLF after each chunk's data, and parses the trailer section after the last chunk, all bounded by
 * {@link HttpLimits}. A malformed size line or missing CRLF raises a 400 {@link HttpException}.
 */
final class ChunkedInputStream extends BodyInputStream {

    private final HttpHeaders trailers = new HttpHeaders();
    private long chunkRemaining;
    private boolean needCrlf;
    private boolean done;

    ChunkedInputStream(ConnectionInput in) {
        super(in);
    }

    /** The trailer fields, complete once the body was read to its end. */
    HttpHeaders trailers() {
        return trailers;
    }

    @Override
    protected int readBody(byte[] b, int off, int len) throws IOException {
        if (done) {
            return -1;
        }
        if (chunkRemaining == 0) {
            if (needCrlf) {
                readCrlf();
                needCrlf = false;
            }
            long size = readChunkSize();
            if (size == 0) {
                RequestDecoder.readFields(in, trailers, "Trailer");
                done = true;
                return -1;
            }
            chunkRemaining = size;
        }
        int n = in.read(b, off, (int) Math.min(len, chunkRemaining));
        if (n < 0) {
            throw new EOFException("end of stream inside a chunk");
        }
        chunkRemaining -= n;
        if (chunkRemaining == 0) {
            needCrlf = true;
        }
        return n;
    }

    private void readCrlf() throws IOException {
        int c = in.read();
        if (c == '\r') {
            c = in.read();
        }
        if (c != '\n') {
            if (c < 0) {
                throw new EOFException("end of stream after chunk data");
            }
            throw new HttpException(400, "Malformed chunked body: missing CRLF after chunk data");
        }
    }

    private long readChunkSize() throws IOException {
        String line = in.readLine(HttpLimits.MAX_CHUNK_SIZE_LINE, 400, "Chunk size line");
        if (line == null) {
            throw new EOFException("end of stream before a chunk size");
        }
        int end = line.indexOf(';');
        String hex = (end < 0 ? line : line.substring(0, end)).strip();
        if (hex.isEmpty() || hex.length() > HttpLimits.MAX_CHUNK_SIZE_DIGITS) {
            throw new HttpException(400, "Malformed chunked body: bad chunk size");
        }
        long size = 0;
        for (int i = 0; i < hex.length(); i++) {
            int d = hexDigit(hex.charAt(i));
            if (d < 0) {
                throw new HttpException(400, "Malformed chunked body: bad chunk size");
            }
            size = (size << 4) | d;
        }
        return size;
    }

    static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    @Override
    protected boolean knownEmpty() {
        return done;
    }

    @Override
    public int available() {
        return done ? 0 : (int) Math.min(in.buffered(), chunkRemaining);
    }
}
