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
        try {
            return CLIENT.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (java.net.http.HttpTimeoutException e) {
            // a statement that never answers: where the server's threads are is what the report needs
            StringBuilder dump = new StringBuilder("No answer in 60 s to " + sql + "; the threads:\n");
            for (java.lang.management.ThreadInfo t : java.lang.management.ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
                dump.append(t.getThreadName()).append(' ').append(t.getThreadState()).append(t.getLockName() == null ? "" : " on " + t.getLockName())
                    .append(t.getLockOwnerName() == null ? "" : " held by " + t.getLockOwnerName()).append('\n');
                for (StackTraceElement f : t.getStackTrace()) {
                    dump.append("    at ").append(f).append('\n');
                }
            }
            System.out.println(dump);
            throw e;
        }
    }
}
