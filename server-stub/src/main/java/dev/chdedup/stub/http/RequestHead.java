package dev.chdedup.stub.http;

/**
 * The decoded head of one request: the request line split into its parts and the header fields. It is the
 * immutable result of {@link RequestDecoder#readHead} and carries nothing about the body except the header
 * fields that describe its framing.
 */
final class RequestHead {

    final String method;
    final String target;
    final String path;
    final String rawQuery;
    final boolean http11;
    final HttpHeaders headers;

    RequestHead(String method, String target, String path, String rawQuery, boolean http11, HttpHeaders headers) {
        this.method = method;
        this.target = target;
        this.path = path;
        this.rawQuery = rawQuery;
        this.http11 = http11;
        this.headers = headers;
    }

    /** Whether the client asked to keep the connection open after this exchange. */
    boolean wantsKeepAlive() {
        return http11 ? !headers.hasToken("Connection", "close") : headers.hasToken("Connection", "keep-alive");
    }
}
