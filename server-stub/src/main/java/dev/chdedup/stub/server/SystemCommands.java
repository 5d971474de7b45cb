package dev.chdedup.stub.server;

import dev.chdedup.stub.dedup.DeduplicationService;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.fault.FaultInjector;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mv.MaterializedView;
import dev.chdedup.stub.mv.ViewRegistry;
import dev.chdedup.stub.replicated.ReplicatedSystemCommands;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.StorageCatalog;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * SYSTEM statements (STOP/START MERGES, FLUSH LOGS, ...) and the lifecycle hooks other features attach to
 * (parts dropped, table settings changed, a table created or dropped). Plain and materialized views are created
 * and loaded here too.
 */
public final class SystemCommands {
    private final DatabaseCatalog catalog;
    private final DeduplicationService dedup;
    private final ViewRegistry views;
    private final FaultInjector faults;
    private final ReplicatedSystemCommands replication;
    private volatile Runnable flushAsyncInserts = () -> { };
    /** SYSTEM RELOAD CONFIG: the server reads its configuration file's remote_servers again. */
    private volatile Runnable reloadConfig = () -> { };

    public SystemCommands(DatabaseCatalog catalog, DeduplicationService dedup, ViewRegistry views, FaultInjector faults) {
        this.catalog = catalog;
        this.dedup = dedup;
        this.views = views;
        this.faults = faults;
        this.replication = new ReplicatedSystemCommands(catalog);
    }

    /** What {@code SYSTEM RELOAD CONFIG} runs. */
    public void onReloadConfig(Runnable reload) {
        this.reloadConfig = reload;
    }

