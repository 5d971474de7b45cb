package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ZooKeeper down makes replicated tables read-only (242) until it is back; an expired session is replaced. */
class ZooKeeperTroubleTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();
    StubCluster cluster;

    @BeforeEach
    void createTables() throws Exception {
        cluster = replicas.cluster();
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE t (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}') ORDER BY k");
            Http.query(url(i), "CREATE TABLE plain (k UInt64) ENGINE = MergeTree ORDER BY k");
        }
    }

    String url(int i) {
        return cluster.replica(i).httpUrl();
    }

    @Test
    void zooKeeperDownMakesTheTableReadOnlyUntilItIsBack() throws Exception {
        Http.query(url(1), "INSERT INTO t VALUES (1)");
        cluster.stopZooKeeper();
        ReplicaRecoveryTest.waitFor("r1 to notice", () -> Http.query(url(1), "SELECT is_readonly FROM system.replicas").equals("1\n"));
        HttpResponse<String> r = Http.send(url(1), "INSERT INTO t VALUES (2)", "");
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().contains("Code: 242") && r.body().contains("TABLE_IS_READ_ONLY"), r.body());
        assertEquals("1\n", Http.query(url(1), "SELECT count() FROM t"), "reads still work");
        Http.query(url(1), "INSERT INTO plain VALUES (1)");
        cluster.restartZooKeeper();
        ReplicaRecoveryTest.waitFor("r1 to be writable", () -> Http.send(url(1), "INSERT INTO t VALUES (2)", "").statusCode() == 200);
        Http.query(url(1), "INSERT INTO t VALUES (2)");
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        assertEquals("1\n2\n", Http.query(url(2), "SELECT k FROM t ORDER BY k"), "the retried block landed once");
        assertEquals("0\t2\n", Http.query(url(2), "SELECT is_readonly, active_replicas FROM system.replicas"));
    }

    @Test
    void anExpiredSessionIsReplacedAndTheReplicaIsActiveAgain() throws Exception {
        ZooKeeperClient zk = cluster.replica(2).replication().zookeeper();
        long before = zk.curator().getZookeeperClient().getZooKeeper().getSessionId();
        zk.curator().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
        ReplicaRecoveryTest.waitFor("a new session whose is_active is r2's", () -> {
            try {
                long now = zk.curator().getZookeeperClient().getZooKeeper().getSessionId();
                var st = zk.exists("/clickhouse/tables/01/t/replicas/r2/is_active");
                return now != before && st != null && st.getEphemeralOwner() == now
                    && Http.query(url(2), "SELECT is_readonly FROM system.replicas").equals("0\n");
            } catch (org.apache.zookeeper.KeeperException e) {
                return false; // the old session, until Curator has made the new one
            }
        });
        Http.query(url(1), "INSERT INTO t VALUES (5)");
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        assertEquals("5\n", Http.query(url(2), "SELECT k FROM t"));
        Http.query(url(2), "INSERT INTO t VALUES (6)");
        Http.query(url(1), "SYSTEM SYNC REPLICA t");
        assertEquals("2\n", Http.query(url(1), "SELECT count() FROM t"));
    }
}
