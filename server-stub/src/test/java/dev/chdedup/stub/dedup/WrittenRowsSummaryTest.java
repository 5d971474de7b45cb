package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code X-ClickHouse-Summary} header an INSERT gets over HTTP: written_rows counts what was written, so a
 * deduplicated retry says 0, a partially deduplicated one the new rows, an async insert that waits its own rows
 * once flushed, one that does not wait 0.
 */
class WrittenRowsSummaryTest {
    private static final Pattern WRITTEN_ROWS = Pattern.compile("\"written_rows\":\"(\\d+)\"");
    private static StubServer server;
    private static ConformanceClient client;
    private static int tables;
    private String table;

    @BeforeAll
    static void start() throws IOException {
        server = StubServer.builder().port(0).build().start();
        client = new ConformanceClient(server.httpUrl());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    @BeforeEach
    void createTable() {
        table = "t" + (++tables);
        client.query("CREATE TABLE " + table + " (k UInt32) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100");
    }

    private static long writtenRows(String sql, Map<String, String> settings) {
        ConformanceClient.Reply r = client.send(sql, settings);
        r.ok();
        String summary = r.header("X-ClickHouse-Summary");
        assertNotNull(summary, "no X-ClickHouse-Summary");
        Matcher m = WRITTEN_ROWS.matcher(summary);
        assertTrue(m.find(), summary);
        return Long.parseLong(m.group(1));
    }

    private static long writtenRows(String sql) {
        return writtenRows(sql, Map.of());
    }

    private long count() {
        return Long.parseLong(client.query("SELECT count() FROM " + table).strip());
    }

    @Test
    void syncInsertAndItsRetry() {
        assertEquals(3, writtenRows("INSERT INTO " + table + " VALUES (1), (2), (3)"));
        assertEquals(0, writtenRows("INSERT INTO " + table + " VALUES (1), (2), (3)"));
        assertEquals(3, count());
    }

    @Test
    void partialRetryCountsTheNewBlockOnly() {
        Map<String, String> blocksOfTwo = Map.of("max_insert_block_size", "2", "min_insert_block_size_rows", "0",
            "min_insert_block_size_bytes", "0");
        assertEquals(4, writtenRows("INSERT INTO " + table + " VALUES (1), (2), (3), (4)", blocksOfTwo));
        assertEquals(2, writtenRows("INSERT INTO " + table + " VALUES (1), (2), (3), (4), (5), (6)", blocksOfTwo));
        assertEquals(6, count());
    }

    @Test
    void asyncInsertThatWaitsReportsItsOwnRowsAfterTheFlush() {
        Map<String, String> async = new LinkedHashMap<>(Map.of("async_insert", "1", "wait_for_async_insert", "1",
            "async_insert_busy_timeout_ms", "300"));
        long start = System.nanoTime();
        assertEquals(2, writtenRows("INSERT INTO " + table + " VALUES (1), (2)", async));
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(elapsedMs >= 300, "answered after " + elapsedMs + " ms, before the batch could be flushed");
        assertEquals(2, count(), "the rows are there when the insert returns");
        // its retry, asynchronous or synchronous, is deduplicated
        assertEquals(0, writtenRows("INSERT INTO " + table + " VALUES (1), (2)", async));
        assertEquals(0, writtenRows("INSERT INTO " + table + " VALUES (1), (2)"));
        assertEquals(2, count());
    }

    @Test
    void asyncInsertThatDoesNotWaitReportsNothingAndLandsLater() {
        Map<String, String> noWait = Map.of("async_insert", "1", "wait_for_async_insert", "0", "async_insert_busy_timeout_ms", "600000");
        assertEquals(0, writtenRows("INSERT INTO " + table + " VALUES (7), (8), (9)", noWait));
        assertEquals(0, count());
        // a waiting query of the same batch flushes it (the batch's data reaches async_insert_max_data_size, its own
        // does not pass it: more would be inserted synchronously) and reports only its own rows
        Map<String, String> flush = Map.of("async_insert", "1", "wait_for_async_insert", "1", "async_insert_busy_timeout_ms", "600000",
            "async_insert_max_data_size", "8");
        assertEquals(1, writtenRows("INSERT INTO " + table + " VALUES (10)", flush));
        assertEquals(4, count());
        // a deduplicated query in a batch reports 0
        assertEquals(0, writtenRows("INSERT INTO " + table + " VALUES (10)", noWait));
        assertEquals(0, writtenRows("INSERT INTO " + table + " VALUES (10)", flush));
        assertEquals(4, count());
    }
}
