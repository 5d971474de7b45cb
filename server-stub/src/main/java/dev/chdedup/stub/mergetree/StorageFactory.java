package dev.chdedup.stub.mergetree;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Makes the storage object of a table from its definition (StorageMergeTree, or a replicated engine); opened again
 * after an ALTER, with the columns it renamed (new name to the name its parts still have).
 */
public interface StorageFactory {
    StorageMergeTree create(String db, String table, TableDefinition def, Path dir, MergeTreeBackgroundExecutor merges,
                            java.util.Map<String, String> renamedFrom) throws IOException;

    default StorageMergeTree create(String db, String table, TableDefinition def, Path dir, MergeTreeBackgroundExecutor merges)
        throws IOException {
        return create(db, table, def, dir, merges, java.util.Map.of());
    }
}
