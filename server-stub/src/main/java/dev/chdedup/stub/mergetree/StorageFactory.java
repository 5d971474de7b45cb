package dev.chdedup.stub.mergetree;

import java.io.IOException;
import java.nio.file.Path;

/** Makes the storage object of a table from its definition (StorageMergeTree, or a replicated engine). */
public interface StorageFactory {
    StorageMergeTree create(String db, String table, TableDefinition def, Path dir, MergeTreeBackgroundExecutor merges) throws IOException;
}
