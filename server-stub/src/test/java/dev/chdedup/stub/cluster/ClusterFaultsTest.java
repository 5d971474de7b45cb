package dev.chdedup.stub.cluster;

import static dev.chdedup.stub.cluster.Sql.query;
import static dev.chdedup.stub.cluster.Sql.send;
import static dev.chdedup.stub.cluster.Sql.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each operation of the fault handle does its fault for real, is logged, and the cluster recovers from it. */
class ClusterFaultsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String IS_ACTIVE = "/clickhouse/tables/01/t/replicas/r2/is_active";
    @RegisterExtension
    StubClusterExtension extension = StubClusterExtension.builder().replicas(2).sessionTimeout(Duration.ofSeconds(20)).build();
    StubCluster cluster;
    ClusterFaults faults;

    @BeforeEach
    void createTable() throws Exception {
        cluster = extension.cluster();
        faults = extension.faults();
        Sql.createTable(cluster);
    }

    @Test
    void aSessionExpiryIsTheServersAndTheReplicaComesBackOnANewSession() throws Exception {
        var curator = cluster.replica(2).replication().zookeeper().curator();
        List<ConnectionState> states = new CopyOnWriteArrayList<>();
        curator.getConnectionStateListenable().addListener((c, s) -> states.add(s));
        long before = curator.getZookeeperClient().getZooKeeper().getSessionId();
        assertEquals(before, cluster.replica(1).replication().zookeeper().exists(IS_ACTIVE).getEphemeralOwner());
        faults.expireSession(2);
        // the server dropped the session at once: well before the 20 s session timeout, is_active is gone or new
        waitFor("the old session's is_active to go", Duration.ofSeconds(10), () -> {
            Stat st = cluster.replica(1).replication().zookeeper().exists(IS_ACTIVE);
            return st == null || st.getEphemeralOwner() != before;
        });
        waitFor("r2 to see its session lost", WAIT, () -> states.contains(ConnectionState.LOST));
        waitFor("r2 active on a new session", WAIT, () -> {
            Stat st = cluster.replica(1).replication().zookeeper().exists(IS_ACTIVE);
            return st != null && st.getEphemeralOwner() != before && query(cluster, 2, "SELECT is_readonly FROM system.replicas").equals("0\n");
        });
        assertNotEquals(before, curator.getZookeeperClient().getZooKeeper().getSessionId());
        query(cluster, 2, "INSERT INTO t VALUES (1, 1)");
        query(cluster, 1, "SYSTEM SYNC REPLICA t");
        assertEquals("1\n", query(cluster, 1, "SELECT count() FROM t"));
        assertEquals(FaultType.EXPIRE_SESSION, faults.log().get(0).type());
    }

    @Test
    void aKilledReplicaRefusesConnectionsAndCatchesUpAfterRestart() throws Exception {
        faults.killReplica(2);
        assertNull(send(cluster, 2, "SELECT 1"), "a killed replica accepts no connection");
        query(cluster, 1, "INSERT INTO t VALUES (1, 1)");
        waitFor("r2's session to expire", WAIT, () -> query(cluster, 1, "SELECT active_replicas FROM system.replicas").equals("1\n"));
        faults.restartReplica(2);
        query(cluster, 2, "SYSTEM SYNC REPLICA t");
        assertEquals("1\n", query(cluster, 2, "SELECT count() FROM t"));
        assertEquals(1, faults.firedByType().get(FaultType.KILL_REPLICA));
    }

    @Test
    void zooKeeperStoppedMakesInsertsReadOnlyUntilItIsBack() throws Exception {
        faults.stopZooKeeper();
        // an insert already past the read-only check would retry its ZooKeeper requests (insert_keeper_max_retries)
        waitFor("r1 to notice", WAIT, () -> query(cluster, 1, "SELECT is_readonly FROM system.replicas").equals("1\n"));
        java.util.concurrent.atomic.AtomicReference<String> last = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            waitFor("242 on r1", WAIT, () -> {
                long t0 = System.nanoTime();
                HttpResponse<String> r = send(cluster, 1, "INSERT INTO t VALUES (2, 1)");
                last.set((r == null ? "no answer" : r.statusCode() + ": " + r.body()) + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                return r != null && r.statusCode() == 500 && r.body().contains("(TABLE_IS_READ_ONLY)");
            });
        } catch (AssertionError e) {
            // what the insert answered says where it stopped: a hang (no answer) or another error
            throw new AssertionError(e.getMessage() + "; the last insert got " + last.get(), e);
        }
        faults.startZooKeeper();
        waitFor("r1 writable", WAIT, () -> { HttpResponse<String> r = send(cluster, 1, "INSERT INTO t VALUES (2, 1)"); return r != null && r.statusCode() == 200; });
        query(cluster, 2, "SYSTEM SYNC REPLICA t");
        assertEquals("1\n", query(cluster, 2, "SELECT count() FROM t"));
    }

    @Test
    void aFailpointArmedOnOneReplicaHitsOnlyItsInserts() throws Exception {
        faults.arm(1, FaultRule.of(FaultKind.DROP_AFTER_COMMIT).times(1));
        query(cluster, 2, "INSERT INTO t VALUES (3, 1)");
        assertNull(send(cluster, 1, "INSERT INTO t VALUES (3, 2)"), "the acknowledgement is lost");
        query(cluster, 1, "INSERT INTO t VALUES (3, 3)");
        faults.armAll(FaultRule.of(FaultKind.HTTP_503).times(1));
        assertEquals(503, send(cluster, 1, "INSERT INTO t VALUES (3, 4)").statusCode());
        assertEquals(503, send(cluster, 2, "INSERT INTO t VALUES (3, 5)").statusCode());
        query(cluster, 1, "SYSTEM SYNC REPLICA t");
        assertEquals("1\n2\n3\n", query(cluster, 1, "SELECT n FROM t ORDER BY n"), "committed before the lost ack, refused by 503");
        assertEquals(List.of(FaultType.LOST_ACK, FaultType.CUT_REQUEST), faults.log().stream().map(ClusterFaults.Fired::type).toList());
        assertEquals(1, cluster.replica(1).faults().fired(FaultKind.DROP_AFTER_COMMIT));
        assertEquals(0, cluster.replica(2).faults().fired(FaultKind.DROP_AFTER_COMMIT));
    }

    @Test
    void whoIsLeaderNamesTheElectedReplicaAndMovesWhenItIsKilled() throws Exception {
        waitFor("a leader", WAIT, () -> faults.whoIsLeader("default", "t") != 0);
        int leader = faults.whoIsLeader("default", "t");
        assertEquals("1\n", query(cluster, leader, "SELECT is_leader FROM system.replicas"));
        assertEquals("0\n", query(cluster, 3 - leader, "SELECT is_leader FROM system.replicas"));
        faults.killReplica(leader);
        waitFor("the other replica to lead", WAIT, () -> faults.whoIsLeader("default", "t") == 3 - leader);
        faults.healAll();
        assertTrue(cluster.replicas().stream().allMatch(s -> s.state() == dev.chdedup.stub.server.StubServer.State.STARTED));
    }

    @Test
    void keeperFaultProbabilityIsAValueForWritersAndLogged() {
        faults.insertKeeperFaultProbability(0.5);
        assertEquals(0.5, faults.insertKeeperFaultProbability());
        faults.insertKeeperFaultProbability(0);
        assertEquals(1, faults.firedByType().get(FaultType.KEEPER_FAULT_INJECTION), "switching off is not a fault");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> faults.insertKeeperFaultProbability(1.5));
    }
}
