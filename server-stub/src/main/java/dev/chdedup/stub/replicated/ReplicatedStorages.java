package dev.chdedup.stub.replicated;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.dedup.DeduplicatingSink;
import dev.chdedup.stub.mergetree.InsertSinkFactory;
import dev.chdedup.stub.mergetree.StorageFactory;
import dev.chdedup.stub.mergetree.StorageMergeTree;

/**
 * Where the server picks the replicated engine: the catalog's storage factory makes a
 * {@link StorageReplicatedMergeTree} for {@code Replicated*} engines (and the plain StorageMergeTree otherwise), and
 * the insert sink factory sends inserts into such a table through {@link ReplicatedMergeTreeSink}.
 */
public final class ReplicatedStorages {
    private ReplicatedStorages() {
    }

    public static StorageFactory factory(ReplicationContext context) {
        return (db, table, def, dir, merges, renamedFrom) -> def.engine().startsWith("Replicated")
            ? new StorageReplicatedMergeTree(db, table, def, dir, context, renamedFrom)
            : new StorageMergeTree(db, table, def, dir, merges, renamedFrom);
    }

    public static InsertSinkFactory sinks(InsertSinkFactory local, Events events, DeduplicatingSink.ViewPusher views) {
        return (table, ctx, dedup, token) -> table instanceof StorageReplicatedMergeTree
            ? new ReplicatedMergeTreeSink((StorageReplicatedMergeTree) table, ctx, events, dedup, token, views)
            : local.create(table, ctx, dedup, token);
    }
}
