package dev.chdedup.driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A Distributed table as the target of an INSERT: its cluster, the local table on each shard, its sharding key, and
 * whether an insert of unknown outcome may be re-sent with the same token. The Distributed engine splits every block it
 * is given by the key, modulo the shards' weights, and each shard's local table deduplicates the block it receives (by
 * the token where the server has one, by its content where it has not). So a retry is exact when it splits the rows
 * exactly as the first attempt did and every shard keeps a log: the key is a function of the columns the INSERT sends
 * (not {@code rand()}, not a column left to a random DEFAULT), and background sends do not batch the files of several
 * inserts into one block. A cluster of one shard takes every row whatever the key. Read once per table info through
 * {@code cluster()}, which reaches one replica of each shard with the cluster's own credentials.
 *
 * @param cluster      the cluster name of the engine's first argument
 * @param database     the local tables' database
 * @param table        the local tables' name
 * @param shardingKey  the key expression as the server prints it, or "" without one
 * @param shards       the number of shards of the cluster (0: the cluster is unknown to the server)
 * @param shardTables  one entry per shard that answered for its local table: host, engine and whether it keeps a log
 * @param computed     the Distributed table's columns the server computes: MATERIALIZED ones always, DEFAULT ones when an
 *                     INSERT leaves them out
 * @param batchSetting the background send batching setting in effect, when it is on ("name = 1"), else null
 */
