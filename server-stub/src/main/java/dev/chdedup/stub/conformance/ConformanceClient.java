package dev.chdedup.stub.conformance;

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
 * A minimal client of a ClickHouse-compatible HTTP interface (the stub or a real server): POSTs a statement with URL settings, as the conformance
 * runner ({@code run.py}) does, and gives back the status, the body and the headers.
 */
public final class ConformanceClient {
    /** What one statement got back. */
    public record Reply(int status, String body, HttpResponse<String> response) {
        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The body, failing with the server's message unless the status is 200. */
        public String ok() {
            if (status != 200) {
                throw new IllegalStateException("HTTP " + status + ": " + body.strip());
            }
            return body;
        }
    }

    private final String baseUrl;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public ConformanceClient(String baseUrl) {
        this(baseUrl, null, null);
    }

    /** A client that authenticates with HTTP Basic as {@code user} (a real server's configured user, say). */
    public ConformanceClient(String baseUrl, String user, String password) {
        this.baseUrl = baseUrl;
        this.authorization = user == null ? null : "Basic " + java.util.Base64.getEncoder()
            .encodeToString((user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
    }

    public Reply send(String sql, Map<String, String> params) {
        StringJoiner q = new StringJoiner("&");
        for (Map.Entry<String, String> e : params.entrySet()) {
            q.add(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + "/?" + q))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpRequest req = b.build();
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
