package dev.chdedup.stub.system;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.dedup.PartLog;
import dev.chdedup.stub.exec.KnownSettings;
import dev.chdedup.stub.exec.NumbersSource;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeSettings;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code system} database: numbers, one, parts, tables, columns, databases, settings, merge_tree_settings
 * and events, each built as a snapshot when a query reads it, with the columns users query (a subset of
 * ClickHouse's).
 */
public final class SystemTables {
    private final SystemCatalog catalog;
    private final Events events;

    public SystemTables(SystemCatalog catalog, Events events) {
        this.catalog = catalog;
        this.events = events;
    }

    private volatile PartLog partLog;

    public void attach(PartLog log) {
        this.partLog = log;
    }

    private volatile dev.chdedup.stub.exec.ProcessList processes;

    public void attach(dev.chdedup.stub.exec.ProcessList p) {
        this.processes = p;
    }

    /** More system tables (replication's), asked for names the switch below does not know. */
    public interface Extra {
        List<String> names();

        TableSource table(String name, QueryContext ctx);
    }

    private final List<Extra> extras = new java.util.concurrent.CopyOnWriteArrayList<>();

    public void attachExtra(Extra e) {
        extras.add(e);
    }

    public List<String> names() {
        if (!extras.isEmpty()) {
            List<String> all = new ArrayList<>(baseNames());
            for (Extra e : extras) {
                all.addAll(e.names());
            }
            all.sort(null);
            return all;
        }
        return baseNames();
    }

    private static List<String> baseNames() {
        return List.of("build_options", "columns", "data_type_families", "databases", "events", "functions", "keywords",
            "merge_tree_settings", "mutations", "numbers", "one", "part_log", "parts", "processes", "query_log", "settings",
            "table_engines", "tables", "time_zones");
    }

    private static Column c(String n, String type) {
        return new Column(n, DataTypes.parse(type));
    }

    /** A fixed snapshot of rows as a table source. */
    public static TableSource snapshot(List<Column> cols, List<Object[]> rows) {
        return TableSource.of(cols, rows);
    }

    public TableSource table(String name, QueryContext ctx) {
        switch (name.toLowerCase()) {
            case "one": {
                List<Column> cols = List.of(c("dummy", "UInt8"));
                List<Object[]> rows = new ArrayList<>();
                rows.add(new Object[] {0L});
                return snapshot(cols, rows);
            }
            case "numbers": case "numbers_mt": {
                List<Column> cols = List.of(c("number", "UInt64"));
                return new TableSource() {
                    @Override
                    public List<Column> columns() {
                        return cols;
                    }

                    @Override
                    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
                        return NumbersSource.blocks(0, -1, 1, maxBlockSize, cols);
                    }
                };
            }
            case "build_options": {
                // what a build says about itself; the version is the one the server plays
                String v = ctx.compat().serverVersion(dev.chdedup.stub.exec.ServerInfo.VERSION);
                String[] p = v.split("\\.");
                long integer = Long.parseLong(p[0]) * 1_000_000 + (p.length > 1 ? Long.parseLong(p[1]) * 1000 : 0)
                    + (p.length > 2 ? Long.parseLong(p[2]) : 0);
                List<Object[]> rows = new ArrayList<>();
                rows.add(new Object[] {"VERSION_FULL", "ClickHouse " + v});
                rows.add(new Object[] {"VERSION_DESCRIBE", "v" + v + "-stable"});
                rows.add(new Object[] {"VERSION_INTEGER", Long.toString(integer)});
                rows.add(new Object[] {"SYSTEM", "Linux"});
                return snapshot(List.of(c("name", "String"), c("value", "String")), rows);
            }
            case "databases": {
                List<Column> cols = List.of(c("name", "String"), c("engine", "String"), c("data_path", "String"),
                    c("metadata_path", "String"), c("uuid", "UUID"), c("comment", "String"));
                List<Object[]> rows = new ArrayList<>();
                for (String db : catalog.databaseNames()) {
                    rows.add(new Object[] {db, db.equals("system") ? "Memory" : "Atomic", catalog.root().resolve("data").toString() + "/",
                        catalog.root().resolve("metadata").resolve(db).toString() + "/", new java.util.UUID(0, 0), ""});
                }
                return snapshot(cols, rows);
            }
            case "tables": return tables(ctx);
            case "columns": return ColumnFacts.table(catalog, this, ctx);
            case "functions": return SystemReferenceTables.functions();
            case "data_type_families": return SystemReferenceTables.dataTypeFamilies();
            case "table_engines": return SystemReferenceTables.tableEngines();
            case "keywords": return SystemReferenceTables.keywords();
            case "time_zones": return SystemReferenceTables.timeZones();
            case "query_log": return QueryLogTable.of(processes == null ? null : processes.queryLog());
            case "parts": return parts();
            case "mutations": return mutations();
            case "settings": {
                List<Column> cols = List.of(c("name", "String"), c("value", "String"), c("changed", "UInt8"),
                    c("description", "String"), c("type", "String"), c("default", "String"), c("readonly", "UInt8"),
                    c("alias_for", "String"), c("is_obsolete", "UInt8"));
                List<Object[]> rows = new ArrayList<>();
                for (KnownSettings.Def d : KnownSettings.all().values()) {
                    boolean changed = ctx.settings().isChanged(d.name());
                    dev.chdedup.stub.exec.RecordedSettings.Row r = dev.chdedup.stub.exec.RecordedSettings.settings().get(d.name());
                    rows.add(new Object[] {d.name(), ctx.settings().get(d.name()), changed ? 1L : 0L, d.description(), d.type(), d.defaultValue(), 0L,
                        r == null ? "" : r.aliasFor(), r != null && r.obsolete() ? 1L : 0L});
                }
                return snapshot(cols, rows);
            }
            case "merge_tree_settings": {
                List<Column> cols = List.of(c("name", "String"), c("value", "String"), c("changed", "UInt8"),
                    c("description", "String"), c("type", "String"), c("default", "String"), c("readonly", "UInt8"),
                    c("is_obsolete", "UInt8"));
                List<Object[]> rows = new ArrayList<>();
                for (MergeTreeSettings.Def d : MergeTreeSettings.all().values()) {
                    if (!ctx.compat().knowsMergeTreeSetting(d.name())) {
                        continue;
                    }
                    dev.chdedup.stub.exec.RecordedSettings.Row r = dev.chdedup.stub.exec.RecordedSettings.mergeTreeSettings().get(d.name());
                    rows.add(new Object[] {d.name(), d.defaultValue(), 0L, d.description(), d.type(), d.defaultValue(),
                        r != null && r.readonly() ? 1L : 0L, r != null && r.obsolete() ? 1L : 0L});
                }
                return snapshot(cols, rows);
            }
            case "events": {
                List<Column> cols = List.of(c("event", "String"), c("value", "UInt64"), c("description", "String"));
                List<Object[]> rows = new ArrayList<>();
                for (Map.Entry<String, Long> e : events.snapshot().entrySet()) {
                    rows.add(new Object[] {e.getKey(), e.getValue(), Events.describe(e.getKey())});
                }
                return snapshot(cols, rows);
            }
            case "processes": {
                List<Column> cols = List.of(c("query_id", "String"), c("user", "String"), c("query", "String"), c("elapsed", "Float64"),
                    c("is_cancelled", "UInt8"));
                List<Object[]> rows = new ArrayList<>();
                if (processes != null) {
                    for (dev.chdedup.stub.exec.ProcessList.Entry e : processes.snapshot()) {
                        rows.add(new Object[] {e.queryId, e.user, e.query, e.elapsedSeconds(), e.isCancelled() ? 1L : 0L});
                    }
                }
                return snapshot(cols, rows);
            }
            case "part_log": {
                List<Column> cols = List.of(c("query_id", "String"), c("event_type", "Enum8('NewPart' = 1, 'MergeParts' = 2, 'DownloadPart' = 3, 'RemovePart' = 4, 'MutatePart' = 5, 'MovePart' = 6)"),
                    c("event_date", "Date"), c("event_time", "DateTime"), c("event_time_microseconds", "DateTime64(6)"),
                    c("database", "String"), c("table", "String"), c("part_name", "String"), c("partition_id", "String"),
                    c("rows", "UInt64"), c("size_in_bytes", "UInt64"), c("block_id", "String"), c("error", "UInt16"),
                    c("exception", "String"));
                List<Object[]> rows = new ArrayList<>();
                if (partLog != null) {
                    for (PartLog.Entry e : partLog.snapshot()) {
                        rows.add(new Object[] {e.queryId(), 1L, Math.floorDiv(e.eventTime(), 86400L), e.eventTime(), e.eventTimeMicros(),
                            e.database(), e.table(), e.partName(), e.partitionId(), e.rows(), e.sizeInBytes(), e.blockId(),
                            (long) e.error(), e.exception()});
                    }
                }
                return snapshot(cols, rows);
            }
            default: {
                for (Extra e : extras) {
                    if (e.names().contains(name.toLowerCase())) {
                        return e.table(name.toLowerCase(), ctx);
                    }
                }
                return null;
            }
        }
    }

    private TableSource tables(QueryContext ctx) {
        List<Column> cols = List.of(c("database", "String"), c("name", "String"), c("uuid", "UUID"), c("engine", "String"),
            c("is_temporary", "UInt8"), c("data_paths", "Array(String)"), c("metadata_path", "String"),
            c("metadata_modification_time", "DateTime"), c("create_table_query", "String"), c("engine_full", "String"),
            c("partition_key", "String"), c("sorting_key", "String"), c("primary_key", "String"),
            c("total_rows", "Nullable(UInt64)"), c("total_bytes", "Nullable(UInt64)"), c("comment", "String"));
        List<Object[]> rows = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                rows.add(tableRow(db, e.getKey(), e.getValue(), 0L));
            }
        }
        // the session's temporary tables: database '' and is_temporary = 1, as ClickHouse lists them
        for (Map.Entry<String, TableSource> e : ctx.temporaryTables().entrySet()) {
            rows.add(tableRow("", e.getKey(), e.getValue(), 1L));
        }
        return snapshot(cols, rows);
    }


    private static Object[] tableRow(String db, String name, Object t, long temporary) {
        if (t instanceof StorageMergeTree) {
            StorageMergeTree m = (StorageMergeTree) t;
            long total = 0;
            long bytes = 0;
            for (IMergeTreeDataPart p : m.activeParts()) {
                total += p.rowCount();
                bytes += p.bytesOnDisk();
            }
            Map<String, String> cl = m.definition().clauseSql();
            return new Object[] {db, name, new java.util.UUID(0, 0), m.definition().engine(), temporary,
                List.of(m.directory().toString() + "/"), "", 0L, ShowCreate.of(m), cl.getOrDefault("ENGINE", m.definition().engine()),
                keyList(cl.getOrDefault("PARTITION BY", "")), keyList(cl.getOrDefault("ORDER BY", "")),
                keyList(cl.getOrDefault("PRIMARY KEY", cl.getOrDefault("ORDER BY", ""))),
                total, bytes, ByteStrings.fromText(cl.getOrDefault("COMMENT", ""))};
        }
        if (t instanceof dev.chdedup.stub.storages.Storage) {
            dev.chdedup.stub.storages.Storage s = (dev.chdedup.stub.storages.Storage) t;
            boolean memory = s.engine().equals("Memory") || s.engine().equals("Null") || s.engine().equals("Buffer");
            return new Object[] {db, name, new java.util.UUID(0, 0), s.engine(), temporary, List.of(), "", 0L,
                ByteStrings.fromText(s.createSql()), s.engine(), "", "", "", memory ? s.totalRows() : null, null,
                ByteStrings.fromText(s.createSql().contains("COMMENT") ? clauseComment(s.createSql()) : "")};
        }
        String engine = db.equals("system") ? "SystemTable" : t instanceof dev.chdedup.stub.mv.PlainView ? "View"
            : t.getClass().getSimpleName();
        return new Object[] {db, name, new java.util.UUID(0, 0), engine, temporary, List.of(), "", 0L, "", engine, "", "", "", null, null, ""};
    }

    /** The table COMMENT of a CREATE statement, or empty. */
    private static String clauseComment(String createSql) {
        try {
            dev.chdedup.stub.sql.Statement st = dev.chdedup.stub.sql.Parser.parse(createSql);
            if (st instanceof dev.chdedup.stub.sql.Statement.CreateTable) {
                return ((dev.chdedup.stub.sql.Statement.CreateTable) st).clauseSql().getOrDefault("COMMENT", "");
            }
        } catch (RuntimeException e) {
            return "";
        }
        return "";
    }

    /** A key as system.tables shows it: {@code (a, b)} is {@code a, b}; {@code tuple()} is empty. */
    static String keyList(String sql) {
        String s = sql.strip();
        if (s.equals("tuple()") || s.equals("()")) {
            return "";
        }
        if (s.startsWith("(") && s.endsWith(")")) {
            int depth = 0;
            for (int i = 0; i < s.length(); i++) {
                depth += s.charAt(i) == '(' ? 1 : s.charAt(i) == ')' ? -1 : 0;
                if (depth == 0 && i < s.length() - 1) {
                    return s;
                }
            }
            return s.substring(1, s.length() - 1).strip();
        }
        return s;
    }


    private TableSource parts() {
        DataType dt = DataTypes.DATETIME;
        List<Column> cols = List.of(c("database", "String"), c("table", "String"), c("name", "String"), c("partition_id", "String"),
            c("partition", "String"), c("active", "UInt8"), c("rows", "UInt64"), c("bytes_on_disk", "UInt64"),
            c("level", "UInt32"), c("min_block_number", "Int64"), c("max_block_number", "Int64"),
            new Column("modification_time", dt), c("marks", "UInt64"), c("path", "String"), c("engine", "String"));
        List<Object[]> rows = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (db.equals("system") || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (!(e.getValue() instanceof StorageMergeTree)) {
                    continue;
                }
                StorageMergeTree m = (StorageMergeTree) e.getValue();
                for (IMergeTreeDataPart p : m.activeParts()) {
                    rows.add(new Object[] {db, e.getKey(), p.name(), p.info().partitionId(), p.info().partitionId(), 1L,
                        p.rowCount(), p.bytesOnDisk(), (long) p.info().level(), p.info().minBlock(), p.info().maxBlock(),
                        p.modificationTime(), (p.rowCount() + 8191) / 8192 + 1, m.directory().resolve(p.name()).toString() + "/",
                        m.definition().engine()});
                }
            }
        }
        return snapshot(cols, rows);
    }

    private TableSource mutations() {
        List<Column> cols = List.of(c("database", "String"), c("table", "String"), c("mutation_id", "String"), c("command", "String"),
            new Column("create_time", DataTypes.DATETIME), c("parts_to_do", "Int64"), c("is_done", "UInt8"), c("latest_failed_part", "String"),
            new Column("latest_fail_time", DataTypes.DATETIME), c("latest_fail_reason", "String"), c("is_killed", "UInt8"));
        List<Object[]> rows = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (db.equals("system") || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (e.getValue() instanceof StorageMergeTree) {
                    for (dev.chdedup.stub.mergetree.MergeTreeMutationStatus m : ((StorageMergeTree) e.getValue()).mutationStatuses()) {
                        boolean failed = !m.failReason().isEmpty();
                        rows.add(new Object[] {db, e.getKey(), m.mutationId(), m.entry().commands(), m.entry().createTime(), m.partsToDo(),
                            m.done() ? 1L : 0L, "", failed ? m.entry().createTime() : 0L, m.failReason(), failed ? 1L : 0L});
                    }
                }
            }
        }
        return snapshot(cols, rows);
    }
}
