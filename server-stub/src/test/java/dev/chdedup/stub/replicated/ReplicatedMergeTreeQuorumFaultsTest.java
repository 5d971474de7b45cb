package dev.chdedup.stub.replicated;

import static dev.chdedup.stub.replicated.ReplicaRecoveryTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quorum inserts when replicas die: a killed replica stops counting as alive once its session expired (285), a
 * restarted one completes a quorum it was missing, and the writer losing its is_active or its session while waiting
 * answers 319 with ClickHouse's reason, leaving the part to reach its quorum later. A fresh cluster per test.
 */
class ReplicatedMergeTreeQuorumFaultsTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).sessionTimeout(Duration.ofSeconds(2)).build();
    StubCluster cluster;

    @BeforeEach
    void createTables() throws Exception {
        cluster = replicas.cluster();
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "CREATE TABLE t (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}') ORDER BY k");
        }
    }

    String url(int i) {
        return cluster.replica(i).httpUrl();
    }

    static String body(HttpResponse<String> r) {
        return r.body().replaceAll(" \\(version [^)]*\\)\n$", "");
    }

    boolean quorumNodeGone(String part) throws Exception {
        return Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/t/quorum/parallel' AND name = '"
            + part + "'").equals("0\n");
    }

    /** Stops fetches on r2 and r3, starts a quorum insert on r1 and returns it once its quorum node exists. */
    CompletableFuture<HttpResponse<String>> insertWaitingForQuorum() throws Exception {
        Http.query(url(2), "SYSTEM STOP FETCHES t");
        Http.query(url(3), "SYSTEM STOP FETCHES t");
        CompletableFuture<HttpResponse<String>> insert = CompletableFuture.supplyAsync(() -> {
            try {
                return Http.send(url(1), "INSERT INTO t VALUES (1)", "insert_quorum=2&insert_quorum_timeout=30000");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        waitFor("the quorum node", () -> !quorumNodeGone("all_0_0_0"));
        return insert;
    }

    @Test
    void aKilledReplicaIsNotAliveOnceItsSessionExpiredAndCompletesTheQuorumAfterRestart() throws Exception {
        Http.query(url(2), "SYSTEM STOP FETCHES t");
        cluster.kill(3);
        waitFor("r3's session to expire", () -> Http.query(url(1), "SELECT active_replicas FROM system.replicas").equals("2\n"));
        assertEquals("Code: 285. DB::Exception: Number of alive replicas (2) is less than requested quorum (3). (TOO_FEW_LIVE_REPLICAS)",
            body(Http.send(url(1), "INSERT INTO t VALUES (1)", "insert_quorum=3")));
        HttpResponse<String> r = Http.send(url(1), "INSERT INTO t VALUES (2)", "insert_quorum=2&insert_quorum_timeout=200");
        assertTrue(body(r).startsWith("Code: 319.") && body(r).contains("Code: 159."), body(r));
        cluster.restart(3);
        waitFor("restarted r3 to complete the quorum", () -> quorumNodeGone("all_0_0_0"));
        assertEquals("2\n", Http.query(url(3), "SELECT k FROM t"));
        assertEquals("2\n", Http.query(url(1), "SELECT k FROM t"), "r1 kept the part it could not confirm, once");
        Http.query(url(2), "SYSTEM START FETCHES t");
        Http.query(url(2), "SYSTEM SYNC REPLICA t");
        assertEquals("2\n", Http.query(url(2), "SELECT k FROM t"));
    }

    @Test
    void theWriterLosingIsActiveWhileWaitingIsUnknownStatusWrappingNoActiveReplicas() throws Exception {
        CompletableFuture<HttpResponse<String>> insert = insertWaitingForQuorum();
        // another client removes r1's is_active, as when the node was taken away from a replica
        cluster.replica(2).replication().zookeeper().delete("/clickhouse/tables/01/t/replicas/r1/is_active");
        HttpResponse<String> r = insert.get(30, TimeUnit.SECONDS);
        assertEquals("Code: 319. DB::Exception: Unknown status, client must retry. Reason: Code: 254. DB::Exception: Replica become inactive while"
            + " waiting for quorum. (NO_ACTIVE_REPLICAS). (UNKNOWN_STATUS_OF_INSERT)", body(r));
        cluster.kill(1); // a restart activates r1 again (its part stays on disk and in ZooKeeper)
        cluster.restart(1);
        Http.query(url(2), "SYSTEM START FETCHES t");
        waitFor("the quorum to be reached later", () -> quorumNodeGone("all_0_0_0"));
        assertEquals("1\n", Http.query(url(2), "SELECT count() FROM t"));
    }

    @Test
    void theWriterLosingItsSessionWhileWaitingIsUnknownStatusAndItsRetryIsADuplicate() throws Exception {
        CompletableFuture<HttpResponse<String>> insert = insertWaitingForQuorum();
        cluster.replica(1).replication().zookeeper().curator().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
        HttpResponse<String> r = insert.get(30, TimeUnit.SECONDS);
        assertTrue(body(r).startsWith("Code: 319. DB::Exception: Unknown status, client must retry. Reason: Code: 999.")
            && body(r).contains("Session expired"), body(r));
        waitFor("r1 to be writable again", () -> Http.query(url(1), "SELECT is_readonly, active_replicas FROM system.replicas").equals("0\t3\n"));
        Http.query(url(3), "SYSTEM START FETCHES t");
        HttpResponse<String> retry = Http.send(url(1), "INSERT INTO t VALUES (1)", "insert_quorum=2&insert_quorum_timeout=30000");
        assertEquals(200, retry.statusCode(), retry.body());
        for (int i = 1; i <= 3; i += 2) {
            assertEquals("1\n", Http.query(url(i), "SELECT count() FROM t"), "one copy on r" + i);
        }
    }
}
