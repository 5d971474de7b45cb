package dev.chdedup.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A plain HTTP client for ClickHouse's HTTP interface (java.net.http, HTTP/1.1, one keep-alive pool), used to
 * check the server without the JDBC driver in between: what curl would send and see.
 */
public final class ClickHouseHttp {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final String baseUrl;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();

    public ClickHouseHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** A response as received: status, headers and the raw body. */
    public record Response(int status, java.net.http.HttpHeaders headers, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + text();
        }
    }

    /** URL-encodes a query parameter value. */
    public static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** {@code POST /?<params>} with {@code body}; {@code params} is an already encoded query string or empty. */
    public Response post(String params, byte[] body) {
        return send(HttpRequest.newBuilder(uri("/", params)).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    public Response post(String params, String body) {
        return post(params, body.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code POST /} with the SQL as the body. */
    public Response postSql(String sql) {
        return post("", sql);
    }

    /** {@code POST /?query=<insert>} with the data as the body. */
    public Response insert(String insertSql, byte[] data) {
        return post("query=" + enc(insertSql), data);
    }

    public Response get(String path, String params) {
        return send(HttpRequest.newBuilder(uri(path, params)).GET());
    }

    /** The result of a query, TabSeparated, trailing newline removed; fails unless the server answers 200. */
    public String scalar(String sql) {
        Response r = postSql(sql);
        if (r.status() != 200) {
            throw new AssertionError("query failed: " + sql + " -> " + r);
        }
        return r.text().strip();
    }

    private URI uri(String path, String params) {
        return URI.create(baseUrl + path + (params == null || params.isEmpty() ? "" : "?" + params));
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> r = client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
