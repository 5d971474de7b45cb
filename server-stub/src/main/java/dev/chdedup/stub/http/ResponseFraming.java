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

    /** {@code Transfer-Encoding: chunked}, gathering small writes into chunks of a bounded size. */
    static final class Chunked extends ResponseFraming {
        private static final byte[] CRLF = {'\r', '\n'};
        private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};
        private final OutputStream out;
        private final byte[] buf;
        private final byte[] sizeLine = new byte[18];
        private int count;
        private long written;

        Chunked(OutputStream out, int chunkSize) {
            this.out = out;
            this.buf = new byte[chunkSize];
        }

        @Override
        public void write(int b) throws IOException {
            if (count == buf.length) {
                emit();
            }
            buf[count++] = (byte) b;
            written++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            written += len;
            if (len >= buf.length) {
                emit();
                writeChunk(b, off, len);
                return;
            }
            while (len > 0) {
                int n = Math.min(len, buf.length - count);
                System.arraycopy(b, off, buf, count, n);
                count += n;
                off += n;
                len -= n;
                if (count == buf.length) {
                    emit();
                }
            }
        }

        private void emit() throws IOException {
            if (count > 0) {
                writeChunk(buf, 0, count);
                count = 0;
            }
        }

        private void writeChunk(byte[] b, int off, int len) throws IOException {
            int p = sizeLine.length;
            sizeLine[--p] = '\n';
            sizeLine[--p] = '\r';
            int v = len;
            do {
                sizeLine[--p] = (byte) "0123456789abcdef".charAt(v & 0xf);
                v >>>= 4;
            } while (v != 0);
            out.write(sizeLine, p, sizeLine.length - p);
            out.write(b, off, len);
            out.write(CRLF);
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
