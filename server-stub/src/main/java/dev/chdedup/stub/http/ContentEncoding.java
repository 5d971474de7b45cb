package dev.chdedup.stub.http;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * The response side of HTTP compression: picks the {@code Content-Encoding} for a request's {@code
 * Accept-Encoding} (gzip, then deflate, zstd, lz4, in ClickHouse's order of preference; br, xz, bz2 and snappy,
 * which ClickHouse also offers, are not, so a client asking only for them gets an uncompressed body) and wraps the
 * body stream in its encoder. Mirrors the choice in ClickHouse's {@code HTTPHandler} and its
 * {@code wrapWriteBufferWithCompressionMethod}.
 */
public final class ContentEncoding {
    private static final String[] PREFERENCE = {"gzip", "deflate", "zstd", "lz4"};

    private ContentEncoding() {
    }

    /** The encoding to answer with, or null for none. */
    public static String choose(String acceptEncoding) {
        if (acceptEncoding == null) {
            return null;
        }
        String a = acceptEncoding.toLowerCase(Locale.ROOT);
        for (String e : PREFERENCE) {
            if (a.contains(e)) {
                return e;
            }
        }
        return null;
    }

    /** {@code out} behind the encoder of {@code encoding}; {@code level} is the zlib level for gzip and deflate. */
    public static OutputStream encoder(String encoding, OutputStream out, int level) throws IOException {
        switch (encoding) {
            case "gzip":
                return new GZIPOutputStream(out, 65536) {
                    {
                        def.setLevel(level);
                    }
                };
            case "deflate":
                return new DeflaterOutputStream(out, new Deflater(level), 65536) {
                    @Override
                    public void close() throws IOException {
                        super.close();
                        def.end();
                    }
                };
            case "zstd":
                return new ZstdOutputStream(out);
            case "lz4":
                return new LZ4FrameOutputStream(out);
            default:
                throw new IllegalArgumentException("Unknown content encoding " + encoding);
        }
    }
}
