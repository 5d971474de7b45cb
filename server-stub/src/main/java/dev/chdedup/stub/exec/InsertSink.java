package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.exec.QueryResult;

/**
 * Where an INSERT's finished blocks go: one {@link #write} per block (split by partition, one part each, after
 * any deduplication), then {@link #finish} for the summary. Mirrors ClickHouse's {@code MergeTreeSink}.
 */
public interface InsertSink {
    void write(Block block);

    QueryResult.Done finish();
}
