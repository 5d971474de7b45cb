package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The counters in {@code system.events} for deduplicated blocks, checked by value on a server of their own:
 * DuplicatedInsertedBlocks per dropped partition piece of a synchronous insert, DuplicatedAsyncInserts and
 * SelfDuplicatedAsyncInserts per removed async query; and the matching error-389 rows in system.part_log.
 */
class DeduplicationEventsTest {
    private StubServer server;
    private ConformanceClient c;

    @BeforeEach
    void start() throws IOException {
        server = StubServer.builder().port(0).build().start();
        c = new ConformanceClient(server.httpUrl());
        c.query("CREATE TABLE t (p UInt8, k UInt32) ENGINE = MergeTree PARTITION BY p ORDER BY k SETTINGS non_replicated_deduplication_window = 100");
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private Map<String, Long> events() {
        Map<String, Long> m = new HashMap<>();
        for (String line : c.query("SELECT event, value FROM system.events").split("\n")) {
            if (!line.isEmpty()) {
                String[] f = line.split("\t");
                m.put(f[0], Long.parseLong(f[1]));
            }
        }
        return m;
    }

    private long deduplicatedInPartLog() {
        return Long.parseLong(c.query("SELECT count() FROM system.part_log WHERE table = 't' AND error = 389").strip());
    }

    @Test
    void synchronousDuplicatesArePartitionPieces() {
        c.query("INSERT INTO t VALUES (1, 1), (2, 2)");
        assertEquals(0, events().getOrDefault("DuplicatedInsertedBlocks", 0L));
        c.query("INSERT INTO t VALUES (1, 1), (2, 2)");
        assertEquals(2, events().get("DuplicatedInsertedBlocks"));
        // its piece (1, 1) equals the first insert's, but not its block (the hash covers the block as sent)
        c.query("INSERT INTO t VALUES (1, 1), (3, 3)");
        assertEquals(2, events().get("DuplicatedInsertedBlocks"));
        c.query("INSERT INTO t VALUES (1, 1), (3, 3)");
        assertEquals(4, events().get("DuplicatedInsertedBlocks"));
        assertEquals(0, events().getOrDefault("DuplicatedAsyncInserts", 0L));
        assertEquals(4, deduplicatedInPartLog());
    }

    @Test
    void asynchronousDuplicatesAreQueries() {
        c.query("INSERT INTO t VALUES (1, 1)");
        Map<String, String> noWait = Map.of("async_insert", "1", "wait_for_async_insert", "0", "async_insert_busy_timeout_ms", "600000");
        Map<String, String> flush = Map.of("async_insert", "1", "wait_for_async_insert", "1", "async_insert_busy_timeout_ms", "600000",
            "async_insert_max_data_size", "10"); // the batch reaches it, the query's own data does not pass it
        c.query("INSERT INTO t VALUES (1, 1)", noWait);
        c.query("INSERT INTO t VALUES (2, 5)", noWait);
        c.query("INSERT INTO t SETTINGS insert_deduplication_token = 'x' VALUES (2, 6)", noWait);
        c.query("INSERT INTO t SETTINGS insert_deduplication_token = 'x' VALUES (2, 7)", noWait);
        c.query("INSERT INTO t VALUES (2, 5)", flush);
        Map<String, Long> e = events();
        assertEquals(1, e.get("DuplicatedAsyncInserts"));
        assertEquals(2, e.get("SelfDuplicatedAsyncInserts"));
        assertEquals(0, e.getOrDefault("DuplicatedInsertedBlocks", 0L));
        assertEquals(3, deduplicatedInPartLog());
        assertEquals("1\t1\n2\t5\n2\t6\n", c.query("SELECT p, k FROM t ORDER BY p, k"));
    }
}
