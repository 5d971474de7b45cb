package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.exec.InsertSink;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;

/**
 * The base of the sinks that write blocks into a MergeTree table: the table, the query and what it wrote, for the
 * summary. Each block is split by partition (refusing more than {@code max_partitions_per_insert_block}), sorted
 * by the ORDER BY key and committed as one part per partition by the subclass
 * ({@link dev.chdedup.stub.dedup.DeduplicatingSink}, with or without a deduplication log).
 */
public abstract class MergeTreeSink implements InsertSink {
    protected final StorageMergeTree table;
    protected final QueryContext ctx;
    protected final Events events;
    protected long writtenRows;
    protected long writtenBytes;

    protected MergeTreeSink(StorageMergeTree table, QueryContext ctx, Events events) {
        this.table = table;
        this.ctx = ctx;
        this.events = events;
    }

    @Override
    public QueryResult.Done finish() {
        return new QueryResult.Done(writtenRows, writtenBytes);
    }
}
