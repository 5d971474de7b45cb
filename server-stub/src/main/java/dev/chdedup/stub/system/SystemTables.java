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
        return List.of("build_options", "collations", "columns", "data_type_families", "databases", "detached_parts", "events", "functions", "keywords",
            "merge_tree_settings", "mutations", "numbers", "one", "part_log", "parts", "processes", "query_log", "settings",
            "table_engines", "tables", "time_zones");
    }

    /** A fixed snapshot of rows as a table source. */
    public static TableSource snapshot(List<Column> cols, List<Object[]> rows) {
        return TableSource.of(cols, rows);
    }

    public TableSource table(String name, QueryContext ctx) {
        switch (name.toLowerCase()) {
            case "one": {
                SystemTable t = SystemTable.of("one");
                t.add().set("dummy", 0L);
                return t.source();
            }
            case "numbers": case "numbers_mt": {
                List<Column> cols = SystemTable.columns(name.toLowerCase());
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
                SystemTable t = SystemTable.of("build_options");
                t.add().set("name", "VERSION_FULL").set("value", "ClickHouse " + v);
                t.add().set("name", "VERSION_DESCRIBE").set("value", "v" + v + "-stable");
                t.add().set("name", "VERSION_INTEGER").set("value", Long.toString(integer));
                t.add().set("name", "VERSION_NAME").set("value", "ClickHouse");
                t.add().set("name", "VERSION_MAJOR").set("value", p[0]);
                t.add().set("name", "VERSION_MINOR").set("value", p.length > 1 ? p[1] : "0");
                t.add().set("name", "VERSION_PATCH").set("value", p.length > 2 ? p[2] : "0");
                t.add().set("name", "VERSION_STRING").set("value", v);
                t.add().set("name", "VERSION_STRING_SHORT").set("value", p[0] + "." + (p.length > 1 ? p[1] : "0"));
                t.add().set("name", "VERSION_OFFICIAL").set("value", "");
                t.add().set("name", "SYSTEM").set("value", "Linux");
                if (v.equals(dev.chdedup.stub.exec.ServerInfo.VERSION)) { // the release's commit and revision, as the engine's build has them
                    t.add().set("name", "VERSION_GITHASH").set("value", dev.chdedup.stub.exec.ServerInfo.VERSION_GITHASH);
                    t.add().set("name", "VERSION_REVISION").set("value", Long.toString(dev.chdedup.stub.exec.ServerInfo.VERSION_REVISION));
                }
                return t.source();
            }
            case "databases": {
                SystemTable t = SystemTable.of("databases");
                for (String db : catalog.databaseNames()) {
                    if (InformationSchema.isDatabase(db)) { // in memory, as the engine keeps them: the server's path, no metadata
                        t.add().set("name", db).set("engine", "Memory").set("data_path", catalog.root().toString() + "/")
                            .set("engine_full", "Memory");
                        continue;
                    }
                    String engine = db.equals("system") ? "Memory" : "Atomic";
                    t.add().set("name", db).set("engine", engine).set("data_path", catalog.root().resolve("data").toString() + "/")
                        .set("metadata_path", catalog.root().resolve("metadata").resolve(db).toString() + "/")
                        .set("engine_full", engine);
                }
                return t.source();
            }
            case "tables": return tables(ctx);
            case "columns": return ColumnFacts.table(catalog, this, ctx);
            case "functions": return SystemReferenceTables.functions();
            case "data_type_families": return SystemReferenceTables.dataTypeFamilies();
            case "table_engines": return SystemReferenceTables.tableEngines();
            case "keywords": return SystemReferenceTables.keywords();
            case "time_zones": return SystemReferenceTables.timeZones();
            case "collations": return SystemReferenceTables.collations();
            case "query_log": return QueryLogTable.of(processes == null ? null : processes.queryLog());
            case "parts": return parts();
            case "mutations": return mutations();
            case "detached_parts": return detachedParts();
            case "settings": {
                SystemTable t = SystemTable.of("settings");
                for (KnownSettings.Def d : KnownSettings.all().values()) {
                    dev.chdedup.stub.exec.RecordedSettings.Row r = dev.chdedup.stub.exec.RecordedSettings.settings().get(d.name());
                    if (r == null) {
                        continue; // the stub's own names (HTTP parameters, settings older releases had): not a 26.7 server's
                    }
                    boolean changed = ctx.settings().isChanged(d.name());
                    String value = ctx.settings().get(d.name());
                    String dflt = ctx.settings().defaultValue(d.name());
                    if (r.defaultValue().startsWith("auto(") && !dflt.startsWith("auto")) { // an automatic MaxThreads value is written auto(N)
                        dflt = "auto(" + dflt + ")";
                        value = changed ? value : dflt;
                    }
                    t.add().set("name", d.name()).set("value", value).set("changed", changed).set("description", d.description())
                        .set("type", d.type()).set("default", dflt).set("tier", tier(r))
                        .set("alias_for", r.aliasFor()).set("is_obsolete", r.obsolete());
                }
                return t.source();
            }
            case "merge_tree_settings": {
                SystemTable t = SystemTable.of("merge_tree_settings");
                for (MergeTreeSettings.Def d : MergeTreeSettings.all().values()) {
                    if (!ctx.compat().knowsMergeTreeSetting(d.name())) {
                        continue;
                    }
                    dev.chdedup.stub.exec.RecordedSettings.Row r = dev.chdedup.stub.exec.RecordedSettings.mergeTreeSettings().get(d.name());
                    String old = ctx.compat().mergeTreeSettingDefault(d.name()); // the server's: an older release's where it plays one
                    String dflt = old != null ? old : d.defaultValue();
                    SystemTable.Row row = t.add().set("name", d.name()).set("value", dflt).set("default", dflt)
                        .set("description", d.description()).set("type", d.type()).set("tier", tier(r));
                    if (r != null) {
                        row.set("readonly", r.readonly()).set("is_obsolete", r.obsolete());
                    }
                }
                return t.source();
            }
            case "events": {
                SystemTable t = SystemTable.of("events");
                for (Map.Entry<String, Long> e : events.snapshot().entrySet()) {
                    t.add().set("event", e.getKey()).set("value", e.getValue()).set("description", Events.describe(e.getKey()));
                }
                return t.source();
            }
            case "processes": {
                SystemTable t = SystemTable.of("processes");
                if (processes != null) {
                    for (dev.chdedup.stub.exec.ProcessList.Entry e : processes.snapshot()) {
                        QueryLogTable.client(t.add(), e.client, false).set("user", e.user).set("query_id", e.queryId)
                            .set("initial_user", e.user).set("initial_query_id", e.queryId).set("elapsed", e.elapsedSeconds())
                            .set("is_cancelled", e.isCancelled()).set("read_rows", e.readRows()).set("read_bytes", e.readBytes())
                            .set("query", e.query).set("query_kind", dev.chdedup.stub.exec.QueryLog.kind(e.query))
                            .set("current_database", e.client.currentDatabase());
                    }
                }
                return t.source();
            }
            case "part_log": {
                SystemTable t = SystemTable.of("part_log");
                if (partLog != null) {
                    for (PartLog.Entry e : partLog.snapshot()) {
                        t.add().set("hostname", dev.chdedup.stub.exec.ServerInfo.hostName()).set("query_id", e.queryId())
                            .set("event_type", e.eventType()).set("merge_reason", "NotAMerge")
                            .set("event_date", Math.floorDiv(e.eventTime(), 86400L)).set("event_time", e.eventTime())
                            .set("event_time_microseconds", e.eventTimeMicros()).set("database", e.database()).set("table", e.table())
                            .set("part_name", e.partName()).set("partition_id", e.partitionId()).set("partition", e.partitionId())
                            .set("rows", e.rows()).set("size_in_bytes", e.sizeInBytes())
                            .set("deduplication_block_ids", e.blockId().isEmpty() ? List.of() : List.of(e.blockId()))
                            .set("error", (long) e.error()).set("exception", e.exception());
                    }
                }
                return t.source();
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

    /** A setting's tier as the engine lists it (Production when not recorded). */
    private static String tier(dev.chdedup.stub.exec.RecordedSettings.Row r) {
        return r == null || r.tier().isEmpty() ? "Production" : r.tier();
    }

    private TableSource tables(QueryContext ctx) {
        SystemTable t = SystemTable.of("tables");
        for (String db : catalog.databaseNames()) {
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                tableRow(t.add(), db, e.getKey(), e.getValue(), false);
            }
        }
        // the session's temporary tables: database '' and is_temporary = 1, as ClickHouse lists them
        for (Map.Entry<String, TableSource> e : ctx.temporaryTables().entrySet()) {
            tableRow(t.add(), "", e.getKey(), e.getValue(), true);
        }
        return t.source();
    }

    private static void tableRow(SystemTable.Row row, String db, String name, Object t, boolean temporary) {
        row.set("database", db).set("name", name).set("is_temporary", temporary);
        if (t instanceof StorageMergeTree) {
            StorageMergeTree m = (StorageMergeTree) t;
            long total = 0;
            long bytes = 0;
            long parts = 0;
            long marks = 0;
            for (IMergeTreeDataPart p : m.activeParts()) {
                total += p.rowCount();
                bytes += p.bytesOnDisk();
                parts++;
                marks += (p.rowCount() + 8191) / 8192 + 1;
            }
            Map<String, String> cl = m.definition().clauseSql();
            row.set("engine", m.definition().engine()).set("data_paths", List.of(m.directory().toString() + "/"))
                .set("create_table_query", ShowCreate.of(m)).set("engine_full", cl.getOrDefault("ENGINE", m.definition().engine()))
                .set("partition_key", keyList(cl.getOrDefault("PARTITION BY", ""))).set("sorting_key", keyList(cl.getOrDefault("ORDER BY", "")))
                .set("primary_key", keyList(cl.getOrDefault("PRIMARY KEY", cl.getOrDefault("ORDER BY", ""))))
                .set("storage_policy", "default").set("total_rows", total).set("total_bytes", bytes).set("parts", parts)
                .set("active_parts", parts).set("total_marks", marks).set("comment", ByteStrings.fromText(cl.getOrDefault("COMMENT", "")))
                .set("has_own_data", 1L);
            return;
        }
        if (t instanceof dev.chdedup.stub.storages.Storage) {
            dev.chdedup.stub.storages.Storage s = (dev.chdedup.stub.storages.Storage) t;
            // the engine counts the rows of every one but TinyLog and Distributed (which has none of its own)
            boolean counted = !s.engine().equals("TinyLog") && !s.engine().equals("Distributed");
            String engineFull = s instanceof dev.chdedup.stub.distributed.StorageDistributed d ? d.engineFull() : s.engine();
            row.set("engine", s.engine()).set("create_table_query", ByteStrings.fromText(s.createSql())).set("engine_full", engineFull)
                .set("total_rows", counted ? s.totalRows() : null).set("total_bytes", null)
                .set("comment", ByteStrings.fromText(s.createSql().contains("COMMENT") ? clauseComment(s.createSql()) : ""))
                .set("has_own_data", s.engine().endsWith("Log")); // storesDataOnDisk: the Log family, not Memory, Null or Buffer
            return;
        }
        if (t instanceof dev.chdedup.stub.mv.PlainView v) {
            // the engine's views on one line as it shows them; a user's view as written (its comments kept meaningful)
            boolean recorded = InformationSchema.isDatabase(db);
            row.set("engine", "View")
                .set("create_table_query", ByteStrings.fromText(recorded ? InformationSchema.oneLine(v.createSql()) : v.createSql().strip()))
                .set("as_select", ByteStrings.fromText(recorded ? InformationSchema.oneLine(v.selectSql()) : v.selectSql().strip()));
            return;
        }
        if (t instanceof dev.chdedup.stub.mv.MaterializedView v) {
            row.set("engine", "MaterializedView").set("as_select", ByteStrings.fromText(v.selectSql().strip()));
            return;
        }
        if (db.equals("system") && (name.equals("query_log") || name.equals("part_log"))) {
            // the server's logs are MergeTree tables with SystemLog's default keys
            row.set("engine", "MergeTree").set("engine_full", "MergeTree PARTITION BY toYYYYMM(event_date) ORDER BY (event_date, event_time) "
                + "SETTINGS index_granularity = 8192").set("partition_key", "toYYYYMM(event_date)")
                .set("sorting_key", "event_date, event_time").set("primary_key", "event_date, event_time").set("has_own_data", 1L);
            return;
        }
        String engine = db.equals("system") ? "SystemTable" : t.getClass().getSimpleName();
        row.set("engine", engine).set("engine_full", engine).set("total_rows", null).set("total_bytes", null);
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
        SystemTable t = SystemTable.of("parts");
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
                    t.add().set("database", db).set("table", e.getKey()).set("name", p.name()).set("partition_id", p.info().partitionId())
                        .set("partition", m.partitionText(p)).set("active", 1L).set("rows", p.rowCount())
                        .set("bytes_on_disk", p.bytesOnDisk()).set("level", (long) p.info().level())
                        .set("min_block_number", p.info().minBlock()).set("max_block_number", p.info().maxBlock())
                        .set("data_version", p.dataVersion()).set("modification_time", p.modificationTime())
                        .set("marks", (p.rowCount() + 8191) / 8192 + 1).set("disk_name", "default")
                        .set("path", m.directory().resolve(p.name()).toString() + "/").set("engine", m.definition().engine())
                        .set("visible", 1L);
                }
            }
        }
        return t.source();
    }

    /**
     * system.detached_parts: the directories under each MergeTree table's {@code detached/} (DETACH PARTITION/PART, and
     * parts set aside as broken or unexpected, whose reason is their name's prefix), as ClickHouse lists them.
     */
    private TableSource detachedParts() {
        SystemTable t = SystemTable.of("detached_parts");
        for (String db : catalog.databaseNames()) {
            if (db.equals("system") || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (!(e.getValue() instanceof StorageMergeTree)) {
                    continue;
                }
                java.nio.file.Path detached = ((StorageMergeTree) e.getValue()).directory().resolve("detached");
                if (!java.nio.file.Files.isDirectory(detached)) {
                    continue;
                }
                List<java.nio.file.Path> dirs = new java.util.ArrayList<>();
                try (java.nio.file.DirectoryStream<java.nio.file.Path> ds = java.nio.file.Files.newDirectoryStream(detached)) {
                    ds.forEach(dirs::add);
                } catch (java.io.IOException ex) {
                    continue;
                }
                dirs.sort(null);
                for (java.nio.file.Path d : dirs) {
                    String name = d.getFileName().toString();
                    dev.chdedup.stub.mergetree.MergeTreePartInfo info = dev.chdedup.stub.mergetree.MergeTreePartInfo.tryParse(name);
                    String reason = "";
                    int us = name.indexOf('_');
                    if (info == null && us > 0 && dev.chdedup.stub.mergetree.MergeTreePartInfo.tryParse(name.substring(us + 1)) != null) {
                        reason = name.substring(0, us);
                        info = dev.chdedup.stub.mergetree.MergeTreePartInfo.tryParse(name.substring(us + 1));
                    }
                    long bytes = 0;
                    long mtime = 0;
                    try {
                        mtime = java.nio.file.Files.getLastModifiedTime(d).toMillis() / 1000;
                        if (java.nio.file.Files.isDirectory(d)) {
                            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(d)) {
                                bytes = files.mapToLong(f -> f.toFile().length()).sum();
                            }
                        } else {
                            bytes = java.nio.file.Files.size(d);
                        }
                    } catch (java.io.IOException ex) {
                        // gone meanwhile: listed with what is known
                    }
                    SystemTable.Row row = t.add().set("database", db).set("table", e.getKey()).set("name", name).set("bytes_on_disk", bytes)
                        .set("modification_time", mtime).set("disk", "default").set("reason", reason);
                    if (info != null) {
                        row.set("partition_id", info.partitionId()).set("min_block_number", info.minBlock())
                            .set("max_block_number", info.maxBlock()).set("level", (long) info.level());
                    }
                }
            }
        }
        return t.source();
    }

    private TableSource mutations() {
        SystemTable t = SystemTable.of("mutations");
        for (String db : catalog.databaseNames()) {
            if (db.equals("system") || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (e.getValue() instanceof StorageMergeTree) {
                    for (dev.chdedup.stub.mergetree.MergeTreeMutationStatus m : ((StorageMergeTree) e.getValue()).mutationStatuses()) {
                        boolean failed = !m.failReason().isEmpty();
                        t.add().set("database", db).set("table", e.getKey()).set("mutation_id", m.mutationId())
                            .set("command", m.entry().commands()).set("create_time", m.entry().createTime()).set("parts_to_do", m.partsToDo())
                            .set("is_done", m.done()).set("latest_fail_time", failed ? m.entry().createTime() : 0L)
                            .set("latest_fail_reason", m.failReason()).set("is_killed", failed);
                    }
                }
            }
        }
        return t.source();
    }
}
