package dev.chdedup.stub.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.distributed.Cluster;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A StubCluster of two shards of two replicas: macros {shard} 01/02 and {replica} r1/r2, data in DIR/s01/r1 and so on,
 * every server knowing the whole cluster (its clusters() and system.clusters, found through the servers' ZooKeeper
 * registrations), and one CREATE ... ON CLUSTER reaching all four servers with each shard's replicas sharing a path.
 * The expected topology is the one the builder was asked for, with the ports the servers bound.
 */
class StubClusterShardsTest {
    @TempDir
    static Path dir;
    static StubCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = StubCluster.builder().shards(2).replicas(2).cluster("sharded").dataDir(dir).build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    /** The servers of shard s as addresses, in replica order. */
    private static List<List<Integer>> ports() {
        List<List<Integer>> out = new ArrayList<>();
        for (int s = 1; s <= 2; s++) {
            out.add(List.of(cluster.replica(s, 1).port(), cluster.replica(s, 2).port()));
        }
        return out;
    }

    @Test
    void serversAreNumberedShardByShardWithTheirOwnMacrosAndDirectories() throws Exception {
        assertEquals(4, cluster.size());
        assertEquals(2, cluster.shards());
        assertEquals(cluster.replica(3), cluster.replica(2, 1));
        assertEquals(List.of(cluster.replica(2, 1), cluster.replica(2, 2)), cluster.shard(2));
        assertThrows(IndexOutOfBoundsException.class, () -> cluster.replica(3, 1));
        for (int s = 1; s <= 2; s++) {
            for (int r = 1; r <= 2; r++) {
                StubServer server = cluster.replica(s, r);
                assertEquals(dir.resolve(String.format("s%02d", s)).resolve("r" + r), server.dataDir());
                assertEquals(String.format("%02d", s), server.replication().macros().get("shard"));
                assertEquals("r" + r, server.replication().macros().get("replica"));
                assertEquals(String.format("cluster\tsharded\nreplica\tr%d\nshard\t%02d\n", r, s), Sql.query(cluster, (s - 1) * 2 + r,
                    "SELECT * FROM system.macros"));
            }
        }
        assertTrue(Files.isDirectory(dir.resolve("s02").resolve("r2")));
    }

    @Test
    void everyServerKnowsTheWholeClusterWithItsPorts() throws Exception {
        for (StubServer server : cluster.replicas()) {
            Cluster c = server.clusters().get("sharded");
            assertEquals(2, c.shards().size(), server.httpUrl());
            List<List<Integer>> seen = new ArrayList<>();
            for (Cluster.ShardInfo shard : c.shards()) {
                assertEquals(1, shard.weight());
                assertTrue(shard.internalReplication());
                seen.add(shard.replicas().stream().map(Cluster.Address::port).toList());
                for (Cluster.Address a : shard.replicas()) {
                    assertEquals("127.0.0.1", a.host());
                    assertEquals(shard.shardNum(), a.shardIndex());
                }
            }
            assertEquals(ports(), seen, server.httpUrl());
            assertEquals(List.of(c.addresses().stream().filter(server.clusters()::isLocal).findFirst().orElseThrow().port()),
                List.of(server.port()));
        }
    }

    @Test
    void systemClustersListsEveryReplicaAndMarksTheServerItself() throws Exception {
        StringBuilder expected = new StringBuilder();
        for (int s = 1; s <= 2; s++) {
            for (int r = 1; r <= 2; r++) {
                expected.append("sharded\t").append(s).append("\t\t1\t1\t").append(r).append("\t127.0.0.1\t127.0.0.1\t")
                    .append(cluster.replica(s, r).port()).append('\t').append(s == 2 && r == 1 ? 1 : 0).append("\tdefault\t\t0\n");
            }
        }
        assertEquals(expected.toString(), Sql.query(cluster, 3, "SELECT cluster, shard_num, shard_name, shard_weight, internal_replication,"
            + " replica_num, host_name, host_address, port, is_local, user, default_database, errors_count FROM system.clusters"
            + " WHERE cluster = 'sharded' ORDER BY shard_num, replica_num"));
        assertEquals("sharded\n", Sql.query(cluster, 1, "SELECT DISTINCT name FROM system.clusters"));
    }

    @Test
    void onClusterCreateReachesEveryShardAndReplicaWithItsOwnMacros() throws Exception {
        String answer = Sql.query(cluster, 2, "CREATE TABLE oc ON CLUSTER sharded (k UInt64) ENGINE = ReplicatedMergeTree("
            + "'/clickhouse/tables/{shard}/{database}/{table}', '{replica}') ORDER BY k");
        assertEquals(4, answer.split("\n").length, answer);
        for (int i = 1; i <= 4; i++) {
            int shard = (i + 1) / 2;
            assertEquals(String.format("/clickhouse/tables/%02d/default/oc\t2\n", shard), Sql.query(cluster, i,
                "SELECT zookeeper_path, total_replicas FROM system.replicas WHERE table = 'oc'"), "server " + i);
        }
        Sql.query(cluster, 1, "INSERT INTO oc VALUES (1), (2)");
        Sql.query(cluster, 4, "INSERT INTO oc VALUES (3)");
        Sql.query(cluster, 2, "SYSTEM SYNC REPLICA oc");
        Sql.query(cluster, 3, "SYSTEM SYNC REPLICA oc");
        assertEquals("1\n2\n", Sql.query(cluster, 2, "SELECT k FROM oc ORDER BY k"));
        assertEquals("3\n", Sql.query(cluster, 3, "SELECT k FROM oc ORDER BY k"));
        // an ALTER ON CLUSTER runs once per shard (one replica of each replicates it) and reaches all four
        Sql.query(cluster, 1, "ALTER TABLE oc ON CLUSTER sharded ADD COLUMN v UInt8 DEFAULT 7");
        for (int i = 1; i <= 4; i++) {
            int server = i;
            Sql.waitFor("the column on server " + i, Duration.ofSeconds(30),
                () -> Sql.query(cluster, server, "SELECT count() FROM system.columns WHERE table = 'oc' AND name = 'v'").equals("1\n"));
        }
        Sql.query(cluster, 4, "DROP TABLE oc ON CLUSTER sharded SYNC");
        for (int i = 1; i <= 4; i++) {
            assertEquals("0\n", Sql.query(cluster, i, "EXISTS TABLE oc"));
        }
    }
}
