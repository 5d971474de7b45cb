package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The wire framing of a response body, chosen when the response is committed: chunked transfer coding,
 * a fixed Content-Length, close-delimited (HTTP/1.0 peers without a length) or discarded (HEAD, 204, 304).
 * All variants write into the connection's buffered output and never close it; {@link #finish()} completes the
 * framing and reports whether the connection is still usable for another response.
 */
abstract class ResponseFraming extends OutputStream {

    /** Ends the body on the wire (without flushing); false if the connection must be closed afterwards. */
    abstract boolean finish() throws IOException;

    /** Bytes the handler wrote. */
    abstract long written();

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    /**
     * {@code Transfer-Encoding: chunked}, gathering small writes into chunks of a bounded size. A chunk goes to the
     * connection as one write, its size line and closing CRLF around the data in the same array, so a large result
     * costs one write call per chunk.
     */
    static final class Chunked extends ResponseFraming {
        private static final byte[] CRLF = {'\r', '\n'};
        private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
        /** Room before the data for the size line: up to 8 hexadecimal digits (a chunk is below 2^32) and CRLF. */
        private static final int HEAD = 10;
        private final OutputStream out;
        /** The size line's room, the chunk's data, and room for the CRLF after it. */
        private final byte[] buf;
        private final int chunkSize;
        private final byte[] sizeLine = new byte[HEAD];
        private int count;
        private long written;

        Chunked(OutputStream out, int chunkSize) {
            this.out = out;
            this.chunkSize = chunkSize;
            this.buf = new byte[HEAD + chunkSize + 2];
        }

        @Override
        public void write(int b) throws IOException {
            if (count == chunkSize) {
                emit();
            }
            buf[HEAD + count++] = (byte) b;
            written++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            written += len;
            if (len >= chunkSize) {
                emit();
                int p = sizeLine(sizeLine, len);
                out.write(sizeLine, p, HEAD - p);
                out.write(b, off, len);
                out.write(CRLF);
                return;
            }
            while (len > 0) {
                int n = Math.min(len, chunkSize - count);
                System.arraycopy(b, off, buf, HEAD + count, n);
                count += n;
                off += n;
                len -= n;
                if (count == chunkSize) {
                    emit();
                }
            }
        }

        /** Writes the gathered chunk, size line and CRLF included, in one write. */
        private void emit() throws IOException {
            if (count > 0) {
                int p = sizeLine(buf, count);
                buf[HEAD + count] = '\r';
                buf[HEAD + count + 1] = '\n';
                out.write(buf, p, HEAD - p + count + 2);
                count = 0;
            }
        }

        /** Writes the size line of a chunk of {@code len} bytes so that it ends at {@link #HEAD}; returns where it starts. */
        private static int sizeLine(byte[] into, int len) {
            int p = HEAD;
            into[--p] = '\n';
            into[--p] = '\r';
            int v = len;
            do {
                into[--p] = (byte) "0123456789abcdef".charAt(v & 0xf);
                v >>>= 4;
            } while (v != 0);
            return p;
        }

        @Override
        public void flush() throws IOException {
            emit();
            out.flush();
        }

        @Override
        boolean finish() throws IOException {
            emit();
            out.write(LAST_CHUNK);
            return true;
        }

        @Override
        long written() {
            return written;
        }
    }

    /** A body of a declared length; writing more fails, writing less leaves the connection unusable. */
    static final class Fixed extends ResponseFraming {
        private final OutputStream out;
        private final long length;
        private long written;

        Fixed(OutputStream out, long length) {
            this.out = out;
            this.length = length;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (written + len > length) {
                throw new IOException("Response body exceeds its Content-Length of " + length);
            }
            out.write(b, off, len);
            written += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        boolean finish() {
            return written == length;
        }

        @Override
        long written() {
            return written;
        }
    }

    /** Close-delimited body for HTTP/1.0 peers: the end of the body is the end of the connection. */
    static final class UntilClose extends ResponseFraming {
        private final OutputStream out;
        private long written;

        UntilClose(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            written += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        boolean finish() {
            return false;
        }

        @Override
        long written() {
            return written;
        }
    }

    /** No body on the wire (HEAD, 1xx, 204, 304); bytes are only counted. */
    static final class Discard extends ResponseFraming {
        private long written;

        @Override
        public void write(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            written += len;
        }

        @Override
        boolean finish() {
            return true;
        }

        @Override
        long written() {
            return written;
        }
    }
}
