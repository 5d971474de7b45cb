package dev.chdedup.stub.async;

import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What queries must share to be collected into one batch: the table, the user and the settings in force, except
 * the ones that only steer the queue or the waiting and the per-query token. Mirrors ClickHouse's
 * {@code AsynchronousInsertQueue::InsertQuery}. The table is compared by identity, so a table dropped and created
 * again starts new batches.
 */
record InsertKey(StorageMergeTree table, String user, Map<String, String> settings) {
    /** Settings that do not separate batches. */
    static final Set<String> EXCLUDED = Set.of("async_insert", "wait_for_async_insert", "wait_for_async_insert_timeout",
        "async_insert_busy_timeout_ms", "async_insert_max_data_size", "insert_deduplication_token");

    static InsertKey of(StorageMergeTree table, QueryContext ctx) {
        Map<String, String> s = new TreeMap<>(ctx.settings().changed());
        s.keySet().removeAll(EXCLUDED);
        return new InsertKey(table, ctx.user(), Map.copyOf(s));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InsertKey && ((InsertKey) o).table == table && ((InsertKey) o).user.equals(user)
            && ((InsertKey) o).settings.equals(settings);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(table) * 31 * 31 + user.hashCode() * 31 + settings.hashCode();
    }

    @Override
    public String toString() {
        return table.database() + "." + table.name() + " " + settings;
    }
}
