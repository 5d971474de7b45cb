package dev.chdedup.it.real;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongUnaryOperator;

/**
 * A seeded generator of short scenarios on a Distributed table over a cluster of two shards of one server each, for the
 * differential test against a real 18.16 cluster: a local table on each shard (ReplicatedMergeTree on the {@code {shard}}
 * and {@code {replica}} macros, or MergeTree; several ORDER BY and PARTITION BY shapes) and a Distributed table over them
 * on both servers, with a deterministic sharding key (a column, a hash, a modulo, a signed expression) or none; then
 * inserts through the Distributed table on either server, foreground ({@code insert_distributed_sync}) or background (the
 * player waits until the sends are done), split into one-row blocks or not, deduplicated or not; repeats, subsets and
 * supersets of an earlier insert (a subset of the rows one shard took is the case where that shard drops the block it
 * already has); inserts into one shard's local table; reads over the Distributed table (count, sum, avg, GROUP BY, ORDER
 * BY LIMIT, LIMIT BY, DISTINCT, WHERE, IN and JOIN on the local table, GLOBAL IN) and over cluster(); statements 18.16
 * refuses. Every read orders its rows totally, so an answer is a function of the rows alone.
 */
final class DistributedScenarios {
    /** A sharding key, and how a row's key picks its slot when Java can tell (null: a hash the generator does not compute). */
    private record ShardingKey(String sql, LongUnaryOperator slotOfK) {
    }

    private static final List<ShardingKey> KEYS = List.of(
        new ShardingKey("k", k -> k % 2),
        new ShardingKey("k % 3", k -> k % 3 % 2),
        new ShardingKey("toInt64(k) - 3", k -> Long.remainderUnsigned(k - 3, 2)),
        new ShardingKey("cityHash64(k)", null),
        new ShardingKey("intHash64(k)", null),
        new ShardingKey("cityHash64(k, v)", null),
        new ShardingKey("cityHash64(v)", null));

    private static final String[] ORDER_BY = {"k", "(k, v)", "(v, k)", "tuple()"};
    private static final String[] PARTITION_BY = {"", "", "k % 2", "v"};

    /** What a step is, which says how the player treats it. */
    enum Kind {
        /** A CREATE TABLE. */
        CREATE,
        /** An INSERT through the Distributed table with its sends done before the answer. */
        FOREGROUND_INSERT,
        /** An INSERT through the Distributed table sent in the background: the player waits until the sends are done. */
        BACKGROUND_INSERT,
        /** An INSERT into one shard's local table. */
        LOCAL_INSERT,
        /** A SELECT, whose rows are the outcome. */
        READ,
        /** A statement 18.16 refuses (its error code is the outcome). */
        REFUSED
    }

    /** One statement on one server (0: shard 1's, 1: shard 2's), with the settings it sends as URL parameters. */
    record Step(int node, String sql, Map<String, String> settings, Kind kind) {
        @Override
        public String toString() {
            return "@s" + (node + 1) + " " + sql + (settings.isEmpty() ? "" : " " + settings);
        }
    }

    /** A scenario: its Distributed table {@code table} over {@code local} on each shard, and its steps in order. */
    record Scenario(int number, String table, String local, List<Step> steps) {
        /** The same steps on tables named after {@code other} (fresh ones, ZooKeeper paths included, for a replay). */
        Scenario renamed(String other) {
            return new Scenario(number, other, other + "_local", steps.stream()
                .map(st -> new Step(st.node(), st.sql().replace(table, other), st.settings(), st.kind())).toList());
        }

        /** This scenario without step {@code i}. */
        Scenario without(int i) {
            List<Step> fewer = new ArrayList<>(steps);
            fewer.remove(i);
            return new Scenario(number, table, local, fewer);
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("scenario " + number + ":");
            for (Step st : steps) {
                s.append("\n  ").append(st);
            }
            return s.toString();
        }
    }

