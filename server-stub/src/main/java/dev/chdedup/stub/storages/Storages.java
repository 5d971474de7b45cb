package dev.chdedup.stub.storages;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.TableDefinition;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates the tables of the simple engines from CREATE TABLE: Memory and Null (in memory), Log, TinyLog and StripeLog
 * (on disk). Their columns, types and defaults are compiled as MergeTree's are; the MergeTree-only clauses (ORDER BY,
 * PARTITION BY, PRIMARY KEY, SETTINGS) are refused as ClickHouse refuses them for these engines.
 */
public final class Storages {
    public static final Set<String> ENGINES = Set.of("Memory", "Null", "Log", "TinyLog", "StripeLog");

    private Storages() {
    }

    public static boolean handles(String engine) {
        return engine != null && ENGINES.contains(engine);
    }

    /** The table {@code ct} describes; {@code dataDir} holds a Log-family table's data. */
    public static Storage create(Statement.CreateTable ct, Path dataDir, String createSql) throws IOException {
        String engine = ct.engine();
        if (!ct.engineArgs().isEmpty() && !engine.equals("Memory")) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Engine " + engine + " doesn't support any arguments ("
                + ct.engineArgs().size() + " given)");
        }
        if (ct.orderBy() != null || ct.partitionBy() != null || ct.primaryKey() != null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Engine " + engine
                + " doesn't support PARTITION_BY, PRIMARY_KEY, ORDER_BY or SAMPLE_BY clauses. Currently only the following engines"
                + " have support for the feature: [MergeTree family]");
        }
        if (!ct.settings().isEmpty() && !engine.equals("Memory")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Engine " + engine + " doesn't support SETTINGS clause");
        }
        // the columns, compiled as a MergeTree table's would be
        Statement.CreateTable asMergeTree = new Statement.CreateTable(ct.database(), ct.table(), ct.ifNotExists(), ct.orReplace(),
            ct.columns(), "MergeTree", List.of(), null, new Expr.Call("tuple", List.of(), false), null, Map.of(), ct.clauseSql(),
            null, null, null);
        TableDefinition def = TableDefinition.from(asMergeTree);
        if (!def.aliasColumns().isEmpty() || !def.ephemeralColumns().isEmpty()) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ALIAS and EPHEMERAL columns are supported by the stub only in MergeTree tables");
        }
        switch (engine) {
            case "Memory": return new StorageMemory(engine, def.columns(), false, createSql);
            case "Null": return new StorageMemory(engine, def.columns(), true, createSql);
            default: return new StorageLog(engine, def.columns(), dataDir, createSql);
        }
    }
}
