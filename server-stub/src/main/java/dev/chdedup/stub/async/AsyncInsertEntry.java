package dev.chdedup.stub.async;

import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
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
    /** The query's {@code insert_deduplication_token}, or null: its rows then identify it. */
    final String userToken;
    /** Completed with what this query wrote once its batch is flushed, or with the batch's error. */
    final CompletableFuture<QueryResult.Done> done = new CompletableFuture<>();
    /** Written by the flush thread only. */
    long writtenRows;
    long writtenBytes;

    /** The columns of a row the query sent, in its order (indexes): what its data hash covers. */
    final int[] sentColumns;

    AsyncInsertEntry(QueryContext ctx, List<Object[]> rows, long dataBytes, String userToken, int[] sentColumns) {
        this.sentColumns = sentColumns;
        this.ctx = ctx;
        this.rows = rows;
        this.dataBytes = dataBytes;
        this.userToken = userToken;
    }

    String queryId() {
        return ctx.queryId();
    }
}
