package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/** What the query engine needs of the database catalog: resolving a table name to something readable. */
public interface Catalog {
    /** The table, or throws UNKNOWN_TABLE / UNKNOWN_DATABASE. */
    TableSource table(String database, String table, QueryContext ctx);

    /** The tables of other servers (the remote and cluster table functions): none outside a running server. */
    default RemoteTables remoteTables() {
        return RemoteTables.NONE;
    }

    /**
     * The rows of the table function file() (ClickHouse's StorageFile over its user_files_path): {@code format} and
     * {@code compression} may be {@code auto}, {@code columns} null for a structure to infer. A catalog without user
     * files (a view's overlay) refuses it.
     */
    default SelectExecutor.Stream file(String name, String format, java.util.List<dev.chdedup.stub.data.Column> columns, String compression,
                                       int maxBlock) {
        throw new ChException(ErrorCode.DATABASE_ACCESS_DENIED, "The table function file has no user_files directory here");
    }

    /**
     * The dictionary dictGet and {@code dictionary()} name: {@code db.name}, or {@code name} in the current database, as
     * ClickHouse's ExternalDictionariesLoader resolves it; a dictionary is a table of the catalog, so it is found as one.
     * Throws BAD_ARGUMENTS {@code Dictionary (`name`) not found} for any other name.
     */
    default IDictionary dictionary(String name, QueryContext ctx) {
        int dot = name.indexOf('.');
        String db = dot < 0 ? ctx.database() : name.substring(0, dot);
        String table = dot < 0 ? name : name.substring(dot + 1);
        TableSource t;
        try {
            t = table(db, table, ctx);
        } catch (ChException e) {
            if (e.code() != ErrorCode.UNKNOWN_TABLE && e.code() != ErrorCode.UNKNOWN_DATABASE) {
                throw e;
            }
            t = null;
        }
        if (t instanceof IDictionary d) {
            return d;
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dictionary (`" + name + "`) not found");
    }
}
