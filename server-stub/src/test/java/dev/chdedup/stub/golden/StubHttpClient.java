package dev.chdedup.stub.golden;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A minimal client of the stub's HTTP interface for tests: POSTs a statement with URL settings, as the conformance
 * runner ({@code run.py}) does, and gives back the status, the body and the headers.
 */
public final class StubHttpClient {
    /** What one statement got back. */
    public record Reply(int status, String body, HttpResponse<String> response) {
        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The body, failing with the server's message unless the status is 200. */
        public String ok() {
            if (status != 200) {
                throw new AssertionError("HTTP " + status + ": " + body.strip());
            }
            return body;
        }
    }

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public StubHttpClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public Reply send(String sql, Map<String, String> params) {
        StringJoiner q = new StringJoiner("&");
        for (Map.Entry<String, String> e : params.entrySet()) {
            q.add(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + "/?" + q))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8))
            .build();
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Reply(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply send(String sql) {
        return send(sql, Map.of());
    }

    /** Runs a statement that must succeed and returns its body. */
    public String query(String sql, Map<String, String> params) {
        return send(sql, params).ok();
    }

    public String query(String sql) {
        return query(sql, Map.of());
    }
}
