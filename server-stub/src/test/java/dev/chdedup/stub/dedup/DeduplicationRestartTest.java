package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Block ids outlive a restart: with a fixed data directory, retries after {@code restart()} are still dropped (by
 * data, by token, async), the log is on disk as human-readable records, a dropped part's ids stay forgotten, and
 * async inserts still queued when the server stops are flushed, not lost.
 */
class DeduplicationRestartTest {
    @TempDir
    Path dataDir;

    private static long count(ConformanceClient c, String table) {
        return Long.parseLong(c.query("SELECT count() FROM db." + table).strip());
    }

    /**
     * The reported case: window 4; seven tokens into partition 1, token h into partition 2, DROP PARTITION 1, insert i,
     * restart, insert j, restart: a retry of h is still a duplicate (the drop records must not count as ids).
     */
    @Test
    void idsInsideTheWindowSurviveDropsAndRestarts() throws IOException {
        try (StubServer server = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ConformanceClient c = new ConformanceClient(server.httpUrl());
            c.query("CREATE DATABASE db");
            c.query("CREATE TABLE db.w (p UInt8, k UInt32) ENGINE = MergeTree PARTITION BY p ORDER BY k"
                + " SETTINGS non_replicated_deduplication_window = 4");
            for (int i = 1; i <= 7; i++) {
                c.query("INSERT INTO db.w SETTINGS insert_deduplication_token = 't" + i + "' VALUES (1, " + i + ")");
            }
            c.query("INSERT INTO db.w SETTINGS insert_deduplication_token = 'h' VALUES (2, 100)");
            c.query("ALTER TABLE db.w DROP PARTITION 1");
            c.query("INSERT INTO db.w SETTINGS insert_deduplication_token = 'i' VALUES (2, 101)");
            server.restart();
            c = new ConformanceClient(server.httpUrl());
            c.query("INSERT INTO db.w SETTINGS insert_deduplication_token = 'j' VALUES (2, 102)");
            server.restart();
            c = new ConformanceClient(server.httpUrl());
            c.query("INSERT INTO db.w SETTINGS insert_deduplication_token = 'h' VALUES (2, 100)");
            assertEquals(3, count(c, "w"), "the retry of h is a duplicate");
        }
    }

    @Test
    void retriesAreDroppedAfterARestart() throws IOException {
        try (StubServer server = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ConformanceClient c = new ConformanceClient(server.httpUrl());
            c.query("CREATE DATABASE db");
            c.query("CREATE TABLE db.t (k UInt32, v String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 10");
            c.query("INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
            c.query("INSERT INTO db.t SETTINGS insert_deduplication_token = 'tok' VALUES (3, 'c')");
            c.query("INSERT INTO db.t VALUES (4, 'd')", Map.of("async_insert", "1", "async_insert_busy_timeout_ms", "10"));
            c.query("INSERT INTO db.t VALUES (5, 'e')");
            assertEquals(5, count(c, "t"));
            String part5 = c.query("SELECT _part FROM db.t WHERE k = 5").strip();

            Path logFile = server.dataDir().resolve("data/db/t/deduplication_logs/deduplication_log_1.txt");
            List<String> records = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            assertEquals(4, records.size(), records.toString());
            for (String r : records) {
                assertTrue(r.matches("1\tall_\\d+_\\d+_0\tall_\\d+_\\d+"), r);
            }
            String blockIdOf5 = c.query("SELECT deduplication_block_ids[1] FROM system.part_log WHERE database = 'db' AND part_name = '" + part5 + "'").strip();
            assertEquals("1\t" + part5 + "\t" + blockIdOf5, records.get(3));

            server.restart();
            c = new ConformanceClient(server.httpUrl());
            c.query("INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
            c.query("INSERT INTO db.t SETTINGS insert_deduplication_token = 'tok' VALUES (30, 'x')");
            c.query("INSERT INTO db.t VALUES (4, 'd')", Map.of("async_insert", "1", "async_insert_busy_timeout_ms", "10"));
            assertEquals(5, count(c, "t"));

            // a dropped part's ids are forgotten for good
            c.query("ALTER TABLE db.t DROP PART '" + part5 + "'");
            server.restart();
            c = new ConformanceClient(server.httpUrl());
            c.query("INSERT INTO db.t VALUES (5, 'e')");
            c.query("INSERT INTO db.t VALUES (4, 'd')");
            assertEquals(5, count(c, "t"));
            List<String> after = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            assertEquals("2\t" + part5 + "\t" + blockIdOf5, after.get(4));
        }
    }

    @Test
    void queuedAsyncInsertsAreFlushedWhenTheServerStops() throws IOException {
        try (StubServer server = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ConformanceClient c = new ConformanceClient(server.httpUrl());
            c.query("CREATE DATABASE db");
            c.query("CREATE TABLE db.q (k UInt32) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 10");
            Map<String, String> noWait = Map.of("async_insert", "1", "wait_for_async_insert", "0", "async_insert_busy_timeout_ms", "600000");
            c.query("INSERT INTO db.q VALUES (1)", noWait);
            c.query("INSERT INTO db.q VALUES (2)", noWait);
            assertEquals(0, count(c, "q"));
            server.restart();
            c = new ConformanceClient(server.httpUrl());
            assertEquals(2, count(c, "q"));
            // and their ids were recorded
            c.query("INSERT INTO db.q VALUES (1)");
            assertEquals(2, count(c, "q"));
        }
    }
}
