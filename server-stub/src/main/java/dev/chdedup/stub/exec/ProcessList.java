package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The queries running now, by query id, after ClickHouse's {@code ProcessList}: what {@code system.processes}
 * shows and {@code KILL QUERY} cancels. A second query with the id of a running one is refused
 * ({@code QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING}); a cancelled query stops at its next block with
 * {@code QUERY_WAS_CANCELLED}.
 */
public final class ProcessList {
    /** One running query; {@link #cancelled} is set by KILL QUERY and read by the query between blocks. */
    public static final class Entry {
        public final String queryId;
        public final String user;
        public final String query;
        /** Who sent the query and with which settings: what query_log and processes show of its client. */
        public final ClientInfo client;
        public final long startNanos = System.nanoTime();
        public final java.time.Instant startTime = java.time.Instant.now();
        private volatile boolean cancelled;
        private volatile boolean finished;
        /** The error the query ended with, null while it runs and when it succeeded. */
        private volatile Throwable failure;

        Entry(String queryId, String user, String query, ClientInfo client) {
            this.queryId = queryId;
            this.user = user;
            this.query = query;
            this.client = client;
        }

        public void cancel() {
            cancelled = true;
        }

        public boolean isCancelled() {
            return cancelled;
        }

        public boolean isFinished() {
            return finished;
        }

        private volatile long writtenRows;
        private volatile long writtenBytes;
        private volatile long resultRows;

        /** Records what an INSERT wrote (system.query_log written_rows/written_bytes). */
        public void wrote(long rows, long bytes) {
            writtenRows = rows;
            writtenBytes = bytes;
        }

        /** Records the rows a SELECT returned (system.query_log result_rows). */
        public void returned(long rows) {
            resultRows = rows;
        }

        long writtenRows() {
            return writtenRows;
        }

        long writtenBytes() {
            return writtenBytes;
        }

        long resultRows() {
            return resultRows;
        }

        /** Records the error the query ends with, for system.query_log. */
        public void fail(Throwable t) {
            failure = t;
        }

        Throwable failure() {
            return failure;
        }

        public double elapsedSeconds() {
            return (System.nanoTime() - startNanos) / 1e9;
        }

        private final java.util.concurrent.atomic.LongAdder readRows = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder readBytes = new java.util.concurrent.atomic.LongAdder();
        private final java.util.concurrent.atomic.LongAdder inputRows = new java.util.concurrent.atomic.LongAdder();
        /** Rows that reached a LIMIT; -1 while no LIMIT has seen any. */
        private final java.util.concurrent.atomic.AtomicLong rowsBeforeLimit = new java.util.concurrent.atomic.AtomicLong(-1);

        /** Counts rows (and their bytes) read from tables and table functions. */
        public void addRead(long rows, long bytes) {
            readRows.add(rows);
            readBytes.add(bytes);
        }

        /** Rows read from the request's own data (an INSERT's input): read, but not among the rows to read from tables. */
        public void addInputRead(long rows, long bytes) {
            addRead(rows, bytes);
            inputRows.add(rows);
        }

        /** The rows to read from tables: those read, but the request's own data. */
        public long tableRowsRead() {
            return readRows.sum() - inputRows.sum();
        }

        public long readRows() {
            return readRows.sum();
        }

        public long readBytes() {
            return readBytes.sum();
        }

        public void addRowsBeforeLimit(long rows) {
            rowsBeforeLimit.accumulateAndGet(rows, (a, b) -> Math.max(a, 0) + b);
        }

        /** The rows that reached a LIMIT (at least that many: a streamed LIMIT stops reading), or -1 without LIMIT. */
        public long rowsBeforeLimit() {
            return rowsBeforeLimit.get();
        }

        /** Whether the client is still there (null: not watched), asked by the thread that set it. */
        private volatile java.util.function.BooleanSupplier peerConnected;
        private volatile Thread peerWatcher;
        private long nextPeerCheck;

        /**
         * Cancels this query once {@code connected} says the client has gone, as ClickHouse's HTTP handler does for a
         * read-only query with {@code cancel_http_readonly_queries_on_client_close}. It is asked between blocks, at most
         * every {@link #PEER_CHECK_NANOS}, and only on the calling thread (the one that owns the connection).
         */
        public void watchPeer(java.util.function.BooleanSupplier connected) {
            peerWatcher = Thread.currentThread();
            peerConnected = connected;
        }

        /** Throws QUERY_WAS_CANCELLED once KILL QUERY has cancelled this query or its watched client has gone. */
        public void checkCancelled() {
            java.util.function.BooleanSupplier peer = peerConnected;
            if (peer != null && !cancelled && Thread.currentThread() == peerWatcher) {
                long now = System.nanoTime();
                if (now - nextPeerCheck >= 0) {
                    nextPeerCheck = now + PEER_CHECK_NANOS;
                    if (!peer.getAsBoolean()) {
                        cancelled = true;
                    }
                }
            }
            if (cancelled) {
                throw new ChException(ErrorCode.QUERY_WAS_CANCELLED, "Query was cancelled");
            }
        }
    }

    /** How often a watched query asks whether its client is still connected. */
    static final long PEER_CHECK_NANOS = 50_000_000L;

    private final Map<String, Entry> running = new ConcurrentHashMap<>();
    private final QueryLog queryLog = new QueryLog();

    /** The queries that started and ended here: system.query_log. */
    public QueryLog queryLog() {
        return queryLog;
    }

    public Entry register(String queryId, String user, String query) {
        return register(queryId, user, query, ClientInfo.NONE);
    }

    public Entry register(String queryId, String user, String query, ClientInfo client) {
        Entry e = new Entry(queryId, user, query, client);
        if (running.putIfAbsent(queryId, e) != null) {
            throw new ChException(ErrorCode.QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING, "Query with id = " + queryId + " is already running.");
        }
        queryLog.started(e);
        return e;
    }

    public void unregister(Entry e) {
        e.finished = true;
        if (running.remove(e.queryId, e)) {
            queryLog.finished(e); // once, though an INSERT may leave the list before its answer is sent
        }
    }

    public List<Entry> snapshot() {
        return new ArrayList<>(running.values());
    }
}
