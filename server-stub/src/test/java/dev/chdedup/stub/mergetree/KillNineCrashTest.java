package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.StubProcess;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the stub in the middle of a stream of token inserts (sync and async, two writers), with SIGKILL at a random
 * moment or by halting at a crash point of the write path (before a part's rename, between the rename and the
 * deduplication log's record, after the commit and before the answer), restarts it on the same data directory and retries every insert that was sent but not acknowledged, with its token: every
 * insert must then be present exactly once, whatever point of the write path the kill hit. A child JVM runs the
 * stub's command line on the test's class path, so the kill is a real one: no shutdown hook, no flush.
 */
class KillNineCrashTest {
    private static final int ROUNDS = 20;
    private static final String[] CRASH_POINTS = {"stub_crash_before_part_rename", "stub_crash_after_part_rename", "stub_crash_after_insert_commit"};
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aRetriedTokenInsertLandsExactlyOnceAfterAKill(@TempDir Path data) throws Exception {
        Random random = new Random(20261201);
        AtomicInteger nextId = new AtomicInteger();
        /** insert id -> whether it was acknowledged; an id present here was sent at least once. */
        Map<Integer, Boolean> sent = new ConcurrentHashMap<>();
        StubProcess child = StubProcess.start(data);
        send(child.url(), "CREATE TABLE kt (id UInt32, w UInt8, s String) ENGINE = MergeTree ORDER BY id"
            + " SETTINGS non_replicated_deduplication_window = 100000");
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String url = child.url();
                ExecutorService writers = Executors.newFixedThreadPool(2);
                List<Future<?>> fs = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    fs.add(writers.submit(() -> {
                        while (true) {
                            int id = nextId.getAndIncrement();
                            sent.put(id, false);
                            if (!insert(url, id)) {
                                return null;
                            }
                            sent.put(id, true);
                        }
                    }));
                }
                if (round % 4 == 0) {
                    Thread.sleep(30 + random.nextInt(250));
                    child.kill();
                } else {
                    // the child halts itself at that point of the write path of some insert after a random delay
                    Thread.sleep(random.nextInt(100));
                    try {
                        send(url, "SYSTEM ENABLE FAILPOINT " + CRASH_POINTS[round % 4 - 1]);
                    } catch (java.io.IOException halted) {
                        // an insert reached the crash point before the answer to this statement left: the child is gone
                        // already, as the assertions below check (seen on a loaded machine)
                    }
                    assertTrue(child.process().waitFor(30, TimeUnit.SECONDS), "the crash point was reached");
                    assertEquals(137, child.process().exitValue());
                }
                for (Future<?> f : fs) {
                    f.get(30, TimeUnit.SECONDS);
                }
                writers.shutdownNow();
                child = StubProcess.start(data);
                for (Map.Entry<Integer, Boolean> e : sent.entrySet()) {
                    if (!e.getValue()) {
                        assertTrue(insert(child.url(), e.getKey()), "retry of " + e.getKey() + " after restart");
                        e.setValue(true);
                    }
                }
            }
            assertEquals("", send(child.url(), "SELECT id, count() AS c FROM kt GROUP BY id HAVING c > 1").trim(), "duplicated inserts");
            String[] counts = send(child.url(), "SELECT count(), uniqExact(id) FROM kt").trim().split("\t");
            System.out.printf("KillNineCrashTest: %d kills (%d SIGKILL, %d crash points), %d inserts started, %s rows, %s distinct%n", ROUNDS,
                (ROUNDS + 3) / 4, ROUNDS - (ROUNDS + 3) / 4, sent.size(), counts[0], counts[1]);
            assertEquals(sent.size() + "\t" + sent.size(), counts[0] + "\t" + counts[1],
                "rows vs distinct inserts after " + ROUNDS + " kills (" + sent.size() + " inserts)");
        } finally {
            child.kill();
        }
    }

    /** A mutation a crash cut off halfway is finished after the restart: every row updated, and system.mutations says done. */
    @Test
    void aMutationInterruptedByACrashIsFinishedOnRestart(@TempDir Path data) throws Exception {
        StubProcess child = crashDuring(data, "stub_crash_during_mutation", "ALTER TABLE mt UPDATE v = 1 WHERE 1",
            "CREATE TABLE mt (k UInt32, v UInt32) ENGINE = MergeTree PARTITION BY k % 4 ORDER BY k",
            "INSERT INTO mt SELECT number, 0 FROM system.numbers LIMIT 400");
        try {
            assertEquals("400\t400", send(child.url(), "SELECT count(), sum(v = 1) FROM mt").trim());
            assertEquals("1\t0", send(child.url(), "SELECT is_done, parts_to_do FROM system.mutations WHERE table = 'mt'").trim());
        } finally {
            child.kill();
        }
    }

    /** A dropped partition stays dropped when the process dies before the files are deleted. */
    @Test
    void aDroppedPartitionDoesNotComeBackAfterACrash(@TempDir Path data) throws Exception {
        StubProcess child = crashDuring(data, "stub_crash_before_removed_files_deleted", "ALTER TABLE dp DROP PARTITION 1",
            "CREATE TABLE dp (k UInt32) ENGINE = MergeTree PARTITION BY k % 2 ORDER BY k",
            "INSERT INTO dp SELECT number FROM system.numbers LIMIT 100");
        try {
            assertEquals("50\t0", send(child.url(), "SELECT count(), sum(k % 2) FROM dp").trim());
        } finally {
            child.kill();
        }
    }

    /**
     * Starts a child stub, runs {@code setup}, arms {@code failpoint}, runs {@code statement} (the child halts under
     * it, at the crash point) and returns the stub restarted on the same data directory.
     */
    private StubProcess crashDuring(Path data, String failpoint, String statement, String... setup) throws Exception {
        StubProcess child = StubProcess.start(data);
        try {
            for (String sql : setup) {
                send(child.url(), sql);
            }
            send(child.url(), "SYSTEM ENABLE FAILPOINT " + failpoint);
            try {
                send(child.url(), statement);
            } catch (java.io.IOException expected) {
                // the process died under the query
            }
            assertTrue(child.process().waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, child.process().exitValue(), "the crash point was reached");
        } finally {
            child.kill();
        }
        return StubProcess.start(data);
    }

    /** One insert with its token (async for odd ids), the same bytes every time; false if the server went away before answering. */
    private boolean insert(String url, int id) {
        String settings = "insert_deduplication_token=tok-" + id + (id % 2 == 1 ? "&async_insert=1&wait_for_async_insert=1" : "");
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/?" + settings + "&query="
                    + URLEncoder.encode("INSERT INTO kt VALUES (" + id + ", " + id % 7 + ", '" + "x".repeat(id % 50) + "')", StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(20)).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return true;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String send(String url, String sql) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}
