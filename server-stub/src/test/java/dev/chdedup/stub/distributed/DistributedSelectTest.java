package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.oracle.EngineOracle;
import dev.chdedup.stub.server.StubServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SELECT over a Distributed table: shard 1 on servers a and c (the same rows), shard 2 on server b, a Distributed table
 * {@code dist} over them on every server. Each query's answer is the engine's (chDB) over the union of the shards' rows
 * ({@link ShardedTables}): {@link ReadFromRemoteTest#QUERIES} (aggregates, GROUP BY, ORDER BY LIMIT, DISTINCT, a join
 * with a local table, IN, {@code _shard_num}, {@code shardNum()}, count()) asked of a server holding a shard and of one
 * holding none, through a cluster whose first replica of a shard is down, FINAL over ReplacingMergeTree shards (each
 * shard's rows merged on the shard, as the engine does), and a shard with no live replica (ALL_CONNECTION_TRIES_FAILED,
 * or left out under skip_unavailable_shards). Skipped when chDB is not installed.
 */
class DistributedSelectTest {
    private static final String COLUMNS = "(k UInt32, s String, v Int64, n Nullable(Float64), d Date)";
    private static final String REPLACING = "CREATE TABLE %s (k UInt32, v Int64, ver UInt32) ENGINE = ReplacingMergeTree(ver) ORDER BY k";
    private static final List<String> FINAL_QUERIES = List.of(
        "SELECT k, v, ver FROM {T} ORDER BY k, v",
        "SELECT count(), sum(v), max(ver) FROM {T}",
        "SELECT _shard_num, count() FROM {T} GROUP BY _shard_num ORDER BY _shard_num",
        "SELECT k % 3 AS g, sum(v) FROM {T} WHERE ver = 2 GROUP BY g ORDER BY g");

    private static EngineOracle engine;
    private static StubServer a;
    private static StubServer b;
    private static StubServer c;

    @BeforeAll
    static void start() throws Exception {
        try {
            engine = EngineOracle.start();
        } catch (EngineOracle.Unavailable e) {
            Assumptions.abort("chDB is not installed: " + e.getMessage());
        }
        String shard1 = ShardedTables.rows(1039, 45);
        String shard2 = ShardedTables.rows(1040, 35);
        ShardedTables.loadEngine(engine, List.of(shard1, shard2));
        a = StubServer.builder().port(0).build().start();
        b = StubServer.builder().port(0).build().start();
        c = StubServer.builder().port(0).build().start();
        ShardedTables.loadStub(a, shard1);
        ShardedTables.loadStub(b, shard2);
        ShardedTables.loadStub(c, shard1);
        for (int shard = 1; shard <= 2; shard++) {
            for (String sql : replacing("r_s" + shard, shard)) {
                EngineOracle.Answer ans = engine.query(sql, Map.of(), null);
                assertEquals(null, ans.error(), sql);
            }
        }
        for (StubServer s : List.of(a, b, c)) {
            for (String sql : replacing("r", s == b ? 2 : 1)) {
                assertEquals("", ShardedTables.query(s, sql), sql);
            }
            s.clusters().define(Cluster.of("two", false, List.of(List.of(ShardedTables.at(a)), List.of(ShardedTables.at(b)))));
            s.clusters().define(Cluster.of("failover", true, List.of(List.of(ShardedTables.down(), ShardedTables.at(c)),
                List.of(ShardedTables.at(b)))));
            s.clusters().define(Cluster.of("dead", false, List.of(List.of(ShardedTables.at(a)), List.of(ShardedTables.down()))));
            for (String sql : List.of("CREATE TABLE dist " + COLUMNS + " ENGINE = Distributed('two', 'default', 't')",
                "CREATE TABLE dist_failover " + COLUMNS + " ENGINE = Distributed(failover, default, t)",
                "CREATE TABLE dist_dead " + COLUMNS + " ENGINE = Distributed('dead', currentDatabase(), 't')",
                "CREATE TABLE dist_r (k UInt32, v Int64, ver UInt32) ENGINE = Distributed('two', 'default', 'r')")) {
                assertEquals("", ShardedTables.query(s, sql), sql);
            }
        }
    }

