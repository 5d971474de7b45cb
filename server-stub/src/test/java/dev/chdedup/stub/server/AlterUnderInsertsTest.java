package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Schema ALTERs while inserts run, as a team's migrations may meet its services: every insert succeeds and lands
 * once, whatever ALTER ran beside it, because an insert holds the table's structure lock shared and an ALTER (which
 * opens the table again over its parts) takes it exclusively, as ClickHouse's table locks make them wait for each
 * other. Without the lock an insert that met an ALTER failed with UNKNOWN_TABLE ("altered while the insert ran").
 */
class AlterUnderInsertsTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> send(StubServer s, String sql) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void insertsAndAltersWaitForEachOther() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals(200, send(s, "CREATE TABLE busy (k UInt64, v UInt32) ENGINE = MergeTree ORDER BY k").statusCode());
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(3);
            List<Future<List<String>>> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    List<String> failures = new ArrayList<>();
                    for (int i = 0; i < 60; i++) {
                        HttpResponse<String> r = send(s, "INSERT INTO busy (k, v) SELECT " + (writer * 1000 + i) + " * 100 + number, 1 FROM numbers(100)");
                        if (r.statusCode() != 200) {
                            failures.add(r.body());
                        }
                    }
                    return failures;
                }));
            }
            String[] alters = {"ADD COLUMN a String DEFAULT 'x'", "MODIFY COLUMN v UInt64", "DROP COLUMN a", "ADD COLUMN b UInt8 DEFAULT 7",
                "COMMENT COLUMN b 'c'", "MODIFY COLUMN v UInt32", "DROP COLUMN b"};
            int rounds = 0;
            while (!writers.stream().allMatch(Future::isDone) && rounds < 30) {
                HttpResponse<String> r = send(s, "ALTER TABLE busy " + alters[rounds % alters.length]);
                assertEquals(200, r.statusCode(), r.body());
                rounds++;
            }
            List<String> failures = new ArrayList<>();
            for (Future<List<String>> f : writers) {
                failures.addAll(f.get(120, TimeUnit.SECONDS));
            }
            pool.shutdownNow();
            assertEquals(List.of(), failures);
            assertEquals("18000\t18000\n", send(s, "SELECT count(), uniqExact(k) FROM busy").body());
        }
    }
}
