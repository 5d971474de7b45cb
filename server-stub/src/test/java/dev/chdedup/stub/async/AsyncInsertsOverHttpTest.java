package dev.chdedup.stub.async;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Async inserts under concurrency, over HTTP: clients insert at once, each insert sent twice (once async, once
 * sync, in either order, same token); every insert lands exactly once and the written_rows of all answers add up
 * to the rows in the table, however the queries were batched.
 */
class AsyncInsertsOverHttpTest {
    private static final Pattern WRITTEN_ROWS = Pattern.compile("\"written_rows\":\"(\\d+)\"");
    private static final int CLIENTS = 6;
    private static final int INSERTS = 8;
    private StubServer server;
    private ConformanceClient client;

    @BeforeEach
    void start() throws IOException {
        server = StubServer.builder().port(0).build().start();
        client = new ConformanceClient(server.httpUrl());
        client.query("CREATE TABLE t (c UInt32, i UInt32, v String) ENGINE = MergeTree ORDER BY (c, i) SETTINGS non_replicated_deduplication_window = 1000");
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private long send(String sql, Map<String, String> settings) {
        ConformanceClient.Reply r = client.send(sql, settings);
        r.ok();
        Matcher m = WRITTEN_ROWS.matcher(r.header("X-ClickHouse-Summary"));
        assertTrue(m.find());
        return Long.parseLong(m.group(1));
    }

    @Test
    void everyInsertLandsOnceWhateverTheBatching() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                results.add(pool.submit(() -> {
                    long written = 0;
                    for (int i = 0; i < INSERTS; i++) {
                        String sql = "INSERT INTO t VALUES (" + client + ", " + i + ", 'a'), (" + client + ", " + i + ", 'b')";
                        String token = "c" + client + "-i" + i;
                        Map<String, String> async = Map.of("async_insert", "1", "wait_for_async_insert", "1",
                            "async_insert_busy_timeout_ms", "30", "insert_deduplication_token", token);
                        Map<String, String> sync = Map.of("insert_deduplication_token", token);
                        boolean asyncFirst = (client + i) % 2 == 0;
                        written += send(sql, asyncFirst ? async : sync);
                        written += send(sql, asyncFirst ? sync : async);
                    }
                    return written;
                }));
            }
            long written = 0;
            for (Future<Long> f : results) {
                written += f.get(60, TimeUnit.SECONDS);
            }
            long rows = CLIENTS * INSERTS * 2;
            assertEquals(rows, written);
            assertEquals(rows + "\t" + CLIENTS * INSERTS + "\n", client.query("SELECT count(), uniqExact(c, i) FROM t"));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentRetriesOfOneInsertLandOnce() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                Map<String, String> settings = c % 2 == 0
                    ? Map.of("async_insert", "1", "wait_for_async_insert", "1", "async_insert_busy_timeout_ms", "30")
                    : Map.of();
                results.add(pool.submit(() -> send("INSERT INTO t VALUES (99, 1, 'x'), (99, 2, 'y')", settings)));
            }
            long written = 0;
            for (Future<Long> f : results) {
                written += f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(2, written);
            assertEquals("2\n", client.query("SELECT count() FROM t"));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * AsynchronousInsertQueue::pushQueryWithInlinedData reads at most async_insert_max_data_size bytes; an insert with
     * more (TOO_MUCH_DATA) runs synchronously: split by max_insert_block_size, one part and one id (token and ordinal)
     * a block, so its retry, async or not, is dropped block by block, where a queued insert is one block and one part.
     */
    @Test
    void anInsertOverAsyncInsertMaxDataSizeIsInsertedSynchronously() {
        client.query("SYSTEM STOP MERGES t");
        String rows = "5\t1\taaaaaaaaaa\n5\t2\tbbbbbbbbbb\n5\t3\tcccccccccc\n"; // 45 bytes
        Map<String, String> blocks = Map.of("max_insert_block_size", "1", "min_insert_block_size_rows", "0", "min_insert_block_size_bytes", "0");
        Map<String, String> tooMuch = new java.util.HashMap<>(blocks);
        tooMuch.putAll(Map.of("async_insert", "1", "wait_for_async_insert", "1", "async_insert_busy_timeout_ms", "30",
            "async_insert_max_data_size", "40", "insert_deduplication_token", "big"));
        assertEquals(3, send("INSERT INTO t FORMAT TabSeparated\n" + rows, tooMuch));
        assertEquals("3\n", client.query("SELECT count() FROM system.parts WHERE table = 't' AND active"));
        assertEquals(0, send("INSERT INTO t FORMAT TabSeparated\n" + rows, tooMuch));
        Map<String, String> sync = new java.util.HashMap<>(blocks);
        sync.put("insert_deduplication_token", "big");
        assertEquals(0, send("INSERT INTO t FORMAT TabSeparated\n" + rows, sync));

        Map<String, String> queued = new java.util.HashMap<>(tooMuch);
        queued.putAll(Map.of("async_insert_max_data_size", "60", "insert_deduplication_token", "small"));
        assertEquals(3, send("INSERT INTO t FORMAT TabSeparated\n" + rows, queued));
        assertEquals("4\t6\n", client.query("SELECT count(), sum(rows) FROM system.parts WHERE table = 't' AND active"));
        assertEquals(0, send("INSERT INTO t FORMAT TabSeparated\n" + rows, queued));
    }

    @Test
    void dataInTheBodyInAnyFormatIsQueuedAndMatchesASyncRetry() {
        Map<String, String> async = Map.of("async_insert", "1", "wait_for_async_insert", "1", "async_insert_busy_timeout_ms", "30");
        assertEquals(2, send("INSERT INTO t FORMAT JSONEachRow\n{\"c\":1,\"i\":1,\"v\":\"j\"}\n{\"c\":1,\"i\":2,\"v\":\"k\"}\n", async));
        assertEquals(1, send("INSERT INTO t FORMAT TabSeparated\n2\t1\tt\n", async));
        // the same rows sent synchronously in another format are the same block
        assertEquals(0, send("INSERT INTO t VALUES (1, 1, 'j'), (1, 2, 'k')", Map.of()));
        assertEquals(0, send("INSERT INTO t FORMAT CSV\n2,1,t\n", Map.of()));
        assertEquals("3\n", client.query("SELECT count() FROM t"));
    }
}
