package dev.chdedup.stub.http;

/**
 * The explicit limits of the HTTP request decoder, as named constants. Anything a client can make the server
 * buffer or skip is bounded by one of these: exceeding a request-head limit is answered with 414 (request line)
 * or 431 (header fields) and the connection is closed; a malformed chunk-size line, Content-Length or request
 * line is answered with 400 and the connection is closed.
 */
public final class HttpLimits {

    /** Longest request line (method, target, version) in bytes; long because query parameters carry SQL. */
    public static final int MAX_REQUEST_LINE = 64 * 1024;

    /** Longest single header field line in bytes. */
    public static final int MAX_HEADER_LINE = 64 * 1024;

    /** Most header fields in one request head (and, separately, in a chunked trailer section). */
    public static final int MAX_HEADERS = 100;

    /** Most bytes of all header lines of one request head together. */
    public static final int MAX_HEADER_BLOCK = 1024 * 1024;

    /** Longest chunk-size line, chunk extensions included. */
    public static final int MAX_CHUNK_SIZE_LINE = 8 * 1024;

    /** Most hexadecimal digits of a chunk size (15 keeps the value below 2^60, no overflow). */
    public static final int MAX_CHUNK_SIZE_DIGITS = 15;

    /** Empty lines tolerated before a request line (some clients send a stray CRLF after a body). */
    public static final int MAX_LEADING_EMPTY_LINES = 8;

    /** Most unread request-body bytes discarded after a handler returns; beyond this the connection is closed. */
    public static final long MAX_DRAIN_BYTES = 16L * 1024 * 1024;

    /** Most bytes read and discarded while closing a connection gracefully after an error response. */
    public static final long MAX_LINGER_BYTES = 1024L * 1024;

    /**
     * Most bytes of a request head gathered without a worker thread; a longer head goes to a worker, which reads the
     * rest under the same head deadline.
     */
    public static final int MAX_GATHERED_HEAD = 64 * 1024;

    /**
     * Most bytes of head buffers all waiting connections hold together; a connection whose head would grow past it
     * is closed, so many slow clients cannot fill the heap with half heads.
     */
    public static final long MAX_GATHERED_TOTAL = 32L * 1024 * 1024;

    /** Size of the per-connection read buffer and of the response write buffer. */
    public static final int IO_BUFFER_SIZE = 16 * 1024;

    /**
     * Largest chunk emitted when streaming a chunked response, each chunk one write to the socket: a large result
     * costs a write call per 256 KiB. The size is no part of the protocol: a real 18.16 sends chunks of 4 KiB.
     */
    public static final int RESPONSE_CHUNK_SIZE = 256 * 1024;

    private HttpLimits() {
    }
}
