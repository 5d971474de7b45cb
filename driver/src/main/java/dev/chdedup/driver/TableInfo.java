package dev.chdedup.driver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the driver knows about an INSERT's table: its engine and its deduplication window (replicated: blocks
 * and seconds; non-replicated: blocks). A table without a log cannot absorb the retry of an insert of unknown
 * outcome. Read from {@code system.tables} and {@code system.merge_tree_settings} on the first insert and cached
 * for {@code dedup.tableInfoTtlMs}.
 */
public record TableInfo(String database, String table, String engine, boolean replicated, long window, long windowSeconds) {
    /** A table whose engine and settings could not be read: treated as keeping no log. */
    static TableInfo unknown(String db, String table) {
        return new TableInfo(db, table, "unknown", false, 0, 0);
    }

    public boolean hasLog() {
        return window > 0;
    }

    public String describe() {
        return (database == null ? "" : database + ".") + table;
    }

    private static final Pattern SETTING = Pattern.compile("\\b(non_replicated_deduplication_window|replicated_deduplication_window|"
        + "replicated_deduplication_window_seconds)\\s*=\\s*'?(\\d+)");

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
            if (ttlMillis > 0) {
                ENTRIES.put(key, new Entry(info, now + ttlMillis));
            }
            return info;
        }

        static void invalidate(String endpoint, String db, String table) {
            ENTRIES.remove(endpoint + "|" + db + "|" + table);
        }
    }

    static TableInfo read(Connection conn, String db, String table) {
        try (Statement st = conn.createStatement()) {
            String dbExpr = db == null ? "currentDatabase()" : Literals.quote(db);
            Map<String, Long> defaults = new HashMap<>();
            try (ResultSet rs = st.executeQuery("SELECT name, value FROM system.merge_tree_settings WHERE name IN "
                + "('non_replicated_deduplication_window', 'replicated_deduplication_window', 'replicated_deduplication_window_seconds')")) {
                while (rs.next()) {
                    defaults.put(rs.getString(1), Long.parseLong(rs.getString(2).trim()));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT engine, create_table_query FROM system.tables WHERE database = " + dbExpr
                + " AND name = " + Literals.quote(table))) {
                if (!rs.next()) {
                    return unknown(db, table);
                }
                String engine = rs.getString(1);
                String create = rs.getString(2);
                Map<String, Long> s = new HashMap<>(defaults);
                Matcher m = SETTING.matcher(create == null ? "" : create);
                while (m.find()) {
                    s.put(m.group(1), Long.parseLong(m.group(2)));
                }
                boolean replicated = engine.startsWith("Replicated") || engine.startsWith("Shared");
                boolean mergeTree = engine.endsWith("MergeTree");
                if (!mergeTree) {
                    return new TableInfo(db, table, engine, false, 0, 0);
                }
                if (replicated) {
                    return new TableInfo(db, table, engine, true, s.getOrDefault("replicated_deduplication_window", 1000L),
                        s.getOrDefault("replicated_deduplication_window_seconds", 604800L));
                }
                return new TableInfo(db, table, engine, false, s.getOrDefault("non_replicated_deduplication_window", 0L), 0);
            }
        } catch (SQLException | RuntimeException e) {
            return unknown(db, table);
        }
    }
}
