package dev.chdedup.driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the driver knows about an INSERT's table: its engine, its deduplication window (replicated: blocks and
 * seconds; non-replicated: blocks), whether one insert may write several parts at once (a partition key, a
 * materialized view fed by it), and which window settings the server has at all (ClickHouse 18.16 has no
 * {@code non_replicated_deduplication_window}). A table without a log cannot absorb the retry of an insert of unknown
 * outcome. Also the types of the columns an INSERT may name, in table order ({@code columnTypes}: MATERIALIZED and
 * ALIAS columns left out), and the server's time zone, so date and time parameters are rendered for their column. Read
 * from {@code system.tables}, {@code system.columns} and {@code system.merge_tree_settings} through {@link ServerQuery}
 * on the first insert and cached for {@code dedup.tableInfoTtlMs}.
 */
public record TableInfo(String database, String table, String engine, boolean replicated, long window, long windowSeconds,
                        boolean partitioned, boolean feedsViews, Set<String> serverSettings, Map<String, String> columnTypes,
                        ZoneId serverZone, DistributedTarget distributed, String zookeeperPath) {
    private static final Logger LOG = LoggerFactory.getLogger(TableInfo.class);
    static final String NON_REPLICATED_WINDOW = "non_replicated_deduplication_window";
    static final String REPLICATED_WINDOW = "replicated_deduplication_window";
    static final String REPLICATED_WINDOW_SECONDS = "replicated_deduplication_window_seconds";

    /** A table whose engine and settings could not be read: treated as keeping no log, and as several parts per insert. */
    static TableInfo unknown(String db, String table) {
        return new TableInfo(db, table, "unknown", false, 0, 0, true, true, Set.of(), Map.of(), null, null, null);
    }

    /**
     * Whether the table keeps a log that absorbs a retry: for a Distributed table, every shard's local table keeps one and
     * the rows of a retry reach the same shards ({@link DistributedTarget#tableBlocker()}).
     */
    public boolean hasLog() {
        return window > 0 && (distributed == null || distributed.tableBlocker() == null);
    }

    /**
     * Whether {@code other} (the same table read on another endpoint) keeps the very log this one keeps, so a retry there
     * with the same token and blocks is dropped if an attempt here landed: the same replicated table (ZooKeeper path), or
     * a Distributed table over the same cluster, local tables and key whose retries are exact.
     */
    boolean sharesLogWith(TableInfo other) {
        if (!hasLog() || !other.hasLog()) {
            return false;
        }
        if (distributed != null) {
            DistributedTarget o = other.distributed;
            return o != null && distributed.cluster().equals(o.cluster()) && distributed.database().equals(o.database())
                && distributed.table().equals(o.table()) && distributed.shardingKey().equals(o.shardingKey());
        }
        return replicated && zookeeperPath != null && zookeeperPath.equals(other.zookeeperPath);
    }

    /**
     * Why a retry of {@code sql} (an INSERT into this table) may not be exact although the table keeps a log, or null: a
     * Distributed table whose sharding key would split the retry differently ({@link DistributedTarget#blocker}).
     */
    public String retryBlocker(String sql) {
        return distributed == null ? null : distributed.blocker(InsertColumns.named(sql));
    }

    public String describe() {
        return (database == null ? "" : database + ".") + table;
    }

    /** The window setting of this table's kind of engine. */
    String windowSetting() {
        return replicated ? REPLICATED_WINDOW : NON_REPLICATED_WINDOW;
    }

    /** Whether the server knows the window setting of this table's kind (an unread table: assume it does). */
    boolean serverHasWindowSetting() {
        return serverSettings.isEmpty() || serverSettings.contains(windowSetting());
    }

    private static final Pattern SETTING = Pattern.compile("\\b(" + NON_REPLICATED_WINDOW + "|" + REPLICATED_WINDOW + "|"
        + REPLICATED_WINDOW_SECONDS + ")\\s*=\\s*'?(\\d+)");

    /** The cache of table infos, shared by every connection to the same server. */
    static final class Cache {
        private record Entry(TableInfo info, long expiresAt) {
        }

        private static final Map<String, Entry> ENTRIES = new ConcurrentHashMap<>();

        static TableInfo get(String endpoint, Connection conn, String db, String table, long ttlMillis) {
            String key = endpoint + "|" + db + "|" + table;
            long now = System.currentTimeMillis();
            Entry e = ENTRIES.get(key);
            if (e != null && e.expiresAt > now) {
                return e.info;
            }
            TableInfo info = read(conn, db, table);
            if (info.engine().equals("unknown")) {
                // a read that failed (a lost response, a timeout, a server going down) is not kept: the next insert
                // asks again, and this one goes on what was read before, even if it expired, rather than on nothing
                return e != null ? e.info : info;
            }
            // a table whose columns could not be read (a lost answer) is not kept either: its column types decide how
            // date and time parameters are rendered and whether a batch can go as RowBinary, so the next insert asks again
            if (ttlMillis > 0 && info.serverZone() != null) {
                ENTRIES.put(key, new Entry(info, now + ttlMillis));
            }
            if (info.distributed() != null && (e == null || !info.distributed().equals(e.info.distributed()))) {
                DistributedTarget d = info.distributed();
                String blocker = d.tableBlocker();
                LOG.info("INSERTs into {} (Distributed over cluster {}: {} shard(s), local table {}.{}, sharding key {}): {}", info.describe(),
                    d.cluster(), d.shards(), d.database(), d.table(), d.shardingKey().isBlank() ? "none" : d.shardingKey(), blocker == null
                        ? "an insert of unknown outcome is re-sent as it was (same rows, token and block settings): each shard's log drops"
                        + " the block it already has"
                        : "an insert of unknown outcome is not re-sent, because " + blocker);
            }
            return info;
        }

        static void invalidate(String endpoint, String db, String table) {
            ENTRIES.remove(endpoint + "|" + db + "|" + table);
        }
    }

    static TableInfo read(Connection conn, String db, String table) {
        try {
            String dbExpr = db == null ? "currentDatabase()" : Literals.quote(db);
            Map<String, Long> defaults = new HashMap<>();
            for (String[] r : ServerQuery.rows(conn, "SELECT name, value FROM system.merge_tree_settings WHERE name IN ('"
                + NON_REPLICATED_WINDOW + "', '" + REPLICATED_WINDOW + "', '" + REPLICATED_WINDOW_SECONDS + "')")) {
                defaults.put(r[0], Long.parseLong(r[1].trim()));
            }
            List<String[]> rows = ServerQuery.rows(conn, "SELECT engine, partition_key, create_table_query FROM system.tables"
                + " WHERE database = " + dbExpr + " AND name = " + Literals.quote(table));
            if (rows.isEmpty() || rows.get(0).length < 3) {
                return unknown(db, table);
            }
            String[] row = rows.get(0);
            String engine = row[0];
            boolean partitioned = !row[1].isBlank();
            boolean feedsViews = feedsViews(conn, table);
            Map<String, Long> s = new HashMap<>(defaults);
            Matcher m = SETTING.matcher(row[2]);
            while (m.find()) {
                s.put(m.group(1), Long.parseLong(m.group(2)));
            }
            Set<String> known = Set.copyOf(defaults.keySet());
            Map<String, String> types = new LinkedHashMap<>();
            Map<String, DistributedTarget.Computed> computed = new HashMap<>();
            ZoneId zone = columns(conn, dbExpr, table, types, computed);
            Map<String, String> columnTypes = Collections.unmodifiableMap(types);
            boolean replicated = engine.startsWith("Replicated") || engine.startsWith("Shared");
            if (engine.equals("Distributed")) {
                DistributedTarget d = DistributedTarget.read(conn, row[2], computed);
                // one insert writes a part on each shard it sends rows to: a failure may follow another shard's commit
                return new TableInfo(db, table, engine, d.replicated(), d.window(), d.replicated() ? s.getOrDefault(REPLICATED_WINDOW_SECONDS, 604800L) : 0,
                    partitioned || d.shards() > 1, feedsViews, known, columnTypes, zone, d, null);
            }
            if (!engine.endsWith("MergeTree")) {
                return new TableInfo(db, table, engine, false, 0, 0, partitioned, feedsViews, known, columnTypes, zone, null, null);
            }
            if (replicated) {
                return new TableInfo(db, table, engine, true, s.getOrDefault(REPLICATED_WINDOW, 100L),
                    s.getOrDefault(REPLICATED_WINDOW_SECONDS, 604800L), partitioned, feedsViews, known, columnTypes, zone, null,
                    zookeeperPath(conn, dbExpr, table));
            }
            return new TableInfo(db, table, engine, false, s.getOrDefault(NON_REPLICATED_WINDOW, 0L), 0, partitioned, feedsViews, known,
                columnTypes, zone, null, null);
        } catch (SQLException | RuntimeException e) {
            return unknown(db, table);
        }
    }

    /**
     * Fills {@code types} with the insertable columns of the table and {@code computed} with the columns the server
     * computes (DEFAULT, MATERIALIZED), and returns the server's time zone; a server that cannot answer leaves them
     * unknown (date and time parameters then take their column-free form).
     */
    private static ZoneId columns(Connection conn, String dbExpr, String table, Map<String, String> types,
                                  Map<String, DistributedTarget.Computed> computed) {
        try {
            ZoneId zone = null;
            for (String[] r : ServerQuery.rows(conn, "SELECT name, type, default_kind, timezone(), default_expression FROM system.columns"
                + " WHERE database = " + dbExpr + " AND table = " + Literals.quote(table))) {
                if (r.length < 5) {
                    continue;
                }
                if (!r[2].equals("MATERIALIZED") && !r[2].equals("ALIAS")) {
                    types.put(r[0], r[1]);
                }
                if (r[2].equals("MATERIALIZED") || r[2].equals("DEFAULT")) {
                    computed.put(r[0], new DistributedTarget.Computed(r[2].equals("MATERIALIZED"), r[4]));
                }
                zone = ZoneId.of(r[3]);
            }
            return zone;
        } catch (SQLException | RuntimeException e) {
            types.clear();
            computed.clear();
            return null;
        }
    }

    /** The ZooKeeper path of a replicated table, which names its shared log; null where it cannot be read. */
    private static String zookeeperPath(Connection conn, String dbExpr, String table) {
        try {
            List<String[]> rows = ServerQuery.rows(conn, "SELECT zookeeper_path FROM system.replicas WHERE database = " + dbExpr
                + " AND table = " + Literals.quote(table));
            return rows.isEmpty() || rows.get(0).length == 0 || rows.get(0)[0].isBlank() ? null : rows.get(0)[0];
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }

    /** Whether a materialized view may read from {@code table} (its definition names the table; false positives are safe). */
    private static boolean feedsViews(Connection conn, String table) throws SQLException {
        Pattern name = Pattern.compile("(?<![\\w`\"])`?" + Pattern.quote(table) + "`?(?![\\w`\"])");
        for (String[] r : ServerQuery.rows(conn, "SELECT create_table_query FROM system.tables WHERE engine = 'MaterializedView'")) {
            String select = r[0].replaceFirst("(?is)^.*?\\bAS\\s+SELECT\\b", "");
            if (name.matcher(select).find()) {
                return true;
            }
        }
        return false;
    }
}
