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
 * cluster(), clusterAllReplicas() and remote() over real stub servers: shard 1 on servers a and c (two replicas, the
 * same rows), shard 2 on server b. Every query's answer is the engine's (chDB) over the union of the shards' rows in one
 * table each ({@link ShardedTables}): aggregates, GROUP BY, ORDER BY with LIMIT, DISTINCT, a join with a local table, IN
 * a subquery, {@code _shard_num}, {@code shardNum()} and {@code shardCount()}; read with the local shard read directly,
 * with every shard remote, through address patterns, with the first replica of a shard down, and every replica as a
 * shard. Skipped when chDB is not installed.
 */
class ReadFromRemoteTest {
    static final List<String> QUERIES = List.of(
        "SELECT count() FROM {T}",
        "SELECT sum(v), min(k), max(s), avg(v), sum(n) FROM {T}",
        "SELECT k % 5 AS g, count(), sum(v) FROM {T} GROUP BY g ORDER BY g",
        "SELECT k, s, v FROM {T} ORDER BY v DESC, k, s LIMIT 7",
        "SELECT DISTINCT s FROM {T} ORDER BY s",
        "SELECT * FROM {T} ORDER BY k, s, v, n, d",
        "SELECT t.k, dim.name, t.v FROM {T} AS t INNER JOIN dim ON t.k = dim.k ORDER BY t.k, t.v, dim.name",
        "SELECT _shard_num, count(), sum(v) FROM {T} GROUP BY _shard_num ORDER BY _shard_num",
        "SELECT count() FROM {T} WHERE _shard_num = 2",
        "SELECT shardNum() AS sn, shardCount(), count(), min(k) FROM {T} GROUP BY sn, shardCount() ORDER BY sn",
        "SELECT s, groupArray(k) FROM (SELECT * FROM {T} ORDER BY k, v) GROUP BY s ORDER BY s",
        "SELECT countIf(n IS NULL), uniqExact(d), min(d) FROM {T}",
        "SELECT k FROM {T} WHERE s LIKE 'a%' ORDER BY k, v LIMIT 3 OFFSET 1",
        "SELECT k, v FROM {T} WHERE k IN (SELECT k FROM dim) ORDER BY k, v LIMIT 5");

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
        String shard1 = ShardedTables.rows(39, 40);
        String shard2 = ShardedTables.rows(40, 30);
        ShardedTables.loadEngine(engine, List.of(shard1, shard2));
        a = StubServer.builder().port(0).build().start();
        b = StubServer.builder().port(0).build().start();
        c = StubServer.builder().port(0).build().start();
        ShardedTables.loadStub(a, shard1);
        ShardedTables.loadStub(b, shard2);
        ShardedTables.loadStub(c, shard1);
        for (StubServer s : List.of(a, b, c)) {
            s.clusters().define(Cluster.of("two", false, List.of(List.of(ShardedTables.at(a)), List.of(ShardedTables.at(b)))));
            s.clusters().define(Cluster.of("replicas", true, List.of(List.of(ShardedTables.at(a), ShardedTables.at(c)),
                List.of(ShardedTables.at(b)))));
            s.clusters().define(Cluster.of("failover", true, List.of(List.of(ShardedTables.down(), ShardedTables.at(c)),
                List.of(ShardedTables.at(b)))));
            s.clusters().define(Cluster.of("dead", false, List.of(List.of(ShardedTables.at(a)), List.of(ShardedTables.down()))));
        }
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
        assertEquals("", String.join("\n", ShardedTables.differences(on, engine, table, shards, QUERIES, Map.of())));
    }

    @Test
    void clusterReadsTheLocalShardDirectlyAndTheOtherOverTheNetwork() throws Exception {
        assertAnswers(a, "cluster('two', default.t)", List.of(1, 2));
        assertAnswers(a, "cluster(two, 'default', 't')", List.of(1, 2));
    }

    @Test
    void remoteReadsServersNamedByAddress() throws Exception {
        String pa = "127.0.0.1:" + a.port();
        String pb = "127.0.0.1:" + b.port();
        assertAnswers(c, "remote('" + pa + "," + pb + "', default.t)", List.of(1, 2));
        assertAnswers(c, "remote('127.0.0.1:{" + a.port() + "," + b.port() + "}', default, t, 'default', '')", List.of(1, 2));
        assertAnswers(b, "remote('127.0.0.1:{" + a.port() + "|" + c.port() + "},localhost:9000', 'default', 't')", List.of(1, 2));
    }

    @Test
    void aShardWhoseFirstReplicaIsDownIsReadFromTheNext() throws Exception {
        assertAnswers(a, "cluster('failover', default.t)", List.of(1, 2));
        assertAnswers(a, "remote('127.0.0.1:1|127.0.0.1:" + c.port() + ",127.0.0.1:" + b.port() + "', default.t)", List.of(1, 2));
    }

    @Test
    void clusterAllReplicasReadsEveryReplicaAsAShard() throws Exception {
        assertAnswers(b, "clusterAllReplicas('replicas', default.t)", List.of(1, 1, 2));
    }

    @Test
    void aShardWithNoLiveReplicaFailsTheQueryUnlessSkipped() throws Exception {
        assertEquals("Code: 279 ALL_CONNECTION_TRIES_FAILED", ShardedTables.query(a, "SELECT count() FROM cluster('dead', default.t)"));
        Map<String, String> skip = Map.of("skip_unavailable_shards", "1");
        assertEquals("", String.join("\n", ShardedTables.differences(a, engine, "cluster('dead', default.t)", List.of(1), QUERIES.subList(0, 6), skip)));
    }
}
