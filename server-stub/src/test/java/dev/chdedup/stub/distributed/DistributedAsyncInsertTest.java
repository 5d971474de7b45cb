package dev.chdedup.stub.distributed;

import static dev.chdedup.stub.distributed.ShardedServers.await;
import static dev.chdedup.stub.distributed.ShardedServers.rows;
import static dev.chdedup.stub.distributed.ShardedServers.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Background inserts into a Distributed table on the first of two single-replica shards: the second shard's rows wait
 * in a file of {@code shard2_replica1} until sent; they survive kill -9 of the Distributed table's server and land once
 * after its restart (a file sent and not removed is dropped by the shard's deduplication); a shard down keeps them
 * queued with the error counted, and they land when it is back; a damaged file goes to {@code broken/}; TRUNCATE and
 * DROP remove queued files; batches.
 */
class DistributedAsyncInsertTest {
    private ShardedServers servers;

    @BeforeEach
    void start() throws Exception {
        servers = new ShardedServers(2, 1, false);
        for (StubServer s : servers.all()) {
            sql(s, "CREATE TABLE local (k UInt64, v String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100");
        }
    }

    @AfterEach
    void stop() throws Exception {
        servers.close();
    }

    private StubServer head() {
        return servers.server(0, 0);
    }

    private StubServer second() {
        return servers.server(1, 0);
    }

    private void distributed(String settings) {
        sql(head(), "CREATE TABLE d AS local ENGINE = Distributed(c, default, local, k)" + settings);
    }

    private static long count(StubServer s) {
        return Long.parseLong(rows(s, "SELECT count() FROM local").get(0));
    }

    /** The second shard's queue directory on the head server. */
    private Path queueDir() {
        return head().dataDir().resolve("data").resolve("default").resolve("d").resolve("shard2_replica1");
    }

    private List<Path> queued() throws Exception {
        if (!Files.isDirectory(queueDir())) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(queueDir())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".bin")).toList();
        }
    }

    /** The head's distribution_queue row of the second shard: data_files, broken_data_files, error_count, is_blocked. */
    private String queueRow() {
        List<String> r = rows(head(), "SELECT data_files, broken_data_files, error_count > 0, is_blocked FROM system.distribution_queue"
            + " WHERE table = 'd'");
        return r.isEmpty() ? "" : r.get(0);
    }

    @Test
    void theRemoteShardsRowsWaitInAFileUntilSent() throws Exception {
        distributed("");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        assertEquals(5, count(head()), "the local shard is written directly");
        assertEquals(0, count(second()));
        assertEquals(1, queued().size(), "one file for the second shard, before the answer");
        assertEquals("1\t0\t0\t1", queueRow());
        sql(head(), "SYSTEM START DISTRIBUTED SENDS d");
        assertTrue(await(Duration.ofSeconds(30), () -> count(second()) == 5));
        assertTrue(await(Duration.ofSeconds(30), () -> queueRow().equals("0\t0\t0\t0")), queueRow());
    }

    @Test
    void queuedFilesSurviveKillNineAndLandOnce() throws Exception {
        distributed("");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        sql(head(), "INSERT INTO d SELECT number + 10, 'y' FROM numbers(10)");
        assertEquals(2, queued().size());
        head().kill();
        head().start(); // the blocker lives in memory: the restarted server sends what it finds
        assertTrue(await(Duration.ofSeconds(30), () -> count(second()) == 10));
        assertTrue(await(Duration.ofSeconds(30), () -> {
            try {
                return queued().isEmpty();
            } catch (Exception e) {
                return false;
            }
        }));
        sql(head(), "SYSTEM FLUSH DISTRIBUTED d");
        assertEquals(10, count(second()));
        assertEquals(List.of("1", "3", "5", "7", "9", "11", "13", "15", "17", "19"), rows(second(), "SELECT k FROM local ORDER BY k"),
            "the odd keys, once each");
    }

    @Test
    void aFileSentAndNotRemovedBeforeACrashIsDroppedByTheShard() throws Exception {
        distributed("");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)", Map.of("insert_deduplication_token", "once"));
        Path file = queued().get(0);
        byte[] copy = Files.readAllBytes(file);
        sql(head(), "SYSTEM FLUSH DISTRIBUTED d"); // sent and removed
        assertEquals(5, count(second()));
        head().kill();
        Files.write(file, copy); // as if the server died between the shard's answer and the file's removal
        head().start();
        assertTrue(await(Duration.ofSeconds(30), () -> {
            try {
                return queued().isEmpty();
            } catch (Exception e) {
                return false;
            }
        }), "the file is sent again");
        assertEquals(5, count(second()), "the shard dropped the block it had, by the token the file carries");
    }

    @Test
    void aShardDownKeepsTheFilesQueuedUntilItIsBack() throws Exception {
        distributed(" SETTINGS background_insert_sleep_time_ms = 20, background_insert_max_sleep_time_ms = 200");
        second().stop();
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        assertTrue(await(Duration.ofSeconds(30), () -> queueRow().startsWith("1\t0\t1")), queueRow());
        ChException e = assertThrows(ChException.class, () -> sql(head(), "SYSTEM FLUSH DISTRIBUTED d"));
        assertEquals(ErrorCode.ALL_CONNECTION_TRIES_FAILED, e.code(), e.getMessage());
        assertEquals(1, queued().size());
        second().start();
        assertTrue(await(Duration.ofSeconds(30), () -> count(second()) == 5));
        assertTrue(await(Duration.ofSeconds(30), () -> queueRow().startsWith("0\t0")), queueRow());
    }

    @Test
    void aDamagedFileIsSetAsideAsBroken() throws Exception {
        distributed("");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        Path file = queued().get(0);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 3] ^= 0x5a; // inside the compressed block: its checksum no longer matches
        Files.write(file, bytes);
        sql(head(), "SYSTEM START DISTRIBUTED SENDS d");
        assertTrue(await(Duration.ofSeconds(30), () -> queueRow().startsWith("0\t1")), queueRow());
        assertTrue(Files.exists(queueDir().resolve("broken").resolve(file.getFileName())));
        assertEquals(0, count(second()));
    }

    @Test
    void truncateAndDropRemoveTheQueuedFiles() throws Exception {
        distributed("");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        assertEquals(1, queued().size());
        sql(head(), "TRUNCATE TABLE d");
        assertEquals(0, queued().size());
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        assertEquals(1, queued().size());
        sql(head(), "DROP TABLE d");
        assertFalse(Files.exists(queueDir()));
        assertEquals(0, count(second()));
    }

    /** Three files queued in batch mode, and the shard refusing its next insert with MEMORY_LIMIT_EXCEEDED (not a broken file). */
    private void threeFilesAndOneRefusal(String settings) throws Exception {
        distributed(" SETTINGS background_insert_batch = 1" + settings);
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        for (int i = 0; i < 3; i++) {
            sql(head(), "INSERT INTO d SELECT number + " + (10 * i) + ", 'x' FROM numbers(10)");
        }
        sql(second(), "SYSTEM ENABLE FAILPOINT stub_insert_error CODE 241 ON TABLE default.local FOR 1 INSERTS");
    }

    private List<String> activeParts() {
        return rows(second(), "SELECT count() FROM system.parts WHERE table = 'local' AND active");
    }

    @Test
    void aFailedBatchIsSentFileByFileUnderSplitBatchOnFailure() throws Exception {
        threeFilesAndOneRefusal(", background_insert_split_batch_on_failure = 1");
        sql(head(), "SYSTEM FLUSH DISTRIBUTED d");
        assertEquals(15, count(second()));
        assertEquals(List.of("3"), activeParts(), "the batch failed, then each file went as its own insert");
    }

    @Test
    void aFailedBatchStaysQueuedWithoutSplitBatchOnFailure() throws Exception {
        threeFilesAndOneRefusal("");
        ChException e = assertThrows(ChException.class, () -> sql(head(), "SYSTEM FLUSH DISTRIBUTED d"));
        assertEquals(ErrorCode.MEMORY_LIMIT_EXCEEDED, e.code(), e.getMessage());
        assertEquals(3, queued().size());
        sql(head(), "SYSTEM FLUSH DISTRIBUTED d");
        assertEquals(15, count(second()));
        assertEquals(List.of("1"), activeParts(), "the batch went again whole");
    }

    @Test
    void renameTakesTheQueuedFilesAlong() throws Exception {
        distributed("");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(head(), "INSERT INTO d SELECT number, 'x' FROM numbers(10)");
        sql(head(), "RENAME TABLE d TO d2");
        assertFalse(Files.exists(queueDir()));
        sql(head(), "SYSTEM FLUSH DISTRIBUTED d2");
        assertEquals(5, count(second()));
        assertEquals(List.of("d2"), rows(head(), "SELECT name FROM system.tables WHERE engine = 'Distributed'"));
    }

    @Test
    void batchModeSendsTheQueuedFilesAsOneInsert() throws Exception {
        distributed(" SETTINGS background_insert_batch = 1");
        sql(head(), "SYSTEM STOP DISTRIBUTED SENDS d");
        for (int i = 0; i < 3; i++) {
            sql(head(), "INSERT INTO d SELECT number + " + (10 * i) + ", 'x' FROM numbers(10)");
        }
        assertEquals(3, queued().size());
        sql(head(), "SYSTEM FLUSH DISTRIBUTED d");
        assertEquals(15, count(second()));
        assertEquals(List.of("1"), rows(second(), "SELECT count() FROM system.parts WHERE table = 'local' AND active"),
            "one insert of the three blocks, squashed into one part");
    }
}
