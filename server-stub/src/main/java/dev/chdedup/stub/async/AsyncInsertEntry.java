package dev.chdedup.stub.async;

import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.server.QueryResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One query's data waiting in the {@link AsynchronousInsertQueue}: its rows (full table rows, parsed and completed
 * when the query arrived), the size of its raw input, its deduplication token, and the future the query waits on.
 * Mirrors ClickHouse's {@code AsynchronousInsertQueue::InsertData::Entry}.
 */
final class AsyncInsertEntry {
    final QueryContext ctx;
    final List<Object[]> rows;
    /** Bytes of the query's raw input data: what {@code async_insert_max_data_size} counts. */
    final long dataBytes;
    /** {@code <insert_deduplication_token>_0}, or null: the entry's pieces are then identified by their data. */
    final String blockToken;
    /** Completed with what this query wrote once its batch is flushed, or with the batch's error. */
    final CompletableFuture<QueryResult.Done> done = new CompletableFuture<>();
    /** Partition pieces of the rows: set by the flush thread. */
    int pieces;
    /** Written by the flush thread only. */
    long writtenRows;
    long writtenBytes;

    AsyncInsertEntry(QueryContext ctx, List<Object[]> rows, long dataBytes, String blockToken) {
        this.ctx = ctx;
        this.rows = rows;
        this.dataBytes = dataBytes;
        this.blockToken = blockToken;
    }

    String queryId() {
        return ctx.queryId();
    }
}