    /**
     * An insert through the Distributed table as generated: its rows (k, v), for repeats and subsets, and the text that
     * gives them ({@code VALUES ...} or {@code SELECT ... FROM numbers(n)}: the same rows either way).
     */
    private record Insert(List<long[]> rows, String source, boolean foreground, Map<String, String> settings) {
        Insert(List<long[]> rows, boolean foreground, Map<String, String> settings) {
            this(rows, " VALUES " + values(rows), foreground, settings);
        }
    }

    private DistributedScenarios() {
    }

    /** Scenario {@code number} of {@code seed}; {@code prefix} names its tables (two runs of one scenario use two prefixes). */
    static Scenario generate(long seed, int number, String prefix) {
        Random rnd = new Random(seed * 1_000_003L + number);
        String table = prefix + "_" + seed + "_" + number;
        String local = table + "_local";
        List<Step> steps = new ArrayList<>();
        boolean replicated = rnd.nextInt(3) != 0;
        String orderBy = ORDER_BY[rnd.nextInt(ORDER_BY.length)];
        String partitionBy = PARTITION_BY[rnd.nextInt(PARTITION_BY.length)];
        for (int s = 0; s < 2; s++) {
            String engine = replicated ? "ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table + "', '{replica}')" : "MergeTree";
            steps.add(new Step(s, "CREATE TABLE default." + local + " (k UInt64, v String) ENGINE = " + engine
                + (partitionBy.isEmpty() ? "" : " PARTITION BY " + partitionBy) + " ORDER BY " + orderBy, Map.of(), Kind.CREATE));
        }
        ShardingKey key = rnd.nextInt(12) == 0 ? null : KEYS.get(rnd.nextInt(KEYS.size()));
        for (int s = 0; s < 2; s++) {
            steps.add(new Step(s, "CREATE TABLE default." + table + " AS default." + local + " ENGINE = Distributed("
                + DebianClickHouse.CLUSTER + ", default, " + local + (key == null ? "" : ", " + key.sql()) + ")", Map.of(), Kind.CREATE));
        }
        if (rnd.nextInt(10) == 0) {
            String bad = rnd.nextBoolean() ? "v" : "k / 2";
            steps.add(new Step(rnd.nextInt(2), "CREATE TABLE default." + table + "_bad AS default." + local + " ENGINE = Distributed("
                + DebianClickHouse.CLUSTER + ", default, " + local + ", " + bad + ")", Map.of(), Kind.REFUSED));
        }
        List<Insert> inserts = new ArrayList<>();
        int stepCount = 4 + rnd.nextInt(9);
        for (int i = 0; i < stepCount; i++) {
            int what = rnd.nextInt(100);
            if (what < 30 || inserts.isEmpty() && what < 60) {
                List<long[]> rows = new ArrayList<>();
                Insert ins;
                if (rnd.nextInt(6) == 0) {
                    // rows from a query, none among them at times (18.16 reads numbers(0) without end: never that)
                    int n = 1 + rnd.nextInt(6);
                    int m = rnd.nextInt(n + 1);
                    int step = 1 + rnd.nextInt(4);
                    for (int j = 0; j < m; j++) {
                        rows.add(new long[] {j * step % 10, j % 3});
                    }
                    ins = new Insert(rows, " SELECT number * " + step + " % 10, ['a', 'b', 'c'][number % 3 + 1] FROM numbers(" + n
                        + ") WHERE number < " + m, rnd.nextBoolean(), insertSettings(rnd));
                } else {
                    int n = 1 + rnd.nextInt(6);
                    for (int j = 0; j < n; j++) {
                        rows.add(row(rnd));
                    }
                    ins = new Insert(rows, rnd.nextBoolean(), insertSettings(rnd));
                }
                inserts.add(ins);
                steps.add(distributedInsert(table, rnd.nextInt(2), ins));
            } else if (what < 45 && !inserts.isEmpty()) {
                // a repeat: the same rows and settings, on either server, sent either way
                Insert earlier = inserts.get(rnd.nextInt(inserts.size()));
                Insert repeat = new Insert(earlier.rows(), earlier.source(), rnd.nextInt(3) == 0 ? !earlier.foreground() : earlier.foreground(),
                    earlier.settings());
                steps.add(distributedInsert(table, rnd.nextInt(2), repeat));
            } else if (what < 60 && !inserts.isEmpty()) {
                Insert earlier = inserts.get(rnd.nextInt(inserts.size()));
                List<long[]> rows = rnd.nextBoolean() ? subset(rnd, earlier.rows(), key) : superset(rnd, earlier.rows());
                Insert changed = new Insert(rows, rnd.nextBoolean(), rnd.nextBoolean() ? earlier.settings() : insertSettings(rnd));
                inserts.add(changed);
                steps.add(distributedInsert(table, rnd.nextInt(2), changed));
            } else if (what < 72) {
                int shard = rnd.nextInt(2);
                List<long[]> rows;
                List<long[]> earlier = inserts.isEmpty() ? List.of() : inserts.get(rnd.nextInt(inserts.size())).rows();
                if (!earlier.isEmpty() && rnd.nextBoolean()) {
                    // the rows an earlier insert sent this shard, when the generator can tell them, or all of them
                    rows = key == null || key.slotOfK() == null ? earlier
                        : earlier.stream().filter(r -> key.slotOfK().applyAsLong(r[0]) == shard).toList();
                    if (rows.isEmpty()) {
                        rows = earlier;
                    }
                } else {
                    rows = new ArrayList<>();
                    int n = 1 + rnd.nextInt(4);
                    for (int j = 0; j < n; j++) {
                        rows.add(row(rnd));
                    }
                }
                Map<String, String> settings = new LinkedHashMap<>();
                if (rnd.nextInt(4) == 0) {
                    settings.put("insert_deduplicate", "0");
                }
                steps.add(new Step(shard, "INSERT INTO default." + local + " VALUES " + values(rows), settings, Kind.LOCAL_INSERT));
            } else if (what < 97) {
                steps.add(new Step(rnd.nextInt(2), read(rnd, table), Map.of(), Kind.READ));
            } else {
                String refused = switch (rnd.nextInt(3)) {
                    case 0 -> "SELECT _shard_num, count() FROM default." + table + " GROUP BY _shard_num";
                    case 1 -> "SELECT shardNum(), count() FROM default." + table + " GROUP BY shardNum()";
                    default -> "SYSTEM FLUSH DISTRIBUTED default." + table;
                };
                steps.add(new Step(rnd.nextInt(2), refused, Map.of(), Kind.REFUSED));
            }
        }
        steps.add(new Step(rnd.nextInt(2), "SELECT k, v FROM default." + table + " ORDER BY k, v", Map.of(), Kind.READ));
        return new Scenario(number, table, local, steps);
    }

