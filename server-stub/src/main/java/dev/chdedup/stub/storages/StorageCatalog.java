package dev.chdedup.stub.storages;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import java.util.List;
import java.util.Map;

/**
 * What the layers above the table engines (views, asynchronous inserts, replication, system tables) read from the
 * database catalog, which the server implements ({@code server.DatabaseCatalog}): tables by name, as objects, as
 * MergeTree tables to write into, or as something to read.
 */
public interface StorageCatalog extends Catalog {
    String SYSTEM = "system";

    boolean databaseExists(String name);

    List<String> databaseNames();

    /** Tables of a database by name, sorted. */
    Map<String, Object> tables(String db);

    /** The object (MergeTree table, view, Memory/Log/Null storage) or null. */
    Object find(String db, String table);

    /**
     * The MergeTree table an INSERT into {@code db.table} writes (a materialized view's target), or throws
     * UNKNOWN_DATABASE, UNKNOWN_TABLE or NOT_IMPLEMENTED for what is not one.
     */
    StorageMergeTree mergeTree(String db, String table);

    static ChException unknownDatabase(String db) {
        return new ChException(ErrorCode.UNKNOWN_DATABASE, "Database " + db + " does not exist");
    }

    static ChException unknownTable(String db, String table) {
        return new ChException(ErrorCode.UNKNOWN_TABLE, "Table " + db + "." + table + " does not exist");
    }
}
