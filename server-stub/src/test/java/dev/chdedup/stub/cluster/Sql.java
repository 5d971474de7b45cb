package dev.chdedup.stub.cluster;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;

/** The cluster tests' client: SQL to one replica over HTTP, and a wait for a condition with a deadline. */
final class Sql {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final String TABLE_DDL = "CREATE TABLE t (id UInt64, n UInt32) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}') ORDER BY (id, n)";

    private Sql() {
    }

    /** Sends {@code sql}; the answer's status and body, or status -1 when the replica cannot be reached. */
    static HttpResponse<String> send(StubCluster c, int replica, String sql) throws InterruptedException {
        URI uri = URI.create(c.replica(replica).httpUrl() + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
        try {
            return CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            return null;
        }
    }

    static String query(StubCluster c, int replica, String sql) throws InterruptedException {
        HttpResponse<String> r = send(c, replica, sql);
        if (r == null || r.statusCode() != 200) {
            throw new AssertionError("r" + replica + " answered " + (r == null ? "nothing" : r.statusCode() + ": " + r.body()) + " to " + sql);
        }
        return r.body();
    }

    static void createTable(StubCluster c) throws InterruptedException {
        for (int i = 1; i <= c.size(); i++) {
            query(c, i, TABLE_DDL);
        }
    }

    static void waitFor(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
        }
    }
}
