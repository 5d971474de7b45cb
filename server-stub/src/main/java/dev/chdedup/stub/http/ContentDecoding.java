package dev.chdedup.stub.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * Applies the request's {@code Content-Encoding} to the raw body stream: {@code gzip} / {@code x-gzip},
 * {@code deflate} (zlib-wrapped, or raw deflate as some clients send it), {@code zstd} and {@code lz4} (the LZ4
 * frame format, as ClickHouse reads it) are decoded transparently; {@code identity} passes through; anything else
 * raises {@link UnsupportedContentEncodingException}. Decoders are
 * created lazily on the first read, so obtaining the stream never blocks on the network.
 */
final class ContentDecoding {

    private ContentDecoding() {
    }

    /** Wraps {@code raw} in decoders for the comma-separated {@code encodings}, applied in reverse order. */
    static InputStream wrap(InputStream raw, String encodings) throws UnsupportedContentEncodingException {
        if (encodings == null || encodings.isBlank()) {
            return raw;
        }
        String[] parts = encodings.split(",");
        for (String part : parts) { // validate all before wrapping anything
            String e = part.trim().toLowerCase(Locale.ROOT);
            if (!e.equals("gzip") && !e.equals("x-gzip") && !e.equals("deflate") && !e.equals("identity") && !e.equals("zstd")
                && !e.equals("lz4")) {
                throw new UnsupportedContentEncodingException(e);
            }
        }
        InputStream s = raw;
        for (int i = parts.length - 1; i >= 0; i--) {
            String e = parts[i].trim().toLowerCase(Locale.ROOT);
            InputStream inner = s;
            if (e.equals("gzip") || e.equals("x-gzip")) {
                s = new Lazy(() -> new GZIPInputStream(inner, 8192));
            } else if (e.equals("deflate")) {
                s = new Lazy(() -> inflating(inner));
            } else if (e.equals("zstd")) {
                s = new Lazy(() -> new com.github.luben.zstd.ZstdInputStream(inner));
            } else if (e.equals("lz4")) {
                s = new Lazy(() -> new net.jpountz.lz4.LZ4FrameInputStream(inner));
            }
            if (!e.equals("identity")) {
                s = new Checked(s, e);
            }
        }
        return s;
    }

    /** Zlib-wrapped deflate per RFC 9110, falling back to raw deflate when the first two bytes are no zlib header. */
    private static InputStream inflating(InputStream in) throws IOException {
        PushbackInputStream pb = new PushbackInputStream(in, 2);
        int b0 = pb.read();
        int b1 = b0 < 0 ? -1 : pb.read();
        if (b1 >= 0) {
            pb.unread(b1);
        }
        if (b0 >= 0) {
            pb.unread(b0);
        }
        boolean zlib = b1 >= 0 && (b0 & 0x0f) == 8 && ((b0 << 8) | b1) % 31 == 0;
        Inflater inflater = new Inflater(!zlib);
        return new InflaterInputStream(pb, inflater, 8192) {
            private boolean ended;

            @Override
            public void close() throws IOException {
                if (!ended) {
                    ended = true;
                    inflater.end();
                }
                super.close();
            }
        };
    }

    /** Reports a decoder's failure on bad input as a {@link CorruptedContentException} naming the encoding. */
    private static final class Checked extends FilterInputStream {
        private final String encoding;

        Checked(InputStream in, String encoding) {
            super(in);
            this.encoding = encoding;
        }

        private IOException corrupted(Exception e) {
            // framing errors of the body under the decoder keep their own status
            return e instanceof CorruptedContentException || e instanceof HttpException ? (IOException) e
                : new CorruptedContentException(encoding, e);
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException | RuntimeException e) {
                throw corrupted(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                throw corrupted(e);
            }
        }
    }

    private interface Opener {
        InputStream open() throws IOException;
    }

    /** Defers creating a decoder (which reads a header) until the stream is actually read. */
    private static final class Lazy extends FilterInputStream {
        private Opener opener;

        Lazy(Opener opener) {
            super(null);
            this.opener = opener;
        }

        private InputStream target() throws IOException {
            if (in == null) {
                in = opener.open();
                opener = null;
            }
            return in;
        }

        @Override
        public int read() throws IOException {
            return target().read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return target().read(b, off, len);
        }

        @Override
        public long skip(long n) throws IOException {
            return target().skip(n);
        }

        @Override
        public int available() throws IOException {
            return in == null ? 0 : in.available();
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }
}
