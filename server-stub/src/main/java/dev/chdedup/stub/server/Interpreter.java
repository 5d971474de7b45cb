package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.ProcessList;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.ResultLimits;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator;
import dev.chdedup.stub.mergetree.PartitionKey;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.mergetree.TableDefinition;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.AlterCommands;
import dev.chdedup.stub.storages.Storage;
import dev.chdedup.stub.storages.StorageCatalog;
import dev.chdedup.stub.system.ShowCreate;
import dev.chdedup.stub.system.SystemTables;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Executes one parsed statement against the catalog: DDL, SELECT (through {@link SelectExecutor}), INSERT
 * (through {@link InsertInterpreter}), SHOW/DESCRIBE/EXISTS, ALTER, OPTIMIZE, SYSTEM. Session statements (SET,
 * USE) are applied by the protocol layer, which owns the session.
 */
public final class Interpreter {
    private final DatabaseCatalog catalog;
    private final SelectExecutor selects;
    private final InsertInterpreter inserts;
    private final SystemCommands system;
    private final ProcessList processes;

    public Interpreter(DatabaseCatalog catalog, SelectExecutor selects, InsertInterpreter inserts, SystemCommands system,
                       ProcessList processes) {
        this.catalog = catalog;
        this.selects = selects;
        this.inserts = inserts;
        this.system = system;
        this.processes = processes;
    }

    /** The columns KILL QUERY filters on and answers with, as ClickHouse names them. */
    static final List<Column> KILL_COLUMNS = List.of(new Column("kill_status", DataTypes.STRING), new Column("query_id", DataTypes.STRING),
        new Column("user", DataTypes.STRING), new Column("query", DataTypes.STRING));

