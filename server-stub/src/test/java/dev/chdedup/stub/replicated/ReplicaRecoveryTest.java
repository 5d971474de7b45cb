package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.junit.StubClusterExtension;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Replicas killed abruptly (their sessions left to expire) and restarted on their data directories catch up. */
class ReplicaRecoveryTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();
    StubCluster cluster;

    @BeforeEach
    void createTables() throws Exception {
        cluster = replicas.cluster();
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE t (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}') ORDER BY k");
        }
    }

    String url(int i) {
        return cluster.replica(i).httpUrl();
    }

    /** Waits for {@code condition}: up to 60 s, as a busy machine may take a ZooKeeper session timeout and more. */
    static void waitFor(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!condition.call()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
        }
    }

    @Test
    void aKilledReplicaLeavesItsSessionToExpireAndCatchesUpAfterRestart() throws Exception {
        Http.query(url(1), "INSERT INTO t VALUES (1)");
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        String isActive = "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/t/replicas/r2' AND name = 'is_active'";
        assertEquals("1\n", Http.query(url(1), isActive));
        long t0 = System.nanoTime();
        cluster.kill(2);
        long killMs = (System.nanoTime() - t0) / 1_000_000;
        // abrupt: nothing told ZooKeeper, so the ephemeral node outlives the process until the session expires
        assertEquals("1\n", Http.query(url(1), isActive), "kill took " + killMs + " ms");
        waitFor("r2's session to expire", () -> Http.query(url(1), isActive).equals("0\n"));
        assertEquals("2\t1\n", Http.query(url(1), "SELECT total_replicas, active_replicas FROM system.replicas WHERE table = 't'"));
        for (int k = 2; k <= 4; k++) {
            Http.query(url(1), "INSERT INTO t VALUES (" + k + ")");
        }
        cluster.restart(2);
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        assertEquals("1\n2\n3\n4\n", Http.query(url(2), "SELECT k FROM t ORDER BY k"));
        // the part it had before the kill came back from its data directory, not from a fetch
        assertEquals("all_0_0_0\nall_1_1_0\nall_2_2_0\nall_3_3_0\n", Http.query(url(2), "SELECT name FROM system.parts WHERE table = 't' ORDER BY name"));
        Http.query(url(2), "INSERT INTO t VALUES (1)");
        Http.query(url(1), "SYSTEM SYNC REPLICA t");
        assertEquals("4\n", Http.query(url(1), "SELECT count() FROM t"), "a block inserted before the kill is still a duplicate");
    }

    @Test
    void aReplicaRestartedAtOnceReplacesItsOwnStaleActiveNode() throws Exception {
        Http.query(url(1), "INSERT INTO t VALUES (1)");
        cluster.kill(1);
        long t0 = System.nanoTime();
        cluster.restart(1);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 4_000, "restart waited for the old session (" + ms + " ms): the stale is_active was not recognised as its own");
        Http.query(url(1), "INSERT INTO t VALUES (2)");
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        assertEquals("2\n", Http.query(url(2), "SELECT count() FROM t"));
        assertEquals("2\t2\n", Http.query(url(2), "SELECT total_replicas, active_replicas FROM system.replicas WHERE table = 't'"));
    }

    @Test
    void aPartOnlyADownReplicaHasIsFetchedOnceItIsBack() throws Exception {
        Http.query(url(1), "SYSTEM STOP FETCHES t");
        Http.query(url(2), "SYSTEM STOP FETCHES t");
        Http.query(url(1), "INSERT INTO t VALUES (7)");
        cluster.kill(1);
        Http.query(url(2), "SYSTEM START FETCHES t");
        waitFor("r2 to record why it cannot fetch", () -> !Http.query(url(2),
            "SELECT postpone_reason FROM system.replication_queue WHERE table = 't' AND type = 'GET_PART'").isBlank());
        assertNotEquals("1\n", Http.query(url(2), "SELECT count() FROM t"));
        cluster.restart(1);
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        assertEquals("7\n", Http.query(url(2), "SELECT k FROM t"));
        assertEquals("0\n", Http.query(url(2), "SELECT count() FROM system.replication_queue"));
    }
}
