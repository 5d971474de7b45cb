package dev.chdedup.stub.http;

import java.io.IOException;

/**
 * A request body that its {@code Content-Encoding} decoder could not decode (a corrupt or truncated gzip, deflate,
 * zstd or lz4 stream). The handler answers it with the decoder's ClickHouse error ({@code ZLIB_INFLATE_FAILED},
 * {@code ZSTD_DECODER_FAILED}, {@code LZ4_DECODER_FAILED}).
 */
public final class CorruptedContentException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String encoding;

    public CorruptedContentException(String encoding, Throwable cause) {
        super("Cannot decode the request body as " + encoding + ": " + cause.getMessage(), cause);
        this.encoding = encoding;
    }

    /** The encoding whose decoder failed, lower-cased. */
    public String encoding() {
        return encoding;
    }
}