    /** KILL QUERY WHERE ...: cancels the matching running queries; with SYNC waits (up to 10 s) until they end. */
    private QueryResult killQuery(Statement.KillQuery k, QueryContext ctx) {
        List<Column> filterColumns = List.of(new Column("query_id", DataTypes.STRING), new Column("user", DataTypes.STRING),
            new Column("query", DataTypes.STRING), new Column("elapsed", DataTypes.FLOAT64));
        Evaluator where = new ExprCompiler(ctx, filterColumns, Map.of(), selects).compile(k.where());
        List<ProcessList.Entry> killed = new ArrayList<>();
        for (ProcessList.Entry e : processes.snapshot()) {
            if (!e.queryId.equals(ctx.queryId())
                && dev.chdedup.stub.types.Values.isTrue(where.eval(new Object[] {e.queryId, e.user, e.query, e.elapsedSeconds()}))) {
                e.cancel();
                killed.add(e);
            }
        }
        if (k.sync()) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            for (ProcessList.Entry e : killed) {
                while (!e.isFinished() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
        }
        List<Object[]> out = new ArrayList<>();
        for (ProcessList.Entry e : killed) {
            out.add(new Object[] {e.isFinished() ? "finished" : "waiting", e.queryId, e.user, e.query});
        }
        return rows(KILL_COLUMNS, out);
    }

    /**
     * KILL MUTATION WHERE ...: the unfinished mutations of MergeTree tables that match (their database, table,
     * mutation_id, command) are removed, as ClickHouse's {@code killMutation} does; parts already mutated stay so.
     * With TEST nothing is killed. Answers kill_status ("waiting"), database, table, mutation_id, command per mutation.
     */
    private QueryResult killMutation(Statement.KillMutation k, QueryContext ctx) {
        List<Column> filterColumns = List.of(new Column("database", DataTypes.STRING), new Column("table", DataTypes.STRING),
            new Column("mutation_id", DataTypes.STRING), new Column("command", DataTypes.STRING));
        Evaluator where = new ExprCompiler(ctx, filterColumns, Map.of(), selects).compile(k.where());
        List<Object[]> out = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (!catalog.databaseExists(db) || DatabaseCatalog.SYSTEM.equals(db)) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (!(e.getValue() instanceof StorageMergeTree)) {
                    continue;
                }
                StorageMergeTree t = (StorageMergeTree) e.getValue();
                for (dev.chdedup.stub.mergetree.MergeTreeMutationStatus m : t.mutationStatuses()) {
                    Object[] row = {db, e.getKey(), m.mutationId(), m.entry().commands()};
                    if (!m.done() && dev.chdedup.stub.types.Values.isTrue(where.eval(row))) {
                        if (!k.test()) {
                            t.killMutation(m.mutationId());
                        }
                        out.add(new Object[] {"waiting", db, e.getKey(), m.mutationId(), m.entry().commands()});
                    }
                }
            }
        }
        List<Column> header = new ArrayList<>(List.of(new Column("kill_status", DataTypes.STRING)));
        header.addAll(filterColumns);
        return rows(header, out);
    }

    public boolean catalogHas(String db) {
        return catalog.databaseExists(db);
    }

    public SelectExecutor selects() {
        return selects;
    }

    /** Runs ON CLUSTER queries through the distributed DDL queue (set by the server); null: refused. */
    private volatile java.util.function.BiFunction<Statement.OnCluster, QueryContext, QueryResult> onCluster;

    public void onCluster(java.util.function.BiFunction<Statement.OnCluster, QueryContext, QueryResult> handler) {
        this.onCluster = handler;
    }

    public QueryResult execute(Statement st, String sql, InputStream data, String defaultFormat, QueryContext ctx) throws IOException {
        if (st instanceof Statement.OnCluster) {
            if (onCluster == null) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ON CLUSTER needs a server with ZooKeeper");
            }
            return onCluster.apply((Statement.OnCluster) st, ctx);
        }
        if (st instanceof Statement.SelectStmt) {
            dev.chdedup.stub.sql.Query q = ((Statement.SelectStmt) st).query();
            QueryContext limits = ctx.withSettings(ctx.settings().with(q.settings()));
            SelectExecutor.Stream result;
            // constants folded while the query compiles show their JSON objects under its quoting too
            boolean quote64 = dev.chdedup.stub.format.FormatSettings.of(limits.settings().changed()).jsonQuote64bitIntegers;
            try (dev.chdedup.stub.types.SessionTimeZone.Scope quoting = dev.chdedup.stub.types.JsonQuoting.use(quote64)) {
                result = selects.execute(q, ctx);
            }
            return new QueryResult.Rows(new SelectExecutor.Stream(result.columns(), ResultLimits.apply(result.blocks(), limits)), q.format());
        }
        if (st instanceof Statement.Insert) {
            return inserts.execute((Statement.Insert) st, data, defaultFormat, ctx);
        }
        if (InterpreterDictionaryQuery.handles(st, catalog, ctx)) {
            return new InterpreterDictionaryQuery(catalog).execute(st, ctx);
        }
        if (st instanceof Statement.CreateDatabase) {
            Statement.CreateDatabase cd = (Statement.CreateDatabase) st;
            catalog.createDatabase(cd.name(), cd.ifNotExists());
            return QueryResult.Done.NOTHING;
        }
        if (st instanceof Statement.DropDatabase) {
            Statement.DropDatabase dd = (Statement.DropDatabase) st;
            if (catalog.databaseExists(dd.name()) && !DatabaseCatalog.SYSTEM.equals(dd.name())) {
                // each table goes as DROP TABLE takes it: a materialized view stops, a deduplication log closes
                for (String table : catalog.tables(dd.name()).keySet()) {
                    system.beforeDrop(dd.name(), table);
                }
            }
            catalog.dropDatabase(dd.name(), dd.ifExists());
            return QueryResult.Done.NOTHING;
        }
        if (st instanceof Statement.CreateTable) {
            return createTable((Statement.CreateTable) st, sql, ctx);
        }
        if (st instanceof Statement.CreateView) {
            return system.createView((Statement.CreateView) st, sql, ctx);
        }
        if (st instanceof Statement.CreateTemporaryTable) {
            return createTemporaryTable(((Statement.CreateTemporaryTable) st).table(), sql, ctx);
        }
        if (st instanceof Statement.DropTable) {
            Statement.DropTable dt = (Statement.DropTable) st;
            if (dt.database() == null && ctx.temporaryTables().remove(dt.table()) != null) {
                return QueryResult.Done.NOTHING;
            }
            String db = db(dt.database(), ctx);
            if (!catalog.databaseExists(db) && !dt.ifExists()) {
                throw StorageCatalog.unknownDatabase(db);
            }
            // exclusive: an insert into the table runs to its end first, as ClickHouse's DROP waits for the table's lock
            return catalog.exclusively(db, dt.table(), ctx.settings().getLong("lock_acquire_timeout"), () -> {
                system.beforeDrop(db, dt.table());
                catalog.dropTable(db, dt.table(), dt.ifExists());
                return QueryResult.Done.NOTHING;
            });
        }
        if (st instanceof Statement.Truncate) {
            Statement.Truncate t = (Statement.Truncate) st;
            String db = db(t.database(), ctx);
            if (t.ifExists() && catalog.find(db, t.table()) == null) {
                return QueryResult.Done.NOTHING;
            }
            if (catalog.find(db, t.table()) instanceof dev.chdedup.stub.storages.Storage) {
                ((dev.chdedup.stub.storages.Storage) catalog.find(db, t.table())).truncate();
                return QueryResult.Done.NOTHING;
            }
            system.truncated(catalog.mergeTree(db, t.table()), catalog.mergeTree(db, t.table()).truncate());
            return QueryResult.Done.NOTHING;
        }
        if (st instanceof Statement.ShowTables) {
            return show((Statement.ShowTables) st, ctx);
        }
        if (st instanceof Statement.ShowCreate) {
            Statement.ShowCreate sc = (Statement.ShowCreate) st;
            String db = db(sc.database(), ctx);
            Object obj = catalog.find(db, sc.table());
            String text = obj instanceof StorageMergeTree ? ShowCreate.of((StorageMergeTree) obj)
                : obj instanceof dev.chdedup.stub.mv.PlainView ? showCreateView((dev.chdedup.stub.mv.PlainView) obj, ctx)
                : system.showCreate(db, sc.table(), obj);
            return rows(List.of(new Column("statement", DataTypes.STRING)), List.<Object[]>of(new Object[] {text}));
        }
        if (st instanceof Statement.Describe) {
            Statement.Describe d = (Statement.Describe) st;
            String db = db(d.database(), ctx);
            List<Column> header = DESCRIBE_HEADER;
            List<Object[]> out = new ArrayList<>();
            Object obj = catalog.find(db, d.table());
            TableSource temporary = d.database() == null ? ctx.temporaryTables().get(d.table()) : null;
            if (temporary != null) {
                for (Column c : temporary.columns()) {
                    out.add(new Object[] {c.name(), typeName(c.type(), ctx), "", "", "", "", ""});
                }
            } else if (obj instanceof StorageMergeTree || obj instanceof Storage) {
                List<TableColumn> columns = obj instanceof StorageMergeTree m ? m.definition().allColumns() : ((Storage) obj).tableColumns();
                Map<String, String> clauses = obj instanceof StorageMergeTree m ? m.definition().clauseSql() : Map.of();
                for (TableColumn c : columns) {
                    out.add(new Object[] {c.name(), typeName(c.type(), ctx), c.defaultKind() == null ? "" : c.defaultKind(),
                        c.defaultSql() == null ? "" : dev.chdedup.stub.system.ShowCreate.formatted(c.defaultSql()),
                        dev.chdedup.stub.types.ByteStrings.fromText(clauses.getOrDefault(Statement.COLUMN_COMMENT + c.name(), "")),
                        codecArguments(clauses.get(Statement.COLUMN_CODEC + c.name())), ""});
                }
            } else if (db.equals(DatabaseCatalog.SYSTEM) && catalog.tables(db).containsKey(d.table())
                && dev.chdedup.stub.system.SystemTableSchema.of(d.table()) != null) {
                // a system table: the engine's columns, kinds and comments (an older release's where it plays one)
                for (dev.chdedup.stub.system.SystemTableSchema.ColumnDef c : dev.chdedup.stub.system.SystemTableSchema.of(d.table(), ctx.compat())) {
                    String type = typeName(c.type(), ctx);
                    out.add(new Object[] {c.name(), type, c.shownKind(), c.defaultExpression(),
                        dev.chdedup.stub.types.ByteStrings.fromText(c.comment()), "", ""});
                }
            } else {
                for (Column c : catalog.table(db, d.table(), ctx).columns()) {
                    out.add(new Object[] {c.name(), typeName(c.type(), ctx), "", "", "", "", ""});
                }
            }
            return rows(header, out);
        }
        if (st instanceof Statement.DescribeQuery) {
            List<Object[]> out = new ArrayList<>();
            for (Column c : selects.header(((Statement.DescribeQuery) st).query(), ctx)) {
                out.add(new Object[] {c.name(), c.type().name(), "", "", "", "", ""});
            }
            return rows(DESCRIBE_HEADER, out);
        }
        if (st instanceof Statement.Exists) {
            Statement.Exists e = (Statement.Exists) st;
            String db = db(e.database(), ctx);
            boolean exists = e.table() == null ? catalog.databaseExists(db) : e.database() == null
                && ctx.temporaryTables().containsKey(e.table()) || catalog.databaseExists(db) && (catalog.find(db, e.table()) != null
                || db.equals(DatabaseCatalog.SYSTEM) && catalog.tables(db).containsKey(e.table()));
            return rows(List.of(new Column("result", DataTypes.UINT8)), List.<Object[]>of(new Object[] {exists ? 1L : 0L}));
        }
        if (st instanceof Statement.RenameTables || st instanceof Statement.ExchangeTables || st instanceof Statement.DetachTable
            || st instanceof Statement.AttachTable) {
            return renameOrDetach(st, ctx);
        }
        if (st instanceof Statement.LightweightUpdate) {
            return lightweightUpdate((Statement.LightweightUpdate) st, ctx);
        }
        if (st instanceof Statement.Alter) {
            return alter((Statement.Alter) st, ctx);
        }
        if (st instanceof Statement.Optimize) {
            Statement.Optimize o = (Statement.Optimize) st;
            if (catalog.find(db(o.database(), ctx), o.table()) instanceof dev.chdedup.stub.storages.StorageBuffer) {
                ((dev.chdedup.stub.storages.StorageBuffer) catalog.find(db(o.database(), ctx), o.table())).flush(); // OPTIMIZE flushes a Buffer
                return QueryResult.Done.NOTHING;
            }
            StorageMergeTree t = catalog.mergeTree(db(o.database(), ctx), o.table());
            String partition = o.partition() == null ? null : partitionId(t, o.partition(), ctx);
            boolean merged = t.optimize(partition, o.isFinal());
            if (!merged && ctx.settings().getBool("optimize_throw_if_noop")) {
                throw new ChException(ErrorCode.CANNOT_ASSIGN_OPTIMIZE, "There are no parts to merge");
            }
            return QueryResult.Done.NOTHING;
        }
        if (st instanceof Statement.SystemCmd) {
            return system.execute((Statement.SystemCmd) st, ctx);
        }
        if (st instanceof Statement.KillMutation) {
            return killMutation((Statement.KillMutation) st, ctx);
        }
        if (st instanceof Statement.KillQuery) {
            return killQuery((Statement.KillQuery) st, ctx);
        }
        if (st instanceof Statement.Explain) {
            return new InterpreterExplainQuery(catalog, selects).execute((Statement.Explain) st, ctx);
        }
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "This kind of statement is not supported by the stub here");
    }

    /**
     * SHOW CREATE of a plain view as the engine lays it out: its columns (the query's names and types), then
     * {@code AS} and the query as the engine's formatter writes it; the statement as it was written where the
     * formatter cannot write the query.
     */
    private String showCreateView(dev.chdedup.stub.mv.PlainView v, QueryContext ctx) {
        if (v.createSql().matches("(?is)^\\s*CREATE\\s+(OR\\s+REPLACE\\s+)?VIEW\\s+(IF\\s+NOT\\s+EXISTS\\s+)?\\S+\\s*\\(.*")) {
            return v.createSql(); // a view with its own column list (information_schema's among them) keeps its statement
        }
        try {
            StringBuilder sb = new StringBuilder("CREATE VIEW ").append(ShowCreate.quoteName(v.database())).append('.')
                .append(ShowCreate.quoteName(v.name())).append("\n(\n");
            List<Column> header = selects.header(v.select(), ctx.withDatabase(v.database()));
            for (int i = 0; i < header.size(); i++) {
                sb.append("    ").append(ShowCreate.backQuote(header.get(i).name())).append(' ').append(header.get(i).type().name())
                    .append(i + 1 < header.size() ? ",\n" : "\n");
            }
            return sb.append(")\nAS ").append(dev.chdedup.stub.exec.ExplainSyntax.queryText(v.select(), v.database())).toString();
        } catch (RuntimeException e) {
            return v.createSql();
        }
    }

    /** What DESCRIBE shows of a column's {@code CODEC(...)}: the codecs inside it. */
    /** A type's name as DESCRIBE shows it: pretty under print_pretty_type_names, the server's default. */
    private static String typeName(DataType t, QueryContext ctx) {
        return ctx.settings().getBool("print_pretty_type_names") ? DataTypes.prettyName(t, 0) : t.name();
    }

    private static String codecArguments(String codec) {
        return codec == null ? "" : codec.substring(codec.indexOf('(') + 1, codec.lastIndexOf(')')).strip();
    }

    static String db(String given, QueryContext ctx) {
        return given != null ? given : ctx.database();
    }

    /** The columns DESCRIBE answers with. */
    private static final List<Column> DESCRIBE_HEADER = List.of(new Column("name", DataTypes.STRING),
        new Column("type", DataTypes.STRING), new Column("default_type", DataTypes.STRING),
        new Column("default_expression", DataTypes.STRING), new Column("comment", DataTypes.STRING),
        new Column("codec_expression", DataTypes.STRING), new Column("ttl_expression", DataTypes.STRING));

    static QueryResult rows(List<Column> header, List<Object[]> rows) {
        return new QueryResult.Rows(new SelectExecutor.Stream(header, BlockStreams.chunk(header, new ArrayList<>(rows), 65536)), null);
    }

    /**
     * The column of a Float type that a MergeTree table's PARTITION BY is or lists in a tuple, or null: ClickHouse refuses
     * such a key unless the table sets allow_floating_point_partition_key (18.16 took it).
     */
    private static String floatingPointPartitionColumn(Statement.CreateTable ct) {
        if (ct.partitionBy() == null || ct.engine() == null || !ct.engine().endsWith("MergeTree")) {
            return null;
        }
        List<Expr> keys = ct.partitionBy() instanceof Expr.Call c && c.name().equals("tuple") ? c.args() : List.of(ct.partitionBy());
        for (Expr k : keys) {
            if (k instanceof Expr.Ident id && id.parts().size() == 1) {
                for (Statement.ColumnDef col : ct.columns()) {
                    String t = col.type() == null ? "" : col.type().replaceAll("^Nullable\\((.*)\\)$", "$1");
                    if (col.name().equals(id.last()) && (t.equals("Float32") || t.equals("Float64") || t.equals("BFloat16"))) {
                        return col.name();
                    }
                }
            }
        }
        return null;
    }

    /** Whether a MergeTree table without ORDER BY and PRIMARY KEY gets an empty key (25.11+) rather than an error. */
    private static final String EMPTY_PRIMARY_KEY = "create_table_empty_primary_key_by_default";

    /** The table's own create_table_empty_primary_key_by_default when it sets one, else the query's. */
    private static boolean emptyPrimaryKeyAllowed(String own, QueryContext ctx) {
        return own == null ? ctx.settings().getBool(EMPTY_PRIMARY_KEY) : own.trim().equals("1") || own.trim().equalsIgnoreCase("true");
    }

    private QueryResult createTable(Statement.CreateTable ct, String sql, QueryContext ctx) throws IOException {
        String db = db(ct.database(), ctx);
        if (DatabaseCatalog.SYSTEM.equals(db)) {
            throw new ChException(ErrorCode.DATABASE_ACCESS_DENIED, "Cannot create tables in the system database");
        }
        if (!catalog.databaseExists(db)) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (ct.asSelect() != null) {
            return createTableAsSelect(ct, db, ctx);
        }
        String tableFunction = ct.clauseSql().get(Statement.AS_TABLE_FUNCTION);
        if (tableFunction != null) {
            // a table over a table function reads it anew on each query, as a view of SELECT * FROM it does
            String view = "CREATE VIEW " + (ct.ifNotExists() ? "IF NOT EXISTS " : "") + DatabaseCatalog.backQuote(db) + "."
                + DatabaseCatalog.backQuote(ct.table()) + " AS SELECT * FROM " + tableFunction;
            Statement.CreateView v = (Statement.CreateView) Parser.parse(view);
            selects.header(v.select(), ctx); // an unknown table function or wrong arguments fail here, as in ClickHouse
            return system.createView(v, view, ctx);
        }
        if (ct.orReplace() && catalog.find(db, ct.table()) != null) {
            system.beforeDrop(db, ct.table()); // CREATE OR REPLACE: the old table goes, the new one takes its name
            catalog.dropTable(db, ct.table(), true);
        }
        if (ct.asTable() != null) {
            ct = asOther(ct, db, ctx);
            sql = SystemCommands.createTableSql(ct);
        }
        Map<String, String> settings = ct.settings();
        if (ct.orderBy() == null && ct.primaryKey() == null && ct.engine() != null && ct.engine().endsWith("MergeTree")
            && !emptyPrimaryKeyAllowed(settings.get(EMPTY_PRIMARY_KEY), ctx)) {
            // off by the table's settings, the query's, its compatibility or the release the server plays (before 25.11, and
            // 18.16), each release with its text
            throw new ChException(ErrorCode.BAD_ARGUMENTS, ctx.compat().legacyErrorText()
                ? "Table engine " + ct.engine() + " requires ORDER BY or PRIMARY KEY clause"
                : "You must provide an ORDER BY or PRIMARY KEY expression in the table definition. If you don't want this table to be"
                + " sorted, use ORDER BY/PRIMARY KEY (). Otherwise, you can use the setting 'create_table_empty_primary_key_by_default'"
                + " to automatically add an empty primary key to the table definition");
        }
        String floatKey = floatingPointPartitionColumn(ct);
        if (floatKey != null && !ctx.compat().legacyErrorText() && !"1".equals(settings.get("allow_floating_point_partition_key"))
            && !"true".equalsIgnoreCase(settings.get("allow_floating_point_partition_key"))) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Floating point partition key is not supported: " + floatKey);
        }
        if (!ctx.settings().getBool(TableDefinition.FLATTEN_NESTED) && !settings.containsKey(TableDefinition.FLATTEN_NESTED)) {
            settings = new LinkedHashMap<>(settings); // the query's flatten_nested = 0 holds for this CREATE
            settings.put(TableDefinition.FLATTEN_NESTED, "0");
        }
        Statement.CreateTable normalized = new Statement.CreateTable(db, ct.table(), ct.ifNotExists(), ct.orReplace(), ct.columns(),
            ct.engine(), ct.engineArgs(), ct.partitionBy(), ct.orderBy(), ct.primaryKey(), settings, ct.clauseSql(), null, null, null);
        system.beforeCreateTable(db, normalized);
        catalog.createTable(db, ct.table(), normalized, qualify(sql, db, ct));
        return QueryResult.Done.NOTHING;
    }

    /**
     * {@code CREATE TABLE t [(columns)] ENGINE = ... AS SELECT ...}: the table with the query's columns (names and
     * types of its result) unless the statement lists them, then the query's rows inserted as by INSERT INTO t SELECT,
     * as ClickHouse does.
     */
    private QueryResult createTableAsSelect(Statement.CreateTable ct, String db, QueryContext ctx) throws IOException {
        if (catalog.find(db, ct.table()) != null && ct.ifNotExists() && !ct.orReplace()) {
            return QueryResult.Done.NOTHING;
        }
        List<Statement.ColumnDef> cols = ct.columns();
        if (cols.isEmpty()) {
            cols = new ArrayList<>();
            for (Column c : selects.header(ct.asSelect(), ctx)) {
                cols.add(new Statement.ColumnDef(c.name(), c.type().name(), null, null, null, null));
            }
        }
        Map<String, String> clauses = new LinkedHashMap<>(ct.clauseSql());
        String select = clauses.remove(Statement.AS_SELECT);
        Statement.CreateTable table = new Statement.CreateTable(db, ct.table(), false, ct.orReplace(), cols, ct.engine(), ct.engineArgs(),
            ct.partitionBy(), ct.orderBy(), ct.primaryKey(), ct.settings(), clauses, null, null, null);
        createTable(table, SystemCommands.createTableSql(table), ctx);
        String insert = "INSERT INTO " + DatabaseCatalog.backQuote(db) + "." + DatabaseCatalog.backQuote(ct.table()) + " " + select;
        return execute(Parser.parse(insert), insert, InputStream.nullInputStream(), null, ctx);
    }

    /**
     * {@code CREATE TABLE t AS other [ENGINE = ...]}: other's columns (with their defaults), and other's engine and
     * clauses unless the statement gives an engine, as ClickHouse does (the usual way to put a Buffer in front of a table).
     */
    private Statement.CreateTable asOther(Statement.CreateTable ct, String db, QueryContext ctx) {
        String srcDb = ct.asDatabase() != null ? ct.asDatabase() : db;
        Object src = catalog.find(srcDb, ct.asTable());
        String srcSql;
        if (src instanceof StorageMergeTree) {
            srcSql = dev.chdedup.stub.system.ShowCreate.of((StorageMergeTree) src);
        } else if (src instanceof dev.chdedup.stub.storages.Storage) {
            srcSql = ((dev.chdedup.stub.storages.Storage) src).createSql();
        } else if (src == null) {
            throw StorageCatalog.unknownTable(srcDb, ct.asTable());
        } else {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "CREATE TABLE ... AS a view is not supported by the stub");
        }
        Statement.CreateTable from = (Statement.CreateTable) dev.chdedup.stub.sql.Parser.parse(srcSql);
        Statement.CreateTable e = ct.engine() != null ? ct : from;
        return new Statement.CreateTable(db, ct.table(), ct.ifNotExists(), ct.orReplace(), from.columns(), e.engine(), e.engineArgs(),
            e.partitionBy(), e.orderBy(), e.primaryKey(), e.settings(), e.clauseSql(), null, null, null);
    }

    /** A temporary table: Memory unless the statement names another simple engine; it lives in the query context. */
    private QueryResult createTemporaryTable(Statement.CreateTable ct, String sql, QueryContext ctx) throws IOException {
        String engine = ct.engine() == null ? "Memory" : ct.engine();
        if (!engine.equals("Memory") && !engine.equals("Null")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Temporary tables of engine " + engine + " are not supported by the stub");
        }
        if (ctx.temporaryTables().containsKey(ct.table())) {
            if (ct.ifNotExists()) {
                return QueryResult.Done.NOTHING;
            }
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Temporary table " + ct.table() + " already exists");
        }
        Statement.CreateTable withEngine = new Statement.CreateTable(null, ct.table(), ct.ifNotExists(), ct.orReplace(), ct.columns(),
            engine, ct.engineArgs(), ct.partitionBy(), ct.orderBy(), ct.primaryKey(), ct.settings(), ct.clauseSql(), null, null, null);
        ctx.temporaryTables().put(ct.table(), dev.chdedup.stub.storages.Storages.create(withEngine, null, sql));
        return QueryResult.Done.NOTHING;
    }

    /** The CREATE text stored in metadata, with the database made explicit so reloading needs no context. */
    private static String qualify(String sql, String db, Statement.CreateTable ct) {
        if (ct.database() != null) {
            return sql;
        }
        return sql.replaceFirst("(?is)^(\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?)",
            "$1" + java.util.regex.Matcher.quoteReplacement(DatabaseCatalog.backQuote(db) + "."));
    }

    private QueryResult show(Statement.ShowTables s, QueryContext ctx) {
        List<Column> header = List.of(new Column("name", DataTypes.STRING));
        List<String> names = s.databases() ? catalog.databaseNames() : new ArrayList<>(catalog.tables(db(s.database(), ctx)).keySet());
        List<Object[]> out = new ArrayList<>();
        Pattern like = s.like() == null ? null : likeRegex(s.like());
        names = new ArrayList<>(names);
        java.util.Collections.sort(names);
        for (String n : names) {
            if (out.size() >= s.limit()) {
                break;
            }
            if (like == null || like.matcher(n).matches()) {
                out.add(new Object[] {n});
            }
        }
        return rows(header, out);
    }

    private static Pattern likeRegex(String like) {
        StringBuilder sb = new StringBuilder();
        for (char c : like.toCharArray()) {
            sb.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(sb.toString(), Pattern.DOTALL);
    }

    /**
     * RENAME TABLE, EXCHANGE TABLES, DETACH and ATTACH TABLE (DatabaseCatalog): a table moved or detached stops and its
     * deduplication log closes; the table opened under its new name opens it again.
     */
    private QueryResult renameOrDetach(Statement st, QueryContext ctx) throws IOException {
        if (st instanceof Statement.RenameTables) {
            for (String[] r : ((Statement.RenameTables) st).renames()) {
                Object old = catalog.find(db(r[0], ctx), r[1]);
                catalog.renameTable(db(r[0], ctx), r[1], db(r[2], ctx), r[3]);
                if (old instanceof StorageMergeTree) {
                    system.tableReplaced((StorageMergeTree) old);
                }
            }
        } else if (st instanceof Statement.ExchangeTables) {
            Statement.ExchangeTables e = (Statement.ExchangeTables) st;
            Object a = catalog.find(db(e.database1(), ctx), e.table1());
            Object b = catalog.find(db(e.database2(), ctx), e.table2());
            catalog.exchangeTables(db(e.database1(), ctx), e.table1(), db(e.database2(), ctx), e.table2());
            system.tableReplaced((StorageMergeTree) a);
            system.tableReplaced((StorageMergeTree) b);
        } else if (st instanceof Statement.DetachTable) {
            Statement.DetachTable d = (Statement.DetachTable) st;
            StorageMergeTree t = catalog.detachTable(db(d.database(), ctx), d.table(), d.ifExists(), d.permanently());
            if (t != null) {
                system.tableReplaced(t);
            }
        } else {
            Statement.AttachTable at = (Statement.AttachTable) st;
            catalog.attachTable(db(at.database(), ctx), at.table(), at.ifNotExists());
        }
        return QueryResult.Done.NOTHING;
    }

    /**
     * The lightweight UPDATE: as ClickHouse 26.7, only on a table with {@code enable_block_number_column} (NOT_IMPLEMENTED
     * otherwise, with the engine's text); the stub rewrites the parts at once where the engine writes patch parts,
     * so the rows read the same, and the update is listed in system.mutations, where the engine lists nothing.
     */
    private QueryResult lightweightUpdate(Statement.LightweightUpdate u, QueryContext ctx) throws IOException {
        StorageMergeTree t = catalog.mergeTree(db(u.database(), ctx), u.table());
        if (t.setting("enable_block_number_column") == 0) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Lightweight updates are not supported. Lightweight updates are supported only"
                + " for tables with materialized _block_number column. Run 'MODIFY SETTING enable_block_number_column = 1' command to"
                + " enable it.");
        }
        Map<String, String> settings = new LinkedHashMap<>(u.settings());
        settings.putIfAbsent("mutations_sync", "2");
        return alter(new Statement.Alter(u.database(), u.table(), List.of(u.update()), settings), ctx);
    }

    private QueryResult alter(Statement.Alter a, QueryContext outer) throws IOException {
        QueryContext ctx = outer.withSettings(outer.settings().with(a.settings())); // the SETTINGS clause: this statement only
        String db = db(a.database(), ctx);
        StorageMergeTree t = catalog.mergeTree(db, a.table());
        List<Statement.AlterCommand> schema = new ArrayList<>();
        for (int i = 0; i < a.commands().size(); i++) {
            Statement.AlterCommand c = a.commands().get(i);
            if (AlterCommands.isSchemaCommand(c)) {
                schema.add(c); // the schema commands next to each other change the table at once
                if (i + 1 < a.commands().size() && AlterCommands.isSchemaCommand(a.commands().get(i + 1))) {
                    continue;
                }
                t = alterSchema(t, schema, ctx);
                schema.clear();
            } else if (c instanceof Statement.ModifySetting) {
                t.modifySettings(((Statement.ModifySetting) c).settings());
                system.settingsChanged(t);
            } else if (c instanceof Statement.ResetSetting) {
                t.resetSettings(((Statement.ResetSetting) c).names());
                system.settingsChanged(t);
            } else if (c instanceof Statement.DropPartition) {
                Statement.DropPartition dp = (Statement.DropPartition) c;
                String id = dp.partitionId() != null ? dp.partitionId() : partitionId(t, dp.partition(), ctx);
                system.partsDropped(t, t.dropPartition(id));
            } else if (c instanceof Statement.PartitionCommand) {
                partitionCommand(t, (Statement.PartitionCommand) c, ctx);
            } else if (c instanceof Statement.DropPart) {
                system.partsDropped(t, List.of(t.dropPart(((Statement.DropPart) c).partName())));
            } else if (c instanceof Statement.MutateDelete || c instanceof Statement.MutateUpdate) {
                String sql = c instanceof Statement.MutateDelete ? ((Statement.MutateDelete) c).sql() : ((Statement.MutateUpdate) c).sql();
                if (t instanceof dev.chdedup.stub.replicated.StorageReplicatedMergeTree) {
                    ((dev.chdedup.stub.replicated.StorageReplicatedMergeTree) t).mutate(sql, compileMutation(t, c, ctx),
                        ctx.settings().getLong("mutations_sync"), 1000L * ctx.settings().getLong("replication_wait_for_inactive_replica_timeout"));
                } else {
                    t.mutate(sql, compileMutation(t, c, ctx));
                }
            }
        }
        return QueryResult.Done.NOTHING;
    }

    /**
     * The schema commands of an ALTER (AlterCommands): the table gets its new definition (opened again over its
     * parts, which read old columns as the new definition says), then a mutation rewrites the parts when a column's
     * type changed or a column was dropped, renamed or cleared, as ClickHouse's ALTER waits for it (alter_sync).
     */
    private StorageMergeTree alterSchema(StorageMergeTree t, List<Statement.AlterCommand> commands, QueryContext ctx) throws IOException {
        if (t instanceof dev.chdedup.stub.replicated.StorageReplicatedMergeTree) {
            return alterReplicated((dev.chdedup.stub.replicated.StorageReplicatedMergeTree) t, commands, ctx);
        }
        // exclusive from reading the definition to the mutation's end: inserts wait, and two ALTERs do not interleave
        String db = t.database();
        String name = t.name();
        return catalog.exclusively(db, name, ctx.settings().getLong("lock_acquire_timeout"),
            () -> alterSchemaLocked(catalog.mergeTree(db, name), commands, ctx)); // the table as it is now nothing else changes it
    }

    private StorageMergeTree alterSchemaLocked(StorageMergeTree t, List<Statement.AlterCommand> commands, QueryContext ctx) throws IOException {
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parse(catalog.createQuery(t.database(), t.name()));
        AlterCommands.Result r = AlterCommands.apply(ct, commands);
        StorageMergeTree old = t;
        t = catalog.alterTable(t.database(), t.name(), AlterCommands.createQueryText(r.create()), r.renamedFrom());
        system.tableReplaced(old);
        for (Statement.ClearColumn c : r.clears()) {
            t.mutate(c.sql(), compileMutation(t, c, ctx));
        }
        List<String> rewrite = new ArrayList<>(r.mutations());
        boolean ttl = rewrite.remove("MATERIALIZE TTL");
        if (!rewrite.isEmpty()) {
            t.mutate(String.join(", ", rewrite), row -> row); // the parts are rewritten in the table's columns now
        }
        if (ttl) {
            t.mutate("MATERIALIZE TTL", compileMutation(t, new Statement.MaterializeTtl(), ctx));
        }
        return t;
    }

    /**
     * A schema ALTER of a replicated table, as ClickHouse makes it: the new columns and metadata and an ALTER_METADATA
     * entry go to ZooKeeper, each replica (this one included) applies the entry from its queue
     * ({@link #applyReplicatedAlter}), and this waits until this replica has, then for the mutation (alter_sync); the
     * table's comment, which ZooKeeper does not keep, changes on this replica. A change the parts must follow (a type
     * change, DROP or RENAME COLUMN) is a mutation written with the entry, of its alter version: every replica reads its
     * parts with the ALTER's renames until the mutation has rewritten them. CLEAR COLUMN and MATERIALIZE TTL are
     * mutations of their own after it.
     */
    private StorageMergeTree alterReplicated(dev.chdedup.stub.replicated.StorageReplicatedMergeTree t, List<Statement.AlterCommand> commands,
                                             QueryContext ctx) throws IOException {
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parse(catalog.createQuery(t.database(), t.name()));
        AlterCommands.Result r = AlterCommands.apply(ct, commands);
        TableDefinition def = TableDefinition.from(r.create());
        List<String> rewrite = new ArrayList<>(r.mutations());
        boolean ttl = rewrite.remove("MATERIALIZE TTL");
        dev.chdedup.stub.replicated.StorageReplicatedMergeTree.AlterStarted started = t.alterMetadata(def,
            ttl || !r.clears().isEmpty(), rewrite.isEmpty() ? null : String.join(", ", rewrite), row -> row);
        int version = started.version();
        long deadline = System.currentTimeMillis() + Math.max(1, ctx.settings().getLong("replication_wait_for_inactive_replica_timeout")) * 1000L;
        StorageMergeTree now = t;
        while (true) {
            Object found = catalog.find(t.database(), t.name());
            if (found != t && found instanceof dev.chdedup.stub.replicated.StorageReplicatedMergeTree
                && ((dev.chdedup.stub.replicated.StorageReplicatedMergeTree) found).metadataVersion() >= version) {
                now = (StorageMergeTree) found;
                break;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Timeout while waiting for metadata version " + version
                    + " on replica " + t.replicaName() + " of " + t.database() + "." + t.name());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ChException(ErrorCode.ABORTED, "Interrupted while waiting for the ALTER to apply");
            }
        }
        String comment = r.create().clauseSql().get("COMMENT");
        Statement.CreateTable local = (Statement.CreateTable) Parser.parse(catalog.createQuery(t.database(), t.name()));
        if (!java.util.Objects.equals(comment, local.clauseSql().get("COMMENT"))) {
            Map<String, String> clauses = new LinkedHashMap<>(local.clauseSql());
            if (comment == null) {
                clauses.remove("COMMENT");
            } else {
                clauses.put("COMMENT", comment);
            }
            Statement.CreateTable withComment = new Statement.CreateTable(local.database(), local.table(), false, false, local.columns(),
                local.engine(), local.engineArgs(), local.partitionBy(), local.orderBy(), local.primaryKey(), local.settings(), clauses,
                null, null, null);
            StorageMergeTree old = now;
            now = catalog.alterTable(t.database(), t.name(), AlterCommands.createQueryText(withComment), Map.of());
            system.tableReplaced(old);
        }
        dev.chdedup.stub.replicated.StorageReplicatedMergeTree replicated = (dev.chdedup.stub.replicated.StorageReplicatedMergeTree) now;
        long sync = Math.max(1, ctx.settings().getLong("alter_sync"));
        long timeout = 1000L * ctx.settings().getLong("replication_wait_for_inactive_replica_timeout");
        for (Statement.ClearColumn c : r.clears()) {
            replicated.mutate(c.sql(), compileMutation(now, c, ctx), sync, timeout);
        }
        if (started.mutation() != null) {
            replicated.waitMutation(started.mutation(), sync, timeout);
        }
        if (ttl) {
            replicated.mutate("MATERIALIZE TTL", compileMutation(now, new Statement.MaterializeTtl(), ctx), sync, timeout);
        }
        return now;
    }

    /**
     * Makes a replicated table's local definition the one an ALTER_METADATA entry its queue executed gives, and opens
     * the table again over its parts (ReplicationContext's applier).
     */
    public void applyReplicatedAlter(dev.chdedup.stub.replicated.StorageReplicatedMergeTree t,
                                     dev.chdedup.stub.replicated.ReplicatedMergeTreeLogEntry.AlterMetadata alter) {
        try {
            if (catalog.find(t.database(), t.name()) != t) {
                return; // dropped or opened again meanwhile
            }
            Statement.CreateTable local = (Statement.CreateTable) Parser.parse(catalog.createQuery(t.database(), t.name()));
            Statement.CreateTable next = dev.chdedup.stub.replicated.StorageReplicatedMergeTree.definitionAfter(local, alter);
            catalog.alterTable(t.database(), t.name(), AlterCommands.createQueryText(next), renamesOfAlter(t, alter.alterVersion()));
            system.tableReplaced(t);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The columns the ALTER of metadata version {@code version} renamed (new name to the name the parts have), from the
     * RENAME COLUMN commands of its mutation, as ClickHouse's alter conversions read parts the mutation has not reached.
     */
    private static Map<String, String> renamesOfAlter(dev.chdedup.stub.replicated.StorageReplicatedMergeTree t, int version) {
        Map<String, String> renamedFrom = new LinkedHashMap<>();
        for (String commands : t.mutationCommandsOfAlter(version)) {
            Statement.Alter a = (Statement.Alter) Parser.parse("ALTER TABLE `" + t.name().replace("`", "\\`") + "` " + commands);
            for (Statement.AlterCommand c : a.commands()) {
                if (c instanceof Statement.RenameColumn rc) {
                    renamedFrom.put(rc.to(), renamedFrom.getOrDefault(rc.from(), rc.from()));
                    renamedFrom.remove(rc.from());
                }
            }
        }
        return renamedFrom;
    }

    /**
     * Finishes the mutations of every table that a crash interrupted, compiling their stored command text again.
     * Runs once at start, before the server serves.
     */
    public void resumeMutations() {
        for (String db : catalog.databaseNames()) {
            if (!catalog.databaseExists(db) || DatabaseCatalog.SYSTEM.equals(db)) {
                continue;
            }
            for (Object obj : catalog.tables(db).values()) {
                if (obj instanceof StorageMergeTree) {
                    StorageMergeTree t = (StorageMergeTree) obj;
                    t.resumeMutations(commands -> compileMutationText(t, commands));
                }
            }
        }
    }

    /** The row function of a stored mutation command text ({@code DELETE WHERE ...}, {@code UPDATE ... WHERE ...}). */
    public MergeTreeDataMergerMutator.RowMutation compileMutationText(StorageMergeTree t, String commands) {
        QueryContext ctx = new QueryContext(t.database(), "default", "resume-mutations", dev.chdedup.stub.exec.Settings.DEFAULTS);
        Statement.Alter a = (Statement.Alter) Parser.parse("ALTER TABLE `" + t.name().replace("`", "\\`") + "` " + commands);
        return compileMutation(t, a.commands().get(0), ctx);
    }

    /** The row function of a DELETE or UPDATE mutation command: null deletes a row, the same row leaves it. */
    private MergeTreeDataMergerMutator.RowMutation compileMutation(StorageMergeTree t, Statement.AlterCommand c, QueryContext ctx) {
        if (c instanceof Statement.ClearColumn) {
            return compileClear(t, (Statement.ClearColumn) c, ctx);
        }
        if (c instanceof Statement.MaterializeTtl) {
            dev.chdedup.stub.mergetree.TTLDescription ttl = t.ttl();
            long now = System.currentTimeMillis() / 1000;
            return row -> ttl.apply(row, now);
        }
        if (!(c instanceof Statement.MutateDelete) && !(c instanceof Statement.MutateUpdate)) {
            return row -> row; // MODIFY, DROP or RENAME COLUMN: the part is rewritten as the table's columns are now
        }
        if (c instanceof Statement.MutateDelete) {
            Evaluator where = new ExprCompiler(ctx, t.columns(), Map.of(), selects).compile(((Statement.MutateDelete) c).where());
            return row -> dev.chdedup.stub.types.Values.isTrue(where.eval(row)) ? null : row;
        }
        return compileUpdate(t, (Statement.MutateUpdate) c, ctx);
    }

    /** CLEAR COLUMN [IN PARTITION p]: the column's values become its default (its DEFAULT expression, else the type's). */
    private MergeTreeDataMergerMutator.RowMutation compileClear(StorageMergeTree t, Statement.ClearColumn c, QueryContext ctx) {
        List<Column> cols = t.columns();
        int idx = -1;
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).name().equals(c.name())) {
                idx = i;
            }
        }
        if (idx < 0) {
            return row -> row;
        }
        int target = idx;
        DataType to = cols.get(idx).type();
        dev.chdedup.stub.mergetree.TableColumn def = t.definition().columns().get(idx);
        Evaluator value = def.defaultExpr() == null ? null : new ExprCompiler(ctx, cols, Map.of(), selects).compile(def.defaultExpr());
        String partition = c.partition() == null ? null : partitionId(t, c.partition(), ctx);
        return row -> {
            if (partition != null && !partition.equals(t.definition().partitionKey().partitionId(row))) {
                return row;
            }
            Object[] out = row.clone();
            Object v = value == null ? to.defaultValue() : value.eval(row);
            out[target] = v == null ? (to.isNullable() ? null : to.defaultValue()) : value == null || value.type().equals(to) ? v : to.convert(v, value.type());
            return out;
        };
    }

    private MergeTreeDataMergerMutator.RowMutation compileUpdate(StorageMergeTree t, Statement.MutateUpdate u, QueryContext ctx) {
        ExprCompiler comp = new ExprCompiler(ctx, t.columns(), Map.of(), selects);
        Evaluator where = comp.compile(u.where());
        List<Column> cols = t.columns();
        int[] targets = new int[u.assignments().size()];
        Evaluator[] values = new Evaluator[targets.length];
        int k = 0;
        for (Map.Entry<String, Expr> a : u.assignments().entrySet()) {
            int idx = -1;
            for (int i = 0; i < cols.size(); i++) {
                if (cols.get(i).name().equals(a.getKey())) {
                    idx = i;
                }
            }
            if (idx < 0) {
                throw new ChException(ErrorCode.NO_SUCH_COLUMN_IN_TABLE, "There is no column " + DatabaseCatalog.backQuote(a.getKey()) + " in table");
            }
            if (t.definition().sortingKey() != null && t.definition().clauseSql().getOrDefault("ORDER BY", "").matches("(?s).*\\b"
                + java.util.regex.Pattern.quote(a.getKey()) + "\\b.*")
                || t.definition().clauseSql().getOrDefault("PARTITION BY", "").matches("(?s).*\\b" + java.util.regex.Pattern.quote(a.getKey()) + "\\b.*")) {
                throw new ChException(ErrorCode.CANNOT_UPDATE_COLUMN, "Cannot UPDATE key column " + DatabaseCatalog.backQuote(a.getKey()));
            }
            targets[k] = idx;
            values[k] = comp.compile(a.getValue());
            k++;
        }
        return row -> {
            if (!dev.chdedup.stub.types.Values.isTrue(where.eval(row))) {
                return row;
            }
            Object[] out = row.clone();
            for (int i = 0; i < targets.length; i++) {
                DataType to = cols.get(targets[i]).type();
                Object v = values[i].eval(row);
                out[targets[i]] = v == null ? (to.isNullable() ? null : to.defaultValue()) : values[i].type().equals(to) ? v : to.convert(v, values[i].type());
            }
            return out;
        };
    }

    /**
     * DETACH/ATTACH PARTITION or PART, REPLACE PARTITION FROM, ATTACH PARTITION FROM, MOVE PARTITION TO TABLE and FREEZE
     * of a MergeTree table that is not replicated; the deduplication log forgets the ids of the parts that leave.
     */
    private void partitionCommand(StorageMergeTree t, Statement.PartitionCommand c, QueryContext ctx) throws IOException {
        if (t instanceof dev.chdedup.stub.replicated.StorageReplicatedMergeTree) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, c.action() + " PARTITION of a ReplicatedMergeTree table is not supported by the stub");
        }
        String id = c.partName() != null ? null : c.partitionId() != null ? c.partitionId()
            : c.partition() != null ? partitionId(t, c.partition(), ctx) : null;
        switch (c.action()) {
            case "DETACH" -> system.partsDropped(t, t.detach(id, c.partName()));
            case "ATTACH" -> t.attach(id, c.partName());
            case "FREEZE" -> t.freeze(id, catalog.root().resolve("shadow"));
            default -> {
                StorageMergeTree other = catalog.mergeTree(db(c.otherDatabase(), ctx), c.otherTable());
                if (c.action().equals("MOVE")) {
                    system.partsDropped(t, t.movePartitionTo(other, id));
                } else if (c.action().equals("REPLACE")) {
                    system.partsDropped(t, t.replacePartitionFrom(other, id));
                } else { // ATTACH PARTITION ... FROM: copies added, nothing replaced
                    t.attachPartitionFrom(other, id);
                }
            }
        }
    }

    /** The partition id a PARTITION expression names: a literal value (or tuple) of the partition key, or ALL/tuple(). */
    private String partitionId(StorageMergeTree t, Expr e, QueryContext ctx) {
        if (e instanceof Expr.Ident && ((Expr.Ident) e).joined().equalsIgnoreCase("ALL")) {
            return "all";
        }
        Evaluator ev = new ExprCompiler(ctx, List.of(), Map.of(), selects).compile(e);
        if (!ev.constant()) {
            throw new ChException(ErrorCode.INVALID_PARTITION_VALUE, "Partition value must be a constant");
        }
        if (t.definition().partitionKey().isEmpty()) {
            return "all";
        }
        return PartitionKey.idOf(ev.eval(new Object[0]), ev.type());
    }

    /** Exposed for system tables built from query results. */
    public static dev.chdedup.stub.exec.TableSource snapshot(List<Column> cols, List<Object[]> rows) {
        return SystemTables.snapshot(cols, rows);
    }
}
