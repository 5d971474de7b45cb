package dev.chdedup.stub.server;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.DataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * SYSTEM statements (STOP/START MERGES, FLUSH LOGS, ...) and the lifecycle hooks other features attach to
 * (parts dropped, table settings changed, a table created or dropped). Views are created here too once the
 * materialized-view feature is present; without it, CREATE VIEW is refused clearly.
 */
public class SystemCommands {
    protected final DatabaseCatalog catalog;

    public SystemCommands(DatabaseCatalog catalog) {
        this.catalog = catalog;
    }

    public QueryResult execute(Statement.SystemCmd cmd, QueryContext ctx) {
        switch (cmd.action()) {
            case "STOP MERGES":
            case "START MERGES": {
                boolean stop = cmd.action().startsWith("STOP");
                if (cmd.table() != null) {
                    catalog.mergeTree(cmd.database() != null ? cmd.database() : ctx.database(), cmd.table()).stopMerges(stop);
                } else {
                    for (String db : catalog.databaseNames()) {
                        if (db.equals(DatabaseCatalog.SYSTEM) || db.equalsIgnoreCase("information_schema")) {
                            continue;
                        }
                        for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                            if (e.getValue() instanceof StorageMergeTree) {
                                ((StorageMergeTree) e.getValue()).stopMerges(stop);
                            }
                        }
                    }
                }
                return QueryResult.Done.NOTHING;
            }
            case "FLUSH LOGS":
            case "DROP MARK CACHE":
            case "DROP UNCOMPRESSED CACHE":
            case "RELOAD CONFIG":
                return QueryResult.Done.NOTHING;
            default:
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "SYSTEM " + cmd.action() + " is not supported by the stub");
        }
    }

    public QueryResult createView(Statement.CreateView v, String sql, QueryContext ctx) {
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Views are not supported by this build of the stub");
    }

    public String showCreate(String db, String name, Object obj) {
        if (obj == null) {
            throw DatabaseCatalog.unknownTable(db, name);
        }
        return "";
    }

    public void beforeCreateTable(String db, Statement.CreateTable ct) {
    }

    public void beforeDrop(String db, String table) {
    }

    public void truncated(StorageMergeTree t, List<DataPart> parts) {
    }

    public void partsDropped(StorageMergeTree t, List<DataPart> parts) {
    }

    public void settingsChanged(StorageMergeTree t) {
    }
}
