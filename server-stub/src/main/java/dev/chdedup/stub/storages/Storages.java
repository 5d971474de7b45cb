package dev.chdedup.stub.storages;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.TableDefinition;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates the tables of the simple engines from CREATE TABLE: Memory and Null (in memory), Log, TinyLog and StripeLog
 * (on disk), Buffer (in memory, in front of another table) and Join (in memory, for joinGet). Their columns, types and defaults are compiled as MergeTree's are; the MergeTree-only clauses (ORDER BY,
 * PARTITION BY, PRIMARY KEY, SETTINGS) are refused as ClickHouse refuses them for these engines.
 */
public final class Storages {
    public static final Set<String> ENGINES = Set.of("Memory", "Null", "Log", "TinyLog", "StripeLog", "Buffer", "Join");

    private Storages() {
    }

    public static boolean handles(String engine) {
        return engine != null && ENGINES.contains(engine);
    }

    /** Buffer(db, table, num_layers, min_time, max_time, min_rows, max_rows, min_bytes, max_bytes [, flush_time, flush_rows, flush_bytes]). */
    private static Storage buffer(Statement.CreateTable ct, TableDefinition def, String createSql) {
        List<Expr> a = ct.engineArgs();
        if (a.size() != 9 && a.size() != 12) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage Buffer requires from 9 to 12 parameters:"
                + " destination_database, destination_table, num_buckets, min_time, max_time, min_rows, max_rows, min_bytes, max_bytes[,"
                + " flush_time, flush_rows, flush_bytes].");
        }
        String db = name(a.get(0));
        if (db.isEmpty()) {
            db = ct.database();
        }
        String table = name(a.get(1));
        double[] thresholds = new double[9];
        for (int i = 3; i < a.size(); i++) {
            if (!(a.get(i) instanceof Expr.Literal) || !(((Expr.Literal) a.get(i)).value() instanceof Number)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Storage Buffer expects a number as parameter " + (i + 1));
            }
            thresholds[i - 3] = ((Number) ((Expr.Literal) a.get(i)).value()).doubleValue();
        }
        if (db.equals(ct.database()) && table.equals(ct.table())) {
            throw new ChException(ErrorCode.INFINITE_LOOP, "Destination table is myself. Write will cause infinite loop.");
        }
        return new StorageBuffer(def.columns(), createSql, db, table, thresholds);
    }

    /** Join(strictness, kind, key, ...): the keys must be columns of the table. */
    private static Storage join(Statement.CreateTable ct, TableDefinition def, String createSql) {
        List<Expr> a = ct.engineArgs();
        if (a.size() < 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "Storage Join requires at least 3 parameters: Join(ANY|ALL|SEMI|ANTI, LEFT|INNER|RIGHT, keys...).");
        }
        List<String> keys = new java.util.ArrayList<>();
        for (Expr k : a.subList(2, a.size())) {
            if (!(k instanceof Expr.Ident id)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Parameter #" + (keys.size() + 3) + " for storage Join must be a column name");
            }
            if (def.columns().stream().noneMatch(c -> c.name().equals(id.last()))) {
                throw new ChException(ErrorCode.NO_SUCH_COLUMN_IN_TABLE, "There is no column with name " + id.last());
            }
            keys.add(id.last());
        }
        return new StorageJoin(def.columns(), keys, createSql);
    }

    /** A database or table argument: an identifier, a string, or currentDatabase() (empty: the table's own). */
    private static String name(Expr e) {
        if (e instanceof Expr.Ident) {
            return ((Expr.Ident) e).last();
        }
        if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof String) {
            return (String) ((Expr.Literal) e).value();
        }
        if (e instanceof Expr.Call && ((Expr.Call) e).name().equalsIgnoreCase("currentDatabase")) {
            return "";
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Storage Buffer expects a database and a table name as its first parameters");
    }

    /** The table {@code ct} describes; {@code dataDir} holds a Log-family table's data. */
    public static Storage create(Statement.CreateTable ct, Path dataDir, String createSql) throws IOException {
        String engine = ct.engine();
        if (!ct.engineArgs().isEmpty() && !engine.equals("Memory") && !engine.equals("Buffer") && !engine.equals("Join")) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Engine " + engine + " doesn't support any arguments ("
                + ct.engineArgs().size() + " given)");
        }
        if (ct.orderBy() != null || ct.partitionBy() != null || ct.primaryKey() != null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Engine " + engine
                + " doesn't support PARTITION_BY, PRIMARY_KEY, ORDER_BY or SAMPLE_BY clauses. Currently only the following engines"
                + " have support for the feature: [MergeTree family]");
        }
        Map<String, String> settings = new LinkedHashMap<>(ct.settings());
        settings.remove(TableDefinition.FLATTEN_NESTED);
        if (!settings.isEmpty() && !engine.equals("Memory")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Engine " + engine + " doesn't support SETTINGS clause");
        }
        TableDefinition def = columnsOf(ct);
        switch (engine) {
            case "Memory": return new StorageMemory(engine, def.columns(), false, createSql);
            case "Null": return new StorageMemory(engine, def.columns(), true, createSql);
            case "Buffer": return buffer(ct, def, createSql);
            case "Join": return join(ct, def, createSql);
            default: return new StorageLog(engine, def.columns(), dataDir, createSql);
        }
    }

    /**
     * The columns of a table that is not of the MergeTree family, with their types and defaults, compiled as a MergeTree
     * table's would be; ALIAS and EPHEMERAL columns are refused.
     */
    public static TableDefinition columnsOf(Statement.CreateTable ct) {
        String flatten = ct.settings().get(TableDefinition.FLATTEN_NESTED);
        Statement.CreateTable asMergeTree = new Statement.CreateTable(ct.database(), ct.table(), ct.ifNotExists(), ct.orReplace(),
            ct.columns(), "MergeTree", List.of(), null, new Expr.Call("tuple", List.of(), false), null,
            flatten == null ? Map.of() : Map.of(TableDefinition.FLATTEN_NESTED, flatten), ct.clauseSql(),
            null, null, null);
        TableDefinition def = TableDefinition.from(asMergeTree);
        if (!def.aliasColumns().isEmpty() || !def.ephemeralColumns().isEmpty()) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ALIAS and EPHEMERAL columns are supported by the stub only in MergeTree tables");
        }
        return def;
    }
}