    private static long[] row(Random rnd) {
        return new long[] {rnd.nextInt(10), rnd.nextInt(3)};
    }

    private static Map<String, String> insertSettings(Random rnd) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (rnd.nextInt(5) == 0) {
            settings.put("max_insert_block_size", "1");
            settings.put("min_insert_block_size_rows", "0");
            settings.put("min_insert_block_size_bytes", "0");
        }
        if (rnd.nextInt(5) == 0) {
            settings.put("insert_deduplicate", "0");
        }
        return settings;
    }

    private static Step distributedInsert(String table, int node, Insert ins) {
        Map<String, String> settings = new LinkedHashMap<>(ins.settings());
        if (ins.foreground()) {
            settings.put("insert_distributed_sync", "1");
        }
        return new Step(node, "INSERT INTO default." + table + ins.source(), settings,
            ins.foreground() ? Kind.FOREGROUND_INSERT : Kind.BACKGROUND_INSERT);
    }

    /** Some of {@code rows} in their order: those of one slot when the key tells (one shard's block of them), else a random part. */
    private static List<long[]> subset(Random rnd, List<long[]> rows, ShardingKey key) {
        if (rows.isEmpty()) {
            return List.of(row(rnd));
        }
        if (key != null && key.slotOfK() != null && rnd.nextBoolean()) {
            long slot = rnd.nextInt(2);
            List<long[]> one = rows.stream().filter(r -> key.slotOfK().applyAsLong(r[0]) == slot).toList();
            if (!one.isEmpty()) {
                return one;
            }
        }
        List<long[]> some = new ArrayList<>();
        for (long[] r : rows) {
            if (rnd.nextBoolean()) {
                some.add(r);
            }
        }
        return some.isEmpty() ? List.of(rows.get(0)) : some;
    }

    private static List<long[]> superset(Random rnd, List<long[]> rows) {
        List<long[]> more = new ArrayList<>(rows);
        int n = 1 + rnd.nextInt(3);
        for (int j = 0; j < n; j++) {
            more.add(rnd.nextInt(more.size() + 1), row(rnd));
        }
        return more;
    }

    private static String values(List<long[]> rows) {
        StringBuilder s = new StringBuilder();
        for (long[] r : rows) {
            s.append(s.length() == 0 ? "" : ", ").append('(').append(r[0]).append(", '").append((char) ('a' + r[1])).append("')");
        }
        return s.toString();
    }

    /**
     * A read over the Distributed table whose answer depends on its rows alone: aggregates, ORDER BY, LIMIT (BY), DISTINCT,
     * WHERE; a subquery or join on the local table, which each shard runs over its own rows; GLOBAL ones, which the server
     * asked runs over the whole; the cluster() table function over the local tables; and a subquery over the Distributed
     * table without GLOBAL, which 18.16 refuses (distributed_product_mode = deny).
     */
    private static String read(Random rnd, String table) {
        String t = "default." + table;
        String local = t + "_local";
        char v = (char) ('a' + rnd.nextInt(3));
        return switch (rnd.nextInt(14)) {
            case 0 -> "SELECT count() FROM " + t;
            case 1 -> "SELECT count(), sum(k), avg(k) FROM " + t;
            case 2 -> "SELECT v, count(), sum(k) FROM " + t + " GROUP BY v ORDER BY v";
            case 3 -> "SELECT k, v FROM " + t + " ORDER BY k DESC, v LIMIT " + (1 + rnd.nextInt(4));
            case 4 -> "SELECT DISTINCT k FROM " + t + " ORDER BY k";
            case 5 -> "SELECT k, count() FROM " + t + " WHERE k >= " + rnd.nextInt(10) + " GROUP BY k ORDER BY k";
            case 6 -> "SELECT uniqExact(k), uniqExact(v), max(k), min(v) FROM " + t;
            case 7 -> "SELECT k, v FROM " + t + " ORDER BY k, v LIMIT 1 BY v";
            case 8 -> "SELECT count(), sum(k) FROM cluster(" + DebianClickHouse.CLUSTER + ", default, " + table + "_local)";
            case 9 -> "SELECT count() FROM " + t + " WHERE k IN (SELECT k FROM " + local + " WHERE v = '" + v + "')";
            case 10 -> "SELECT count() FROM " + t + " WHERE k GLOBAL IN (SELECT k FROM " + t + " WHERE v = '" + v + "')";
            case 11 -> "SELECT k, count() FROM " + t + " ALL INNER JOIN (SELECT k FROM " + local + " WHERE v = '" + v + "') USING k GROUP BY k ORDER BY k";
            case 12 -> "SELECT count() FROM " + t + " WHERE k IN (SELECT k FROM " + t + ")";
            default -> "SELECT count() FROM " + t + " WHERE v = '" + v + "'";
        };
    }
}