    /** What {@code SYSTEM FLUSH ASYNC INSERT QUEUE} runs. */
    public void onFlushAsyncInserts(Runnable flush) {
        this.flushAsyncInserts = flush;
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
            case "ENABLE FAILPOINT":
            case "DISABLE FAILPOINT": {
                dev.chdedup.stub.fault.CrashPoint crash = dev.chdedup.stub.fault.CrashPoint.ofFailpoint(cmd.argument());
                if (crash != null) {
                    crash.arm(cmd.action().startsWith("ENABLE"));
                    return QueryResult.Done.NOTHING;
                }
                FaultKind kind = FaultKind.ofFailpoint(cmd.argument());
                if (kind == null) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown failpoint " + cmd.argument() + "; the stub has: "
                        + java.util.stream.Stream.concat(java.util.Arrays.stream(FaultKind.values()).map(k -> k.failpoint),
                            java.util.Arrays.stream(dev.chdedup.stub.fault.CrashPoint.values()).map(k -> k.failpoint)).toList());
                }
                if (cmd.action().startsWith("DISABLE")) {
                    faults.remove(kind);
                    return QueryResult.Done.NOTHING;
                }
                Map<String, String> o = cmd.options();
                FaultRule r = FaultRule.of(kind);
                if (o.containsKey("code")) {
                    r = new FaultRule(kind, null, 0, Integer.parseInt(o.get("code")), r.delayMillis());
                } else if (kind == FaultKind.ERROR_CODE) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Failpoint " + kind.failpoint + " needs CODE n");
                }
                if (o.containsKey("delay")) {
                    r = new FaultRule(kind, null, 0, r.errorCode(), Long.parseLong(o.get("delay")));
                }
                if (o.containsKey("table")) {
                    r = r.onTable(o.get("table"));
                }
                if (o.containsKey("times")) {
                    r = r.times(Integer.parseInt(o.get("times")));
                }
                faults.add(r);
                return QueryResult.Done.NOTHING;
            }
            case "FLUSH ASYNC INSERT QUEUE":
                flushAsyncInserts.run();
                return QueryResult.Done.NOTHING;
            case "RELOAD CONFIG":
                reloadConfig.run();
                return QueryResult.Done.NOTHING;
            case "FLUSH LOGS":
            case "DROP MARK CACHE":
            case "DROP UNCOMPRESSED CACHE":
                return QueryResult.Done.NOTHING;
            default:
                QueryResult replicated = replication.execute(cmd, ctx);
                if (replicated == null) {
                    replicated = new dev.chdedup.stub.distributed.DistributedSystemCommands(catalog).execute(cmd, ctx);
                }
                if (replicated == null) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "SYSTEM " + cmd.action() + " is not supported by the stub");
                }
                return replicated;
        }
    }

    public QueryResult createView(Statement.CreateView v, String sql, QueryContext ctx) throws IOException {
        String db = v.database() != null ? v.database() : ctx.database();
        if (!v.materialized()) {
            if (!catalog.databaseExists(db)) {
                throw StorageCatalog.unknownDatabase(db);
            }
            if (catalog.find(db, v.name()) != null) {
                if (v.ifNotExists()) {
                    return QueryResult.Done.NOTHING;
                }
                throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + db + "." + v.name() + " already exists");
            }
            String createSql = v.database() != null ? sql : sql.replaceFirst("(?is)^(\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?VIEW\\s+"
                + "(?:IF\\s+NOT\\s+EXISTS\\s+)?)", "$1" + java.util.regex.Matcher.quoteReplacement(DatabaseCatalog.backQuote(db) + "."));
            catalog.putObject(db, v.name(), dev.chdedup.stub.mv.PlainView.of(db, v, createSql), createSql);
            return QueryResult.Done.NOTHING;
        }
        if (!catalog.databaseExists(db)) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (catalog.find(db, v.name()) != null) {
            if (v.ifNotExists()) {
                return QueryResult.Done.NOTHING;
            }
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + db + "." + v.name() + " already exists");
        }
        String[] source = ViewRegistry.sourceOf(v, db);
        requireTable(source[0], source[1]);
        String targetDb;
        String targetTable;
        boolean inner = v.toTable() == null;
        if (inner) {
            if (v.inner() == null || v.inner().engine() == null) {
                throw new ChException(ErrorCode.INCORRECT_QUERY, "You must specify the ENGINE of a materialized view without TO");
            }
            targetDb = db;
            targetTable = ".inner." + v.name();
            Statement.CreateTable ct = v.inner();
            List<Statement.ColumnDef> cols = ct.columns().isEmpty() ? columnsOf(v, db, source, ctx) : ct.columns();
            Statement.CreateTable innerCt = new Statement.CreateTable(targetDb, targetTable, false, false, cols, ct.engine(),
                ct.engineArgs(), ct.partitionBy(), ct.orderBy(), ct.primaryKey(), ct.settings(), ct.clauseSql(), null, null, null);
            catalog.createTable(targetDb, targetTable, innerCt, createTableSql(innerCt));
        } else {
            targetDb = v.toDatabase() != null ? v.toDatabase() : db;
            targetTable = v.toTable();
            requireTable(targetDb, targetTable);
            checkOutputColumns(v, db, source, targetDb, targetTable, ctx);
        }
        String createSql = v.database() != null ? sql : sql.replaceFirst("(?is)^(\\s*CREATE\\s+MATERIALIZED\\s+VIEW\\s+"
            + "(?:IF\\s+NOT\\s+EXISTS\\s+)?)", "$1" + java.util.regex.Matcher.quoteReplacement(DatabaseCatalog.backQuote(db) + "."));
        MaterializedView mv = new MaterializedView(db, v.name(), source[0], source[1], v.select(), v.selectSql(), targetDb,
            targetTable, inner, createSql);
        catalog.putObject(db, v.name(), mv, createSql);
        views.register(mv);
        if (v.populate()) {
            if (catalog.find(source[0], source[1]) instanceof dev.chdedup.stub.storages.Storage) {
                dev.chdedup.stub.storages.Storage src = (dev.chdedup.stub.storages.Storage) catalog.find(source[0], source[1]);
                List<Object[]> rows = new java.util.ArrayList<>();
                for (var it = src.read(Integer.MAX_VALUE, false); it.hasNext(); ) {
                    rows.addAll(it.next().rows());
                }
                views.pushFromStorage(source[0], source[1], src.columns(), rows, ctx);
                return QueryResult.Done.NOTHING;
            }
            StorageMergeTree src = catalog.mergeTree(source[0], source[1]);
            var sink = views.sinkForView(mv, ctx);
            for (var p : src.activeParts()) {
                views.pushTo(mv, src, new dev.chdedup.stub.data.Block(src.columns(), new java.util.ArrayList<>(p.readAllRows())), ctx);
            }
            sink.finish();
        }
        return QueryResult.Done.NOTHING;
    }

    /** A view's source or target: a MergeTree table, or a Memory, Null or Log-family one. */
    private dev.chdedup.stub.exec.TableSource requireTable(String db, String table) {
        Object t = catalog.find(db, table);
        return t instanceof dev.chdedup.stub.storages.Storage ? (dev.chdedup.stub.storages.Storage) t : catalog.mergeTree(db, table);
    }

    /** The CREATE TABLE text of a table built from parts (an inner table), as stored in metadata. */
    static String createTableSql(Statement.CreateTable ct) {
        return dev.chdedup.stub.storages.AlterCommands.createQueryText(ct);
    }

    /** The inner table's columns when the view gives none: the SELECT's output names and types. */
    /** A view TO a table refuses a SELECT column that table does not have, as ClickHouse 26.x does (THERE_IS_NO_COLUMN). */
    private void checkOutputColumns(Statement.CreateView v, String db, String[] source, String targetDb, String targetTable, QueryContext ctx) {
        Object target = catalog.find(targetDb, targetTable);
        List<dev.chdedup.stub.mergetree.TableColumn> all = target instanceof dev.chdedup.stub.storages.Storage
            ? ((dev.chdedup.stub.storages.Storage) target).tableColumns() : catalog.mergeTree(targetDb, targetTable).definition().insertColumns();
        java.util.Set<String> names = new java.util.HashSet<>();
        all.forEach(c -> names.add(c.name()));
        for (Statement.ColumnDef c : columnsOf(v, db, source, ctx)) {
            if (!names.contains(c.name())) {
                throw new ChException(ErrorCode.THERE_IS_NO_COLUMN, "SELECT query outputs column with name '" + c.name()
                    + "', which is not found in the target table. Use 'AS' to assign alias that matches a column name.");
            }
        }
    }

    private List<Statement.ColumnDef> columnsOf(Statement.CreateView v, String db, String[] source, QueryContext ctx) {
        dev.chdedup.stub.exec.TableSource src = requireTable(source[0], source[1]);
        MaterializedView probe = new MaterializedView(db, v.name(), source[0], source[1], v.select(), v.selectSql(), db, "", true, "");
        var stream = views.runOnBlock(probe, src, new dev.chdedup.stub.data.Block(src.columns(), new java.util.ArrayList<>()), ctx);
        List<Statement.ColumnDef> cols = new java.util.ArrayList<>();
        for (var c : stream.columns()) {
            cols.add(new Statement.ColumnDef(c.name(), c.type().name(), null, null, null, null));
        }
        return cols;
    }

    /** Creates the views found on disk at start. */
    public void loadViews(List<String[]> pending) {
        for (String[] p : pending) {
            Statement st = dev.chdedup.stub.sql.Parser.parse(p[1]);
            Statement.CreateView v = (Statement.CreateView) st;
            String db = v.database() != null ? v.database() : p[0];
            if (!v.materialized()) {
                try {
                    catalog.putObject(db, v.name(), dev.chdedup.stub.mv.PlainView.of(db, v, p[1]), null);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                continue;
            }
            String[] source = ViewRegistry.sourceOf(v, db);
            boolean inner = v.toTable() == null;
            String targetDb = inner ? db : v.toDatabase() != null ? v.toDatabase() : db;
            String targetTable = inner ? ".inner." + v.name() : v.toTable();
            MaterializedView mv = new MaterializedView(db, v.name(), source[0], source[1], v.select(), v.selectSql(), targetDb,
                targetTable, inner, p[1]);
            try {
                catalog.putObject(db, v.name(), mv, null);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            views.register(mv);
        }
    }

    public String showCreate(String db, String name, Object obj) {
        if (obj == null) {
            throw StorageCatalog.unknownTable(db, name);
        }
        if (obj instanceof MaterializedView) {
            return ((MaterializedView) obj).createSql();
        }
        if (obj instanceof dev.chdedup.stub.mv.PlainView) {
            return ((dev.chdedup.stub.mv.PlainView) obj).createSql();
        }
        if (obj instanceof dev.chdedup.stub.storages.Storage) {
            String sql = ((dev.chdedup.stub.storages.Storage) obj).createSql();
            try {
                Statement st = dev.chdedup.stub.sql.Parser.parse(sql);
                if (st instanceof Statement.CreateTable && !((Statement.CreateTable) st).columns().isEmpty()) {
                    return dev.chdedup.stub.system.ShowCreate.of(db, name, (Statement.CreateTable) st);
                }
            } catch (RuntimeException e) {
                // a statement the stub keeps as it was given
            }
            return sql;
        }
        return "";
    }

    public void beforeCreateTable(String db, Statement.CreateTable ct) {
    }

    public void beforeDrop(String db, String table) throws IOException {
        Object obj = catalog.find(db, table);
        if (obj instanceof MaterializedView) {
            MaterializedView mv = (MaterializedView) obj;
            views.unregister(db, table);
            if (mv.hasInnerTable()) {
                StorageMergeTree inner = (StorageMergeTree) catalog.find(mv.targetDatabase(), mv.targetTable());
                if (inner != null) {
                    dedup.tableDropped(inner);
                }
                catalog.dropTable(mv.targetDatabase(), mv.targetTable(), true);
            }
        } else if (obj instanceof StorageMergeTree) {
            dedup.tableDropped((StorageMergeTree) obj);
        }
    }

    public void truncated(StorageMergeTree t, List<IMergeTreeDataPart> parts) {
        dedup.partsDropped(t, parts);
    }

    public void partsDropped(StorageMergeTree t, List<IMergeTreeDataPart> parts) {
        dedup.partsDropped(t, parts);
    }

    /** A table opened again by an ALTER of its schema: the old object's deduplication log is closed (the new one opens it). */
    public void tableReplaced(StorageMergeTree old) {
        dedup.tableDropped(old);
    }

    public void settingsChanged(StorageMergeTree t) {
        dedup.settingsChanged(t);
    }
}
