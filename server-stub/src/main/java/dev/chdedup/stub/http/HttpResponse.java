package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The response a handler builds for one request. Status and headers are free to change until the first body
 * write (or flush) commits them; the body is then sent chunked unless {@link #contentLength(long)} fixed its
 * length, and a response without body bytes goes out with {@code Content-Length: 0}. The server adds
 * {@code Date} and {@code Connection}/{@code Keep-Alive} itself. {@link #abort()} drops the TCP connection with
 * a reset at once, which is how fault injection simulates a server that vanishes mid-exchange.
 */
public final class HttpResponse {

    private final HttpConnection conn;
    private final OutputStream out;
    private final boolean head;
    private final boolean http11;
    private final HttpHeaders headers = new HttpHeaders();
    private final OutputStream body = new Body();
    private int status = 200;
    private long contentLength = -1;
    private boolean closeRequested;
    private boolean committed;
    private boolean headersSent;
    private boolean finished;
    private boolean keepAlive;
    private boolean framingComplete;
    private ResponseFraming framing;
    private volatile boolean aborted;

    HttpResponse(HttpConnection conn, OutputStream out, boolean head, boolean http11) {
        this.conn = conn;
        this.out = out;
        this.head = head;
        this.http11 = http11;
    }

    /** Sets the status code (200 by default); 1xx codes are reserved to the server. */
    public HttpResponse status(int code) {
        checkNotCommitted();
        if (code < 200 || code > 999) {
            throw new IllegalArgumentException("Bad status code: " + code);
        }
        status = code;
        return this;
    }

    public int status() {
        return status;
    }

    /**
     * Adds a header field; repeated names are sent as separate lines. {@code Content-Length} is routed to
     * {@link #contentLength(long)}, {@code Connection: close} to {@link #closeConnection()}; {@code Date},
     * {@code Connection}, {@code Keep-Alive} and {@code Transfer-Encoding} are otherwise managed by the server
     * and ignored here.
     */
    public HttpResponse header(String name, String value) {
        checkNotCommitted();
        validate(name, value);
        switch (name.toLowerCase(Locale.ROOT)) {
            case "content-length":
                return contentLength(Long.parseLong(value.trim()));
            case "connection":
                return value.trim().equalsIgnoreCase("close") ? closeConnection() : this;
            case "date":
            case "keep-alive":
            case "transfer-encoding":
                return this;
            default:
                headers.add(name, value);
                return this;
        }
    }

    /** Like {@link #header} but first removes earlier fields of the same name. */
    public HttpResponse setHeader(String name, String value) {
        checkNotCommitted();
        validate(name, value);
        headers.remove(name);
        return header(name, value);
    }

    /** Shorthand for {@code setHeader("Content-Type", type)}; without it no Content-Type is sent. */
    public HttpResponse contentType(String type) {
        return setHeader("Content-Type", type);
    }

    /** Fixes the body length: it is then sent with {@code Content-Length} instead of chunked. */
    public HttpResponse contentLength(long length) {
        checkNotCommitted();
        if (length < 0) {
            throw new IllegalArgumentException("Negative content length: " + length);
        }
        contentLength = length;
        return this;
    }

    /** Asks for the connection to be closed after this response ({@code Connection: close}). */
    public HttpResponse closeConnection() {
        checkNotCommitted();
        closeRequested = true;
        return this;
    }

    /** The header fields set so far (without the server-managed ones). Do not modify. */
    public HttpHeaders headers() {
        return headers;
    }

    /**
     * The body stream. The first write or flush commits status and headers; {@code flush()} pushes what was
     * written to the client; {@code close()} completes the response (otherwise the server does when the handler
     * returns).
     */
    public OutputStream body() {
        return body;
    }

    /** Whether status and headers are fixed (the first body byte was written, or the response finished). */
    public boolean committed() {
        return committed;
    }

    /**
     * Closes the TCP connection abruptly right now (SO_LINGER 0, so the peer sees a reset) without writing
     * anything more, not even bytes still buffered. Safe to call from any thread, at any point of the exchange.
     */
    public void abort() {
        aborted = true;
        conn.abort();
    }

    /**
     * Closes the TCP connection normally (FIN) without writing a response: the peer sees the connection end with
     * no answer ("no HTTP response"), as when a server process stops between commit and reply.
     */
    public void closeWithoutResponse() {
        aborted = true;
        conn.closeWithoutResponse();
    }

    /**
     * Pushes what the body holds to the client, then closes the connection normally (FIN) without ending the body:
     * a chunked body lacks its last chunk and a fixed-length one is short, so the peer sees a cut response. This is
     * how ClickHouse ends a response whose query failed after the body started.
     */
    public void cutBody() throws IOException {
        try {
            body.flush();
        } finally {
            aborted = true;
            conn.closeSocket();
        }
    }

    /** Same as {@link #abort()}: named for the fault "drop the connection before the response". */
    public void abortBeforeBody() {
        abort();
    }

    /**
     * Changes the receive and send timeouts of this exchange (0 keeps the server's): ClickHouse's
     * {@code http_receive_timeout} and {@code http_send_timeout} given as query settings.
     */
    public void timeouts(java.time.Duration receive, java.time.Duration send) throws IOException {
        conn.exchangeTimeouts(receive.toMillis(), send.toMillis());
    }

    public boolean aborted() {
        return aborted;
    }

    boolean headersSent() {
        return headersSent;
    }

    /** Whether the connection may carry another request once this response is finished. */
    boolean keepAlive() {
        return finished && keepAlive && framingComplete && !aborted;
    }

    /** Forgets status, headers and length of an uncommitted response. */
    void reset() {
        checkNotCommitted();
        status = 200;
        headers.clear();
        contentLength = -1;
    }

    /** Replaces an uncommitted response by a short plain-text error. */
    void sendError(int code, String message, boolean close) throws IOException {
        reset();
        status = code;
        closeRequested |= close;
        headers.add("Content-Type", "text/plain; charset=UTF-8");
        byte[] text = (message + "\n").getBytes(StandardCharsets.UTF_8);
        contentLength = text.length;
        body.write(text);
        finish();
    }

    /** Commits if needed, ends the body framing and flushes; idempotent. */
    void finish() throws IOException {
        if (finished || aborted) {
            return;
        }
        finished = true;
        if (!committed) {
            commit(true);
        }
        if (!headersSent) {
            sendHeaders();
        }
        framingComplete = framing.finish();
        out.flush();
    }

    private void commit(boolean atFinish) throws IOException {
        committed = true;
        if (head || status == 204 || status == 304) {
            framing = new ResponseFraming.Discard();
        } else if (contentLength >= 0) {
            framing = new ResponseFraming.Fixed(out, contentLength);
        } else if (atFinish) {
            contentLength = 0;
            framing = new ResponseFraming.Fixed(out, 0);
        } else if (!http11) {
            framing = new ResponseFraming.UntilClose(out);
        } else {
            framing = new ResponseFraming.Chunked(out, HttpLimits.RESPONSE_CHUNK_SIZE);
        }
        keepAlive = !closeRequested && !(framing instanceof ResponseFraming.UntilClose) && conn.keepAliveAllowed();
        if (!head) {
            sendHeaders(); // a HEAD response waits for finish(), when the length the GET would have is known
        }
    }

    private void sendHeaders() throws IOException {
        headersSent = true;
        StringBuilder sb = new StringBuilder(192 + headers.size() * 48);
        sb.append("HTTP/1.1 ").append(status).append(' ').append(ReasonPhrases.of(status)).append("\r\n");
        sb.append("Date: ").append(HttpDates.now()).append("\r\n");
        if (keepAlive) {
            sb.append("Connection: Keep-Alive\r\nKeep-Alive: timeout=").append(conn.keepAliveSeconds()).append("\r\n");
        } else {
            sb.append("Connection: close\r\n");
        }
        if (framing instanceof ResponseFraming.Chunked) {
            sb.append("Transfer-Encoding: chunked\r\n");
        } else if (framing instanceof ResponseFraming.Fixed) {
            sb.append("Content-Length: ").append(contentLength).append("\r\n");
        } else if (head && status != 204 && status != 304) {
            sb.append("Content-Length: ").append(contentLength >= 0 ? contentLength : framing.written()).append("\r\n");
        }
        for (int i = 0; i < headers.size(); i++) {
            sb.append(headers.name(i)).append(": ").append(headers.value(i)).append("\r\n");
        }
        sb.append("\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private void checkNotCommitted() {
        if (committed) {
            throw new IllegalStateException("Response already committed");
        }
    }

    private static void validate(String name, String value) {
        if (!RequestDecoder.isToken(name)) {
            throw new IllegalArgumentException("Bad header name: " + name);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                throw new IllegalArgumentException("Control character in value of header " + name);
            }
        }
    }

    /** The handler-facing body stream: commits on first use and delegates to the chosen framing. */
    private final class Body extends OutputStream {
        private ResponseFraming target() throws IOException {
            if (aborted) {
                throw new IOException("Connection was aborted");
            }
            if (finished) {
                throw new IOException("Response already finished");
            }
            if (!committed) {
                commit(false);
            }
            return framing;
        }

        @Override
        public void write(int b) throws IOException {
            target().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            target().write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (!finished && !aborted) {
                ResponseFraming f = target();
                if (!head) {
                    f.flush();
                }
            }
        }

        @Override
        public void close() throws IOException {
            finish();
        }
    }
}
