package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.StorageCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * The SYSTEM statements of Distributed tables, which the server's SystemCommands hands on, as ClickHouse's
 * InterpreterSystemQuery runs them: {@code SYSTEM FLUSH DISTRIBUTED [db.]t} (every queued file of the table sent now;
 * an error that keeps one is the statement's) and {@code SYSTEM STOP|START DISTRIBUTED SENDS [[db.]t]} (one table, or
 * every Distributed table). 18.16's parser has none of them: a server playing it answers SYNTAX_ERROR.
 */
public final class DistributedSystemCommands {
    private final StorageCatalog catalog;

    public DistributedSystemCommands(StorageCatalog catalog) {
        this.catalog = catalog;
    }

    /** Runs a SYSTEM statement of Distributed tables; null for any other action. */
    public QueryResult execute(Statement.SystemCmd cmd, QueryContext ctx) {
        int at = cmd.action().indexOf("DISTRIBUTED");
        if (at >= 0 && StorageDistributed.isLegacy(ctx.compat())) {
            // 18.16's parser knows none of these: the error points at DISTRIBUTED, after "SYSTEM "
            String rest = cmd.action().substring(at) + (cmd.table() == null ? "" : " " + (cmd.database() == null ? "" : cmd.database() + ".")
                + cmd.table());
            throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (at + 8) + ": " + rest + ". Expected one of:"
                + " SYSTEM query");
        }
        switch (cmd.action()) {
            case "FLUSH DISTRIBUTED":
                if (cmd.table() == null) {
                    throw new ChException(ErrorCode.SYNTAX_ERROR, "SYSTEM FLUSH DISTRIBUTED needs a table");
                }
                distributed(cmd, ctx).flushClusterNodesAllData();
                return QueryResult.Done.NOTHING;
            case "STOP DISTRIBUTED SENDS":
            case "START DISTRIBUTED SENDS": {
                boolean stop = cmd.action().startsWith("STOP");
                List<StorageDistributed> tables = cmd.table() != null ? List.of(distributed(cmd, ctx)) : all();
                tables.forEach(t -> t.blockSends(stop));
                return QueryResult.Done.NOTHING;
            }
            default:
                return null;
        }
    }

    private StorageDistributed distributed(Statement.SystemCmd cmd, QueryContext ctx) {
        String db = cmd.database() != null ? cmd.database() : ctx.database();
        if (!catalog.databaseExists(db)) {
            throw StorageCatalog.unknownDatabase(db);
        }
        Object t = catalog.find(db, cmd.table());
        if (t == null) {
            throw StorageCatalog.unknownTable(db, cmd.table());
        }
        if (!(t instanceof StorageDistributed)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table " + db + "." + cmd.table() + " is not distributed");
        }
        return (StorageDistributed) t;
    }

    private List<StorageDistributed> all() {
        List<StorageDistributed> out = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (!catalog.databaseExists(db) || StorageCatalog.SYSTEM.equals(db) || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Object o : catalog.tables(db).values()) {
                if (o instanceof StorageDistributed d) {
                    out.add(d);
                }
            }
        }
        return out;
    }
}
