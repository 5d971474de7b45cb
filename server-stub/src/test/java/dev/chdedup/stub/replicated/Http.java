package dev.chdedup.stub.replicated;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** Sends SQL to a replica's HTTP interface; a non-200 answer is an AssertionError with its body. */
final class Http {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Http() {
    }

    static String query(String url, String sql) throws Exception {
        HttpResponse<String> r = send(url, sql, "");
        if (r.statusCode() != 200) {
            throw new AssertionError("HTTP " + r.statusCode() + " for " + sql + ": " + r.body());
        }
        return r.body();
    }

    static HttpResponse<String> send(String url, String sql, String params) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url + "/?" + params + (params.isEmpty() ? "" : "&") + "query="
            + URLEncoder.encode(sql, StandardCharsets.UTF_8))).timeout(java.time.Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.noBody()).build();
        return CLIENT.send(req, HttpResponse.BodyHandlers.ofString());
    }
}
