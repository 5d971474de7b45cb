package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tries to lose or duplicate acknowledged rows: 8 writers send single-row INSERTs (some as async inserts) while
 * background merges run often, and other threads run OPTIMIZE FINAL, ALTER UPDATE mutations and readers that check
 * every SELECT against what was acknowledged before it started, while another partition is written and dropped and
 * another table written and truncated over and over. Afterwards every acknowledged row is present
 * exactly once, also after a restart. Run with and without a deduplication log, since inserts into a table with a
 * log are serialized by it and those without are not.
 */
class ConcurrentWritesStressTest {
    private static final int WRITERS = 8;
    private static final int INSERTS = 100;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> send(StubServer s, String sql) throws Exception {
        return send(s, sql, "");
    }

    private HttpResponse<String> send(StubServer s, String sql, String params) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8) + params))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String query(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = send(s, sql);
        assertEquals(200, r.statusCode(), sql + ": " + r.body());
        return r.body();
    }

    @ParameterizedTest(name = "window {0}")
    @ValueSource(ints = {0, 1000})
    void everyAcknowledgedRowExactlyOnce(int window, @TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            // writers 0-7 write partition 0; the churn thread writes partition 1 and drops it again and again
            query(s, "CREATE TABLE hp (w Int32, i Int32, v Int32) ENGINE = MergeTree PARTITION BY intDiv(w, 100) ORDER BY (w, i)"
                + " SETTINGS non_replicated_deduplication_window = " + window);
            query(s, "CREATE TABLE tr (k Int32) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = " + window);
            Set<Long> acked = ConcurrentHashMap.newKeySet();
            List<String> violations = new CopyOnWriteArrayList<>();
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 5);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < INSERTS; i++) {
                        String settings = i % 5 == 4 ? " SETTINGS async_insert = 1, wait_for_async_insert = 1" : "";
                        HttpResponse<String> r = send(s, "INSERT INTO hp" + settings + " VALUES (" + writer + ", " + i + ", 0)");
                        if (r.statusCode() == 200) {
                            acked.add(key(writer, i));
                        } else {
                            violations.add("insert " + writer + "/" + i + " answered " + r.statusCode() + ": " + r.body());
                        }
                    }
                    return null;
                }));
            }
            Future<?> optimizer = pool.submit(() -> {
                while (!done.get()) {
                    HttpResponse<String> r = send(s, "OPTIMIZE TABLE hp FINAL");
                    if (r.statusCode() != 200) {
                        violations.add("OPTIMIZE answered " + r.body());
                    }
                }
                return null;
            });
            Future<?> mutator = pool.submit(() -> {
                int n = 0;
                while (!done.get()) {
                    HttpResponse<String> r = send(s, "ALTER TABLE hp UPDATE v = " + (++n) + " WHERE i % 7 = " + n % 7, "&mutations_sync=1");
                    if (r.statusCode() != 200) {
                        violations.add("ALTER UPDATE answered " + r.body());
                    }
                }
                return null;
            });
            Future<?> churn = pool.submit(() -> {
                int n = 0;
                while (!done.get()) {
                    n++;
                    for (String sql : List.of("INSERT INTO hp VALUES (100, " + n + ", 0), (101, " + n + ", 0)", "ALTER TABLE hp DROP PARTITION 1",
                        "INSERT INTO tr VALUES (" + n + ")", n % 3 == 0 ? "TRUNCATE TABLE tr" : "SELECT 1")) {
                        HttpResponse<String> r = send(s, sql);
                        if (r.statusCode() != 200) {
                            violations.add(sql + " answered " + r.body());
                        }
                    }
                }
                return null;
            });
            Future<?> reader = pool.submit(() -> {
                while (!done.get()) {
                    Set<Long> before = new HashSet<>(acked);
                    String body = query(s, "SELECT w, i FROM hp WHERE w < 100");
                    Set<Long> seen = new HashSet<>();
                    for (String line : body.split("\n")) {
                        if (line.isEmpty()) {
                            continue;
                        }
                        String[] f = line.split("\t");
                        if (!seen.add(key(Integer.parseInt(f[0]), Integer.parseInt(f[1])))) {
                            violations.add("a SELECT saw row " + line + " twice");
                        }
                    }
                    for (long k : before) {
                        if (!seen.contains(k)) {
                            violations.add("a SELECT missed acknowledged row " + (k >> 32) + "/" + (int) k);
                        }
                    }
                }
                return null;
            });
            for (Future<?> f : writers) {
                f.get();
            }
            done.set(true);
            optimizer.get();
            mutator.get();
            churn.get();
            reader.get();
            pool.shutdown();
            assertTrue(violations.isEmpty(), violations.size() + " violations, first: " + violations.subList(0, Math.min(5, violations.size())));
            assertEquals(WRITERS * INSERTS, acked.size());
            assertExactlyOnce(s, acked);
            System.out.printf("ConcurrentWritesStressTest window %d: %d inserts acknowledged, %s rows present, %d violations%n", window,
                acked.size(), query(s, "SELECT count() FROM hp").trim(), violations.size());
            s.restart();
            assertExactlyOnce(s, acked);
        }
    }

    private void assertExactlyOnce(StubServer s, Set<Long> acked) throws Exception {
        query(s, "ALTER TABLE hp DROP PARTITION 1");
        String[] counts = query(s, "SELECT count(), uniqExact(w, i) FROM hp").trim().split("\t");
        assertEquals(acked.size() + "\t" + acked.size(), counts[0] + "\t" + counts[1], "rows present vs acknowledged");
    }

    private static long key(int w, int i) {
        return (long) w << 32 | i;
    }
}
