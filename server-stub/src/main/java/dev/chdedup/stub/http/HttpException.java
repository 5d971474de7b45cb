package dev.chdedup.stub.http;

import java.io.IOException;

/**
 * An HTTP-level failure that maps to a specific response status: a malformed or oversize request head, broken
 * body framing (bad chunk size, truncated Content-Length body) or an unsupported request feature. The message is
 * short, plain text and safe to put on the wire verbatim. It is an {@link IOException} so that handlers reading
 * the request body meet it on their ordinary I/O error path; if a handler lets it escape, the server answers with
 * {@link #status()} (when nothing was committed yet) instead of a generic 500.
 */
public class HttpException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public HttpException(int status, String message) {
        super(message);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("not an error status: " + status);
        }
        this.status = status;
    }

    /** The HTTP status this failure should be answered with (4xx or 5xx). */
    public int status() {
        return status;
    }
}
