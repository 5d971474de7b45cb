package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.system.Events;
import java.util.List;
import java.util.Map;

/**
 * Writes each block into a MergeTree table: splits it by partition (refusing more than
 * {@code max_partitions_per_insert_block}), sorts each piece by the ORDER BY key and commits it as a part.
 */
public class MergeTreeSink implements InsertSink {
    protected final StorageMergeTree table;
    protected final QueryContext ctx;
    protected final Events events;
    protected long writtenRows;
    protected long writtenBytes;

    public MergeTreeSink(StorageMergeTree table, QueryContext ctx, Events events) {
        this.table = table;
        this.ctx = ctx;
        this.events = events;
    }

    @Override
    public void write(Block block) {
        Map<String, List<Object[]>> parts = table.splitByPartition(block.rows(),
            ctx.settings().getLong("max_partitions_per_insert_block"), ctx.settings().getBool("throw_on_max_partitions_per_insert_block"));
        for (Map.Entry<String, List<Object[]>> e : parts.entrySet()) {
            table.checkTooManyParts(e.getKey());
        }
        for (Map.Entry<String, List<Object[]>> e : parts.entrySet()) {
            writePartition(e.getKey(), e.getValue(), block);
        }
    }

    protected void writePartition(String partitionId, List<Object[]> rows, Block block) {
        table.sortByKey(rows);
        var part = table.writePart(partitionId, rows, List.of());
        writtenRows += rows.size();
        writtenBytes += part.bytesOnDisk();
        events.increment("InsertedRows", rows.size());
        events.increment("InsertedBytes", part.bytesOnDisk());
    }

    @Override
    public QueryResult.Done finish() {
        return new QueryResult.Done(writtenRows, writtenBytes);
    }
}