    /** Table {@code name} of shard {@code shard}: two inserts, the second replacing some keys of the first (version 2). */
    private static List<String> replacing(String name, int shard) {
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (int k = 0; k < 12; k++) {
            first.append(k == 0 ? "" : ", ").append('(').append(k).append(", ").append(shard * 100 + k).append(", 1)");
        }
        for (int k = shard; k < 12; k += 3) {
            second.append(k == shard ? "" : ", ").append('(').append(k).append(", ").append(-shard * 100 - k).append(", 2)");
        }
        return List.of(String.format(REPLACING, name), "INSERT INTO " + name + " VALUES " + first, "INSERT INTO " + name + " VALUES " + second);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable x : new AutoCloseable[] {a, b, c, engine}) {
            try {
                if (x != null) {
                    x.close();
                }
            } catch (Exception e) {
                // closing the rest
            }
        }
    }

    private static void assertAnswers(StubServer on, String table, List<Integer> shards) throws Exception {
        assertEquals("", String.join("\n", ShardedTables.differences(on, engine, table, shards, ReadFromRemoteTest.QUERIES, Map.of())));
    }

    @Test
    void aDistributedTableAnswersAsTheUnionOfItsShards() throws Exception {
        assertAnswers(a, "dist", List.of(1, 2));
        assertAnswers(c, "dist", List.of(1, 2));
        assertAnswers(b, "default.dist", List.of(1, 2));
    }

    @Test
    void aShardWhoseFirstReplicaIsDownIsReadFromTheNext() throws Exception {
        assertAnswers(a, "dist_failover", List.of(1, 2));
    }

    @Test
    void finalMergesEachShardsRowsOnTheShard() throws Exception {
        assertEquals("", String.join("\n", ShardedTables.differences(a, engine, "dist_r FINAL",
            withShardNum -> ShardedTables.union("r_s", " FINAL", List.of(1, 2), withShardNum), FINAL_QUERIES, Map.of())));
    }

    @Test
    void aWhereRunsOnEachShardOverItsOwnTables() throws Exception {
        String both = ShardedTables.union(List.of(1, 2), false);
        String[][] cases = {
            {"SELECT count() FROM dist WHERE k IN (SELECT k FROM t WHERE s = 'apple')",
                "SELECT count() FROM (SELECT k FROM t_s1 WHERE k IN (SELECT k FROM t_s1 WHERE s = 'apple') UNION ALL"
                    + " SELECT k FROM t_s2 WHERE k IN (SELECT k FROM t_s2 WHERE s = 'apple'))"},
            {"SELECT k, count(), sum(v) FROM dist WHERE k NOT IN (SELECT k FROM default.t WHERE v > 0) AND s != 'date' GROUP BY k ORDER BY k",
                "SELECT k, count(), sum(v) FROM (SELECT * FROM t_s1 WHERE k NOT IN (SELECT k FROM t_s1 WHERE v > 0) AND s != 'date' UNION ALL"
                    + " SELECT * FROM t_s2 WHERE k NOT IN (SELECT k FROM t_s2 WHERE v > 0) AND s != 'date') GROUP BY k ORDER BY k"},
            {"SELECT count() FROM dist WHERE _shard_num = 1 AND k IN (SELECT k FROM t WHERE s = 'banana')",
                "SELECT count() FROM t_s1 WHERE k IN (SELECT k FROM t_s1 WHERE s = 'banana')"},
            {"SELECT count(), sum(v) FROM dist WHERE k GLOBAL IN (SELECT k FROM dist WHERE s = 'apple')",
                "SELECT count(), sum(v) FROM " + both + " WHERE k IN (SELECT k FROM " + both + " WHERE s = 'apple')"},
            {"SELECT k, v FROM dist WHERE k GLOBAL NOT IN (SELECT k FROM dist WHERE v < 50) ORDER BY k, v",
                "SELECT k, v FROM " + both + " WHERE k NOT IN (SELECT k FROM " + both + " WHERE v < 50) ORDER BY k, v"},
        };
        assertEquals("", String.join("\n", differences(cases)));
    }

    @Test
    void aJoinRunsOnEachShardWithItsOwnTables() throws Exception {
        String[][] cases = {
            {"SELECT k, count() FROM dist ALL INNER JOIN (SELECT k FROM t WHERE s = 'apple') USING k GROUP BY k ORDER BY k",
                "SELECT k, count() FROM (SELECT k FROM t_s1 ALL INNER JOIN (SELECT k FROM t_s1 WHERE s = 'apple') AS r USING k UNION ALL"
                    + " SELECT k FROM t_s2 ALL INNER JOIN (SELECT k FROM t_s2 WHERE s = 'apple') AS r USING k) GROUP BY k ORDER BY k"},
            {"SELECT k, sum(v), count() FROM dist INNER JOIN (SELECT k, s AS ls FROM t) AS r USING k WHERE ls = 'banana' GROUP BY k ORDER BY k",
                "SELECT k, sum(v), count() FROM (SELECT k, v FROM t_s1 INNER JOIN (SELECT k, s AS ls FROM t_s1) AS r USING k WHERE ls = 'banana'"
                    + " UNION ALL SELECT k, v FROM t_s2 INNER JOIN (SELECT k, s AS ls FROM t_s2) AS r USING k WHERE ls = 'banana')"
                    + " GROUP BY k ORDER BY k"},
            {"SELECT count() FROM dist INNER JOIN dim USING k",
                "SELECT count() FROM (SELECT k FROM t_s1 INNER JOIN dim USING k UNION ALL SELECT k FROM t_s2 INNER JOIN dim USING k)"},
            {"SELECT k, name, v FROM dist LEFT JOIN dim USING k WHERE v > 20 ORDER BY k, v, name",
                "SELECT k, name, v FROM " + ShardedTables.union(List.of(1, 2), false) + " AS u LEFT JOIN dim USING k WHERE v > 20 ORDER BY k, v, name"},
        };
        assertEquals("", String.join("\n", differences(cases)));
    }

    /** Each {stub query, engine query} pair answered alike: one entry per difference. */
    private static List<String> differences(String[][] cases) throws Exception {
        List<String> wrong = new java.util.ArrayList<>();
        for (String[] c : cases) {
            EngineOracle.Answer e = engine.query(c[1], Map.of(), null);
            String expected = e.ok() ? e.output().strip() : "Code: " + e.errorName();
            String got = ShardedTables.query(a, c[0]);
            if (!got.equals(expected)) {
                wrong.add(c[0] + "\n    engine: " + expected + "\n    stub:   " + got);
            }
        }
        return wrong;
    }

    @Test
    void aSubqueryOverShardsInsideAReadOverShardsIsDenied() throws Exception {
        // distributed_product_mode = 'deny', the default: the engine's DISTRIBUTED_IN_JOIN_SUBQUERY_DENIED
        assertEquals("Code: 288 DISTRIBUTED_IN_JOIN_SUBQUERY_DENIED", ShardedTables.query(a, "SELECT count() FROM dist WHERE k IN (SELECT k FROM dist)"));
        assertEquals("Code: 288 DISTRIBUTED_IN_JOIN_SUBQUERY_DENIED", ShardedTables.query(a,
            "SELECT count() FROM dist WHERE k IN (SELECT k FROM cluster('two', default.t))"));
    }

    @Test
    void aShardWithNoLiveReplicaFailsTheReadUnlessSkipped() throws Exception {
        assertEquals("Code: 279 ALL_CONNECTION_TRIES_FAILED", ShardedTables.query(a, "SELECT count() FROM dist_dead"));
        assertEquals("", String.join("\n", ShardedTables.differences(a, engine, "dist_dead", List.of(1), ReadFromRemoteTest.QUERIES.subList(0, 6),
            Map.of("skip_unavailable_shards", "1"))));
    }
}