public record DistributedTarget(String cluster, String database, String table, String shardingKey, int shards,
                                List<ShardTable> shardTables, Map<String, Computed> computed, String batchSetting) {
    /** The local table of a shard, as one of its replicas told: its host name, engine and log. */
    public record ShardTable(String host, String engine, long window) {
    }

    /** A column the server computes, by {@code expression}: always ({@code materialized}) or when an INSERT leaves it out. */
    public record Computed(boolean materialized, String expression) {
    }

    /**
     * Functions whose value differs between two evaluations over the same rows (or between the servers a retry may
     * reach): a key that calls one splits a retry differently. Any function named rand* is one too.
     */
    private static final Set<String> NON_DETERMINISTIC = Set.of("now", "now64", "nowinblock", "nowinblock64", "today", "yesterday",
        "current_timestamp", "current_date", "curdate", "localtimestamp", "localtime", "utc_timestamp", "sysdate", "unix_timestamp",
        "generateuuidv4", "generateuuidv7", "generatesnowflakeid", "generateserialid", "rownumberinallblocks", "rownumberinblock",
        "blocknumber", "blocksize", "runningdifference", "runningdifferencestartingwithfirstvalue", "runningaccumulate", "neighbor",
        "fuzzbits", "queryid", "currentqueryid", "initialqueryid", "hostname", "fqdn", "uptime", "serveruuid", "tcpport", "shardnum",
        "shardcount");
    /** The settings that make background sends merge queued files into one insert: 26.x's name, then 18.16's. */
    static final List<String> BATCH_SETTINGS = List.of("distributed_background_insert_batch", "distributed_directory_monitor_batch_inserts");

    private static final java.util.regex.Pattern ENGINE = java.util.regex.Pattern.compile("(?i)\\bENGINE\\s*=\\s*Distributed\\s*\\(");

    /** Parses the engine arguments of {@code createQuery} ({@code ENGINE = Distributed(cluster, db, table[, key[, policy]])}). */
    static String[] engineArguments(String createQuery) {
        java.util.regex.Matcher m = ENGINE.matcher(createQuery);
        if (!m.find()) {
            return null;
        }
        int open = m.end() - 1;
        List<String> args = new ArrayList<>();
        int depth = 0;
        int start = open + 1;
        for (int i = open; i < createQuery.length(); i++) {
            char c = createQuery.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = SqlText.skipQuoted(createQuery, i) - 1;
            } else if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                if (--depth == 0) {
                    args.add(createQuery.substring(start, i).strip());
                    return args.toArray(new String[0]);
                }
            } else if (c == ',' && depth == 1) {
                args.add(createQuery.substring(start, i).strip());
                start = i + 1;
            }
        }
        return null;
    }

    /** An engine argument as a name: a quoted string or identifier unquoted, a bare identifier as it is. */
    static String name(String arg) {
        String s = arg.strip();
        if (s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '`' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
            return ServerQuery.unescape(s.substring(1, s.length() - 1));
        }
        return s;
    }

    /**
     * Reads the target behind a Distributed table whose CREATE query is {@code createQuery}; {@code computed} are its
     * server-computed columns. A shard that cannot be asked leaves the target with fewer shard tables than shards, which
     * {@link #tableBlocker()} reports.
     */
    static DistributedTarget read(Connection conn, String createQuery, Map<String, Computed> computed) throws SQLException {
        String[] args = engineArguments(createQuery);
        if (args == null || args.length < 3) {
            throw new SQLException("cannot read the Distributed engine's arguments of: " + createQuery, "HY000");
        }
        String cluster = name(args[0]);
        String db = name(args[1]);
        String table = name(args[2]);
        String key = args.length > 3 ? args[3] : "";
        int shards = 0;
        for (String[] r : ServerQuery.rows(conn, "SELECT uniqExact(shard_num) FROM system.clusters WHERE cluster = " + Literals.quote(cluster))) {
            shards = Integer.parseInt(r[0].strip());
        }
        List<ShardTable> tables = new ArrayList<>();
        if (shards > 0) {
            String where = " WHERE database = " + Literals.quote(db) + " AND name = " + Literals.quote(table);
            for (String[] r : ServerQuery.rows(conn, "SELECT hostName(), engine, create_table_query FROM cluster(" + Literals.quote(cluster)
                + ", system.tables)" + where)) {
                tables.add(new ShardTable(r[0], r[1], localWindow(conn, cluster, r[1], r[2])));
            }
        }
        return new DistributedTarget(cluster, db, table, key, shards, List.copyOf(tables), Map.copyOf(computed), batchSetting(conn));
    }

    /** The deduplication window of a shard's local table: its own setting, else the shard servers' smallest default. */
    private static long localWindow(Connection conn, String cluster, String engine, String createQuery) throws SQLException {
        if (!engine.endsWith("MergeTree")) {
            return 0;
        }
        String setting = engine.startsWith("Replicated") || engine.startsWith("Shared") ? TableInfo.REPLICATED_WINDOW : TableInfo.NON_REPLICATED_WINDOW;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b" + setting + "\\s*=\\s*'?(\\d+)").matcher(createQuery);
        if (m.find()) {
            return Long.parseLong(m.group(1));
        }
        long window = -1;
        for (String[] r : ServerQuery.rows(conn, "SELECT value FROM cluster(" + Literals.quote(cluster) + ", system.merge_tree_settings)"
            + " WHERE name = " + Literals.quote(setting))) {
            long v = Long.parseLong(r[0].strip());
            window = window < 0 ? v : Math.min(window, v);
        }
        return Math.max(window, 0);
    }

    /** The batching setting of background sends when it is on ({@code "name = 1"}), else null. */
    private static String batchSetting(Connection conn) throws SQLException {
        StringBuilder names = new StringBuilder();
        for (String n : BATCH_SETTINGS) {
            names.append(names.length() == 0 ? "" : ", ").append(Literals.quote(n));
        }
        for (String[] r : ServerQuery.rows(conn, "SELECT name, value FROM system.settings WHERE name IN (" + names + ")")) {
            if (!r[1].strip().equals("0")) {
                return r[0] + " = " + r[1].strip();
            }
        }
        return null;
    }

    /** The smallest window among the shards' local tables (0 when one keeps none or a shard did not answer). */
    long window() {
        if (shards == 0 || shardTables.size() < shards) {
            return 0;
        }
        long w = Long.MAX_VALUE;
        for (ShardTable t : shardTables) {
            w = Math.min(w, t.window());
        }
        return w == Long.MAX_VALUE ? 0 : w;
    }

    /** Whether every shard's local table is replicated (their windows are then counted in seconds too). */
    boolean replicated() {
        return !shardTables.isEmpty() && shardTables.stream().allMatch(t -> t.engine().startsWith("Replicated") || t.engine().startsWith("Shared"));
    }

    /**
     * Why a retry into this table may not be exact whatever the INSERT sends, or null: a shard without a log, a key that
     * is not deterministic, background sends that batch.
     */
    String tableBlocker() {
        String where = "Distributed table over cluster " + cluster;
        if (shards == 0) {
            return "the " + where + " is not one the server knows (system.clusters has no such cluster)";
        }
        if (shardTables.size() < shards) {
            return shardTables.size() + " of the " + shards + " shards of cluster " + cluster + " have the local table " + database + "." + table;
        }
        for (ShardTable t : shardTables) {
            if (t.window() <= 0) {
                return "the local table " + database + "." + table + " on shard host " + t.host() + " keeps no deduplication log (engine "
                    + t.engine() + ")";
            }
        }
        if (shards == 1) {
            return null;
        }
        if (shardingKey.isBlank()) {
            return "the " + where + " has no sharding key";
        }
        String f = nonDeterministicFunction(shardingKey);
        if (f != null) {
            return "the sharding key " + shardingKey + " of the " + where + " is not deterministic (" + f + "): a retry would send the"
                + " rows to other shards than the first attempt did";
        }
        for (String c : columns(shardingKey)) {
            Computed d = computed.get(c);
            if (d != null && d.materialized() && nonDeterministicFunction(d.expression()) != null) {
                return "the sharding key " + shardingKey + " of the " + where + " reads column " + c + ", MATERIALIZED " + d.expression()
                    + ", which is not deterministic: a retry would send the rows to other shards than the first attempt did";
            }
        }
        if (batchSetting != null) {
            return "background sends of the " + where + " batch queued files into one insert (" + batchSetting + "), so a retry's"
                + " blocks are not the first attempt's";
        }
        return null;
    }

    /**
     * Why a retry of an INSERT that sends {@code insertColumns} (null: every insertable column) may not be exact, or null:
     * {@link #tableBlocker()}, or a key column the INSERT leaves to a DEFAULT that is not deterministic.
     */
    String blocker(List<String> insertColumns) {
        String t = tableBlocker();
        if (t != null || shards == 1) {
            return t;
        }
        for (String c : columns(shardingKey)) {
            Computed d = computed.get(c);
            if (d == null || d.materialized() || insertColumns == null || insertColumns.contains(c)) {
                continue;
            }
            if (nonDeterministicFunction(d.expression()) != null) {
                return "the sharding key " + shardingKey + " of the Distributed table over cluster " + cluster + " reads column " + c
                    + ", which this INSERT leaves to its DEFAULT " + d.expression() + ", which is not deterministic: a retry would send"
                    + " the rows to other shards than the first attempt did";
            }
        }
        return null;
    }

    /** What the user can do about {@code blocker}. */
    String remedy() {
        return "Use a deterministic sharding key such as cityHash64(<a key column>), send every column the key reads, or insert into"
            + " the shards' local tables " + database + "." + table;
    }

    /** The first function in {@code expr} whose value is not a function of its arguments, or null. */
    static String nonDeterministicFunction(String expr) {
        for (String f : identifiers(expr, true)) {
            String l = f.toLowerCase(Locale.ROOT);
            if (l.startsWith("rand") || NON_DETERMINISTIC.contains(l)) {
                return f + "()";
            }
        }
        return null;
    }

    /** The column names {@code expr} reads (identifiers not called as functions). */
    static Set<String> columns(String expr) {
        return identifiers(expr, false);
    }

    /** The identifiers of {@code expr} called as functions ({@code functions}) or not; strings and numbers skipped. */
    private static Set<String> identifiers(String expr, boolean functions) {
        Set<String> out = new LinkedHashSet<>();
        int n = expr.length();
        int i = 0;
        while (i < n) {
            char c = expr.charAt(i);
            if (c == '\'') {
                i = SqlText.skipQuoted(expr, i);
            } else if (c == '`' || c == '"') {
                int e = SqlText.skipQuoted(expr, i);
                if (!functions) {
                    out.add(expr.substring(i + 1, Math.max(i + 1, e - 1)));
                }
                i = e;
            } else if (Character.isLetter(c) || c == '_') {
                int e = i;
                while (e < n && SqlText.isIdent(expr.charAt(e))) {
                    e++;
                }
                String id = expr.substring(i, e);
                int k = e;
                while (k < n && Character.isWhitespace(expr.charAt(k))) {
                    k++;
                }
                boolean call = k < n && expr.charAt(k) == '(';
                boolean member = i > 0 && expr.charAt(i - 1) == '.';
                if (call == functions && !member) {
                    out.add(id);
                }
                i = e;
            } else if (Character.isDigit(c)) {
                while (i < n && (SqlText.isIdent(expr.charAt(i)) || expr.charAt(i) == '.')) {
                    i++;
                }
            } else {
                i++;
            }
        }
        return out;
    }
}
