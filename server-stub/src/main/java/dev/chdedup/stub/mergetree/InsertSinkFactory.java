package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.exec.InsertSink;
import dev.chdedup.stub.exec.QueryContext;

/** Creates the sink an INSERT into a table writes through. */
public interface InsertSinkFactory {
    InsertSink create(StorageMergeTree table, QueryContext ctx, boolean dedupEnabled, String userToken);
}
