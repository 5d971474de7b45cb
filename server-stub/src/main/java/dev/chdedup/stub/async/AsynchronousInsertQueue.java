package dev.chdedup.stub.async;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-side batching of inserts ({@code async_insert=1}), after ClickHouse's {@code AsynchronousInsertQueue}:
 * queries with the same {@link InsertKey} are collected into one batch, flushed by one background thread when the
 * first query's {@code async_insert_busy_timeout_ms} has passed or the batch's data reaches a query's
 * {@code async_insert_max_data_size}, and written by {@link AsyncInsertSink} (deduplication stays per query). Each
 * query gets a future completed after the flush of its batch, with what it wrote or with the batch's error.
 * Lifecycle LATENT, STARTED, CLOSED; closing flushes whatever is queued.
 */
public final class AsynchronousInsertQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AsynchronousInsertQueue.class);
    /** How long {@link #close()} waits for the last flushes. */
    static final long CLOSE_TIMEOUT_SECONDS = 30;

    public enum State { LATENT, STARTED, CLOSED }

    /** The queries collected for one key, flushed together. */
    private static final class Batch {
        final InsertKey key;
        final List<AsyncInsertEntry> entries = new ArrayList<>();
        long dataBytes;
        ScheduledFuture<?> timer;

        Batch(InsertKey key) {
            this.key = key;
        }
    }

    /** Writes one flushed batch: {@link AsyncInsertSink} in the server, a fake in tests. */
    interface BatchWriter {
        void write(StorageMergeTree table, List<AsyncInsertEntry> entries);
    }

    private final BatchWriter sink;
    private final ScheduledThreadPoolExecutor flusher;
    /** Open batches, each also scheduled on {@link #flusher}; a batch leaves the map before it is flushed. */
    private final Map<InsertKey, Batch> queue = new HashMap<>();
    private State state = State.LATENT;

    public AsynchronousInsertQueue(AsyncInsertSink sink) {
        this((BatchWriter) sink::write);
    }

    AsynchronousInsertQueue(BatchWriter sink) {
        this.sink = sink;
        this.flusher = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "async-insert-flush");
            t.setDaemon(true);
            return t;
        });
        flusher.setRemoveOnCancelPolicy(true);
    }

    public synchronized AsynchronousInsertQueue start() {
        if (state == State.CLOSED) {
            throw new IllegalStateException("closed");
        }
        state = State.STARTED;
        return this;
    }

    public synchronized State state() {
        return state;
    }

    /** Queries waiting in batches not yet taken for a flush. */
    public synchronized int queuedQueries() {
        int n = 0;
        for (Batch b : queue.values()) {
            n += b.entries.size();
        }
        return n;
    }

    /**
     * Queues one query's rows (full table rows) for {@code table}; {@code dataBytes} is the size of its raw input,
     * {@code sentColumns} the columns of a row it sent (what its data hash covers).
     * Its token is its {@code insert_deduplication_token} (one query is one block) or none.
     */
    public CompletableFuture<QueryResult.Done> push(StorageMergeTree table, QueryContext ctx, List<Object[]> rows, long dataBytes,
                                                    int[] sentColumns) {
        Settings s = ctx.settings();
        String userToken = s.get("insert_deduplication_token");
        AsyncInsertEntry entry = new AsyncInsertEntry(ctx, rows, dataBytes,
            userToken.isEmpty() ? null : userToken, sentColumns);
        long timeoutMs = Math.max(0, s.getLong("async_insert_busy_timeout_ms"));
        long maxBytes = s.getLong("async_insert_max_data_size");
        InsertKey key = InsertKey.of(table, ctx);
        synchronized (this) {
            if (state != State.STARTED) {
                throw new ChException(ErrorCode.ABORTED, "The asynchronous insert queue is " + state.name().toLowerCase()
                    + ": the server is not running");
            }
            Batch batch = queue.get(key);
            if (batch == null) {
                Batch created = new Batch(key);
                queue.put(key, created);
                created.timer = flusher.schedule(() -> flushIfQueued(created), timeoutMs, TimeUnit.MILLISECONDS);
                batch = created;
            }
            batch.entries.add(entry);
            batch.dataBytes += dataBytes;
            if (batch.dataBytes >= maxBytes) {
                takeUnlocked(batch);
                Batch full = batch;
                flusher.execute(() -> flush(full));
            }
        }
        return entry.done;
    }

    /** Flushes every queued batch now and waits for the flushes (SYSTEM FLUSH ASYNC INSERT QUEUE). */
    public void flushAll() {
        List<CompletableFuture<QueryResult.Done>> waits = new ArrayList<>();
        synchronized (this) {
            for (Batch b : new ArrayList<>(queue.values())) {
                takeUnlocked(b);
                for (AsyncInsertEntry e : b.entries) {
                    waits.add(e.done);
                }
                flusher.execute(() -> flush(b));
            }
        }
        for (CompletableFuture<QueryResult.Done> w : waits) {
            w.handle((d, t) -> null).join();
        }
    }

    private void takeUnlocked(Batch b) {
        queue.remove(b.key, b);
        if (b.timer != null) {
            b.timer.cancel(false);
        }
    }

    private void flushIfQueued(Batch b) {
        synchronized (this) {
            if (queue.get(b.key) != b) {
                return;
            }
            queue.remove(b.key);
        }
        flush(b);
    }

    private void flush(Batch b) {
        try {
            sink.write(b.key.table(), b.entries);
            for (AsyncInsertEntry e : b.entries) {
                e.done.complete(new QueryResult.Done(e.writtenRows, e.writtenBytes));
            }
        } catch (Throwable t) {
            LOG.warn("Flush of {} async inserts into {} failed: {}", b.entries.size(), b.key, t.toString());
            for (AsyncInsertEntry e : b.entries) {
                e.done.completeExceptionally(t);
            }
        }
    }

    /** Flushes what is queued, waits up to {@link #CLOSE_TIMEOUT_SECONDS} for it, and stops the flush thread. */
    @Override
    public void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            for (Batch b : new ArrayList<>(queue.values())) {
                takeUnlocked(b);
                flusher.execute(() -> flush(b));
            }
        }
        flusher.shutdown();
        try {
            if (!flusher.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Async insert flushes still running after {} s; abandoning them", CLOSE_TIMEOUT_SECONDS);
                flusher.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            flusher.shutdownNow();
        }
    }
}
