package dev.chdedup.stub.http;

/**
 * Thrown by {@link HttpRequest#body()} when the request declares a {@code Content-Encoding} the transport cannot
 * decode (for example {@code br} or {@code xz}; {@code gzip}, {@code x-gzip}, {@code deflate}, {@code zstd},
 * {@code lz4} and {@code identity} are supported). Handlers catch it to render the error their protocol expects; left
 * uncaught, the server answers 415 Unsupported Media Type. The body framing is intact, so keep-alive survives.
 */
public class UnsupportedContentEncodingException extends HttpException {

    private static final long serialVersionUID = 1L;

    private final String encoding;

    public UnsupportedContentEncodingException(String encoding) {
        super(415, "Unsupported Content-Encoding: " + encoding);
        this.encoding = encoding;
    }

    /** The offending encoding token, lower-cased, as it appeared in the request. */
    public String encoding() {
        return encoding;
    }
}
