package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * One decoded HTTP request as the handler sees it: method, raw path, decoded query parameters (ordered, repeats
 * kept), case-insensitive headers, the peer address and the body as a stream that yields exactly this request's
 * body bytes, with {@code Content-Encoding} gzip/deflate removed. Valid only during
 * {@link HttpHandler#handle}; the server drains and discards whatever body the handler leaves unread.
 */
public final class HttpRequest {

    private final RequestHead head;
    private final List<String[]> pairs;
    private final BodyInputStream rawBody;
    private final InetSocketAddress remote;
    private final java.util.function.BooleanSupplier peerConnected;
    private LinkedHashMap<String, String> params;
    private InputStream decodedBody;

    HttpRequest(RequestHead head, List<String[]> pairs, BodyInputStream rawBody, InetSocketAddress remote,
                java.util.function.BooleanSupplier peerConnected) {
        this.peerConnected = peerConnected;
        this.head = head;
        this.pairs = pairs;
        this.rawBody = rawBody;
        this.remote = remote;
    }

    /** The request method as sent, e.g. {@code GET}, {@code POST}. */
    public String method() {
        return head.method;
    }

    /** The path of the request target, still percent-encoded, without the query string (e.g. {@code /ping}). */
    public String path() {
        return head.path;
    }

    /** The raw query string after {@code ?}, still encoded; {@code null} if the target had none. */
    public String rawQuery() {
        return head.rawQuery;
    }

    /** The request target exactly as it appeared in the request line. */
    public String target() {
        return head.target;
    }

    /** {@code HTTP/1.1} or {@code HTTP/1.0}. */
    public String version() {
        return head.http11 ? "HTTP/1.1" : "HTTP/1.0";
    }

    /**
     * The decoded query parameters in order of first appearance; for repeated names the last value wins. The map
     * belongs to this request; changing it affects nothing else.
     */
    public LinkedHashMap<String, String> params() {
        if (params == null) {
            params = new LinkedHashMap<>();
            for (String[] p : pairs) {
                params.put(p[0], p[1]);
            }
        }
        return params;
    }

    /**
     * Adds a parameter after those of the URL, as a field of a form body is one (the handler reads the form): it does not
     * replace a parameter the URL already has.
     */
    public void addParam(String name, String value) {
        if (param(name) == null) {
            pairs.add(new String[] {name, value});
            params = null;
        }
    }

    /** The last value of query parameter {@code name}, or {@code null}. */
    public String param(String name) {
        for (int i = pairs.size() - 1; i >= 0; i--) {
            if (pairs.get(i)[0].equals(name)) {
                return pairs.get(i)[1];
            }
        }
        return null;
    }

    /** All values of query parameter {@code name} in order (ClickHouse repeats e.g. {@code role}); may be empty. */
    public List<String> params(String name) {
        List<String> out = new ArrayList<>(2);
        for (String[] p : pairs) {
            if (p[0].equals(name)) {
                out.add(p[1]);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The first value of header {@code name} (case-insensitive), or {@code null}. */
    public String header(String name) {
        return head.headers.get(name);
    }

    /** All values of header {@code name} (case-insensitive), in arrival order. */
    public List<String> headers(String name) {
        return head.headers.getAll(name);
    }

    /** All header fields in arrival order. Do not modify. */
    public HttpHeaders headers() {
        return head.headers;
    }

    /** The trailer fields of a chunked body, available once the body was read to its end; else empty. */
    public HttpHeaders trailers() {
        return rawBody instanceof ChunkedInputStream ? ((ChunkedInputStream) rawBody).trailers() : new HttpHeaders();
    }

    /** The client's address. */
    /**
     * Whether the client has not closed the connection (Poco's checkPeerConnected); asked on the thread that handles
     * this request, once the handler has read what it needs of the body.
     */
    public boolean checkPeerConnected() {
        return peerConnected.getAsBoolean();
    }

    public InetSocketAddress remoteAddress() {
        return remote;
    }

    /** The declared Content-Length, or -1 for a chunked body. 0 when the request has no body. */
    public long contentLength() {
        if (rawBody instanceof ChunkedInputStream) {
            return -1;
        }
        String cl = head.headers.get("Content-Length");
        return cl == null ? 0 : Long.parseLong(cl.split(",")[0].trim());
    }

    /** Whether the body is sent with {@code Transfer-Encoding: chunked}. */
    public boolean chunked() {
        return rawBody instanceof ChunkedInputStream;
    }

    /**
     * The request body with any supported {@code Content-Encoding} decoded; the same stream on every call. Reading
     * it sends {@code 100 Continue} first if the client asked for it. An empty stream when there is no body.
     *
     * @throws UnsupportedContentEncodingException for encodings other than gzip, x-gzip, deflate, zstd, lz4 and identity
     */
    public InputStream body() throws UnsupportedContentEncodingException {
        if (decodedBody == null) {
            decodedBody = ContentDecoding.wrap(rawBody, head.headers.get("Content-Encoding"));
        }
        return decodedBody;
    }

    /** The body bytes exactly as framed on the wire, without content decoding. */
    public InputStream rawBody() {
        return rawBody;
    }

    BodyInputStream bodyStream() {
        return rawBody;
    }

    RequestHead head() {
        return head;
    }

    /** Releases decoder resources (inflaters); the socket is unaffected. */
    void release() {
        if (decodedBody != null && decodedBody != rawBody) {
            try {
                decodedBody.close();
            } catch (IOException ignored) {
                // only native inflater state is freed here
            }
        }
    }

    @Override
    public String toString() {
        return head.method + " " + head.target + " " + version();
    }
}
