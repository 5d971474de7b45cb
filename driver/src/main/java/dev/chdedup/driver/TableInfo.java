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
                        ZoneId serverZone) {
    static final String NON_REPLICATED_WINDOW = "non_replicated_deduplication_window";
    static final String REPLICATED_WINDOW = "replicated_deduplication_window";
    static final String REPLICATED_WINDOW_SECONDS = "replicated_deduplication_window_seconds";

    /** A table whose engine and settings could not be read: treated as keeping no log, and as several parts per insert. */
    static TableInfo unknown(String db, String table) {
        return new TableInfo(db, table, "unknown", false, 0, 0, true, true, Set.of(), Map.of(), null);
    }

    public boolean hasLog() {
        return window > 0;
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
            ZoneId zone = columns(conn, dbExpr, table, types);
            boolean replicated = engine.startsWith("Replicated") || engine.startsWith("Shared");
            if (!engine.endsWith("MergeTree")) {
                return new TableInfo(db, table, engine, false, 0, 0, partitioned, feedsViews, known, Collections.unmodifiableMap(types), zone);
            }
            if (replicated) {
                return new TableInfo(db, table, engine, true, s.getOrDefault(REPLICATED_WINDOW, 100L),
                    s.getOrDefault(REPLICATED_WINDOW_SECONDS, 604800L), partitioned, feedsViews, known, Collections.unmodifiableMap(types), zone);
            }
            return new TableInfo(db, table, engine, false, s.getOrDefault(NON_REPLICATED_WINDOW, 0L), 0, partitioned, feedsViews, known, Collections.unmodifiableMap(types), zone);
        } catch (SQLException | RuntimeException e) {
            return unknown(db, table);
        }
    }

    /**
     * Fills {@code types} with the insertable columns of the table and returns the server's time zone; a server that
     * cannot answer leaves both unknown (date and time parameters then take their column-free form).
     */
    private static ZoneId columns(Connection conn, String dbExpr, String table, Map<String, String> types) {
        try {
            ZoneId zone = null;
            for (String[] r : ServerQuery.rows(conn, "SELECT name, type, default_kind, timezone() FROM system.columns WHERE database = "
                + dbExpr + " AND table = " + Literals.quote(table))) {
                if (r.length < 4) {
                    continue;
                }
                if (!r[2].equals("MATERIALIZED") && !r[2].equals("ALIAS")) {
                    types.put(r[0], r[1]);
                }
                zone = ZoneId.of(r[3]);
            }
            return zone;
        } catch (SQLException | RuntimeException e) {
            types.clear();
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
