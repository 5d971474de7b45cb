package dev.chdedup.stub.async;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.server.DatabaseCatalog;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue alone, with a recording batch writer: which queries share a batch, when a batch is flushed (size,
 * busy timeout, flushAll, close), and that a batch's error reaches every query in it.
 */
class AsynchronousInsertQueueTest {
    /** Generous: only reached when something is broken. */
    private static final long DEADLINE_SECONDS = 10;

    @TempDir
    Path dir;
    private DatabaseCatalog catalog;
    private StorageMergeTree t1;
    private StorageMergeTree t2;
    private final List<List<AsyncInsertEntry>> batches = new CopyOnWriteArrayList<>();
    private volatile RuntimeException failWith;
    private AsynchronousInsertQueue queue;

    @BeforeEach
    void setUp() throws Exception {
        catalog = new DatabaseCatalog(dir);
        catalog.createDatabase("db", false);
        t1 = table("t1");
        t2 = table("t2");
        queue = new AsynchronousInsertQueue((table, entries) -> {
            if (failWith != null) {
                throw failWith;
            }
            for (AsyncInsertEntry e : entries) {
                e.writtenRows = e.rows.size();
            }
            batches.add(List.copyOf(entries));
        }).start();
    }

    @AfterEach
    void tearDown() {
        queue.close();
        catalog.close();
    }

    private StorageMergeTree table(String name) throws Exception {
        String sql = "CREATE TABLE db." + name + " (k UInt32) ENGINE = MergeTree ORDER BY k";
        catalog.createTable("db", name, (Statement.CreateTable) Parser.parse(sql), sql);
        return catalog.mergeTree("db", name);
    }

    private static QueryContext ctx(String queryId, Map<String, String> settings) {
        return new QueryContext("db", "default", queryId, Settings.DEFAULTS.with(settings));
    }

    private static List<Object[]> rows(int n) {
        List<Object[]> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new Object[] {(long) i});
        }
        return l;
    }

    private CompletableFuture<QueryResult.Done> push(StorageMergeTree t, String id, int rows, long bytes, Map<String, String> settings) {
        return queue.push(t, ctx(id, settings), rows(rows), bytes, new int[] {0});
    }

    private static QueryResult.Done await(CompletableFuture<QueryResult.Done> f) throws Exception {
        return f.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void queriesWithTheSameKeyShareABatchFlushedWhenItsDataIsBigEnough() throws Exception {
        Map<String, String> s = Map.of("async_insert_busy_timeout_ms", "600000", "async_insert_max_data_size", "25");
        CompletableFuture<QueryResult.Done> a = push(t1, "a", 1, 10, s);
        // the token and the queue's own settings do not separate batches
        CompletableFuture<QueryResult.Done> b = push(t1, "b", 2, 10, Map.of("async_insert_busy_timeout_ms", "600000",
            "async_insert_max_data_size", "25", "insert_deduplication_token", "tok", "wait_for_async_insert", "0"));
        assertEquals(2, queue.queuedQueries());
        assertFalse(a.isDone() || b.isDone());
        CompletableFuture<QueryResult.Done> c = push(t1, "c", 3, 10, s);
        assertEquals(new QueryResult.Done(1, 0), await(a));
        assertEquals(new QueryResult.Done(2, 0), await(b));
        assertEquals(new QueryResult.Done(3, 0), await(c));
        assertEquals(1, batches.size());
        List<AsyncInsertEntry> batch = batches.get(0);
        assertEquals(List.of("a", "b", "c"), batch.stream().map(AsyncInsertEntry::queryId).toList());
        assertEquals("tok", batch.get(1).userToken, "each query keeps its own token");
        assertEquals(null, batch.get(0).userToken);
        assertEquals(0, queue.queuedQueries());
    }

    @Test
    void otherSettingsOrAnotherTableMakeAnotherBatch() throws Exception {
        Map<String, String> s = Map.of("async_insert_busy_timeout_ms", "600000");
        CompletableFuture<QueryResult.Done> a = push(t1, "a", 1, 1, s);
        CompletableFuture<QueryResult.Done> b = push(t1, "b", 1, 1, Map.of("async_insert_busy_timeout_ms", "600000", "max_insert_block_size", "7"));
        CompletableFuture<QueryResult.Done> c = push(t2, "c", 1, 1, s);
        CompletableFuture<QueryResult.Done> d = push(t1, "d", 1, 1, Map.of("async_insert_busy_timeout_ms", "600000",
            "deduplicate_insert", "disable"));
        assertEquals(4, queue.queuedQueries());
        queue.flushAll();
        for (CompletableFuture<QueryResult.Done> f : List.of(a, b, c, d)) {
            assertTrue(f.isDone());
        }
        assertEquals(4, batches.size());
        assertEquals(0, queue.queuedQueries());
    }

    @Test
    void theBusyTimeoutFlushesABatch() throws Exception {
        long start = System.nanoTime();
        CompletableFuture<QueryResult.Done> a = push(t1, "a", 2, 1, Map.of("async_insert_busy_timeout_ms", "100"));
        CompletableFuture<QueryResult.Done> b = push(t1, "b", 1, 1, Map.of("async_insert_busy_timeout_ms", "100"));
        assertEquals(new QueryResult.Done(2, 0), await(a));
        assertEquals(new QueryResult.Done(1, 0), await(b));
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(elapsedMs >= 100, "flushed after " + elapsedMs + " ms, before the busy timeout");
        assertEquals(1, batches.size());
        assertEquals(2, batches.get(0).size());
    }

    @Test
    void anErrorFailsEveryQueryOfTheBatch() throws Exception {
        ChException boom = new ChException(ErrorCode.TOO_MANY_PARTS, "boom");
        failWith = boom;
        Map<String, String> s = Map.of("async_insert_busy_timeout_ms", "600000", "async_insert_max_data_size", "3");
        CompletableFuture<QueryResult.Done> a = push(t1, "a", 1, 1, s);
        CompletableFuture<QueryResult.Done> b = push(t1, "b", 1, 1, s);
        CompletableFuture<QueryResult.Done> c = push(t1, "c", 1, 1, s);
        for (CompletableFuture<QueryResult.Done> f : List.of(a, b, c)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> await(f));
            assertSame(boom, e.getCause());
        }
        // the next batch is independent
        failWith = null;
        assertEquals(new QueryResult.Done(1, 0), await(push(t1, "d", 1, 5, s)));
    }

    @Test
    void closeFlushesWhatIsQueuedAndRefusesMore() throws Exception {
        CompletableFuture<QueryResult.Done> a = push(t1, "a", 1, 1, Map.of("async_insert_busy_timeout_ms", "600000"));
        CompletableFuture<QueryResult.Done> b = push(t2, "b", 4, 1, Map.of("async_insert_busy_timeout_ms", "600000"));
        queue.close();
        assertEquals(AsynchronousInsertQueue.State.CLOSED, queue.state());
        assertEquals(new QueryResult.Done(1, 0), a.getNow(null));
        assertEquals(new QueryResult.Done(4, 0), b.getNow(null));
        ChException refused = assertThrows(ChException.class, () -> push(t1, "c", 1, 1, Map.of()));
        assertEquals(ErrorCode.ABORTED, refused.code());
    }
}
