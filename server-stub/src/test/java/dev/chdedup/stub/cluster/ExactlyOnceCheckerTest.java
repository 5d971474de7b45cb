package dev.chdedup.stub.cluster;

import static dev.chdedup.stub.cluster.Sql.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The checker counts lost and duplicated rows per replica and sees replicas that have not converged. */
class ExactlyOnceCheckerTest {
    @RegisterExtension
    StubClusterExtension extension = StubClusterExtension.builder().replicas(2).build();
    StubCluster cluster;
    ExactlyOnceChecker checker = new ExactlyOnceChecker("default", "t", "id");

    @BeforeEach
    void createTable() throws Exception {
        cluster = extension.cluster();
        Sql.createTable(cluster);
    }

    private void insert(int replica, long id, int rows, String settings) throws Exception {
        StringBuilder sql = new StringBuilder("INSERT INTO t ").append(settings).append(" VALUES ");
        for (int n = 0; n < rows; n++) {
            sql.append(n == 0 ? "" : ",").append('(').append(id).append(',').append(n).append(')');
        }
        query(cluster, replica, sql.toString());
    }

    @Test
    void everyAcknowledgedBatchOnceOnEveryReplicaIsOk() throws Exception {
        insert(1, 1, 10, "");
        insert(2, 2, 1, "");
        insert(1, 3, 5, "SETTINGS insert_deduplication_token = 'a'");
        insert(2, 3, 5, "SETTINGS insert_deduplication_token = 'b'");
        checker.acknowledged(1, 10).acknowledged(2, 1).acknowledged(3, 5).acknowledged(3, 5).failed(4, 7);
        ExactlyOnceChecker.Result r = checker.check(cluster, Duration.ofSeconds(30));
        assertTrue(r.ok(), r.toString());
        assertEquals(List.of(21L, 21L), r.replicas().stream().map(ExactlyOnceChecker.ReplicaResult::rows).toList());
    }

    @Test
    void lostAndDuplicatedRowsAreCountedOnEachReplica() throws Exception {
        insert(1, 1, 10, "");
        insert(2, 1, 10, "SETTINGS insert_deduplication_token = 'again'");
        insert(1, 2, 3, "");
        insert(1, 9, 2, "");
        checker.acknowledged(1, 10).acknowledged(2, 3).failed(2, 3).acknowledged(5, 4);
        ExactlyOnceChecker.Result r = checker.check(cluster, Duration.ofSeconds(30));
        assertTrue(r.converged(), r.toString());
        for (ExactlyOnceChecker.ReplicaResult rr : r.replicas()) {
            assertEquals(4, rr.lostRows(), rr.toString());
            assertEquals(List.of(5L), rr.lostBatches());
            assertEquals(12, rr.duplicatedRows(), "10 of batch 1 twice, 2 of batch 9 nobody wrote: " + rr);
            assertEquals(List.of(1L, 9L), rr.duplicatedBatches());
        }
        assertFalse(r.ok());
    }

    @Test
    void aReplicaThatCannotFetchIsNotConverged() throws Exception {
        query(cluster, 2, "SYSTEM STOP FETCHES t");
        insert(1, 1, 3, "");
        checker.acknowledged(1, 3);
        // SYNC REPLICA on r2 waits for the fetch: the checker's deadline ends it
        ExactlyOnceChecker.Result r = checker.check(cluster, Duration.ofSeconds(2));
        assertFalse(r.converged(), r.toString());
        assertEquals(3, r.replicas().get(1).lostRows(), r.toString());
        query(cluster, 2, "SYSTEM START FETCHES t");
        assertTrue(checker.check(cluster, Duration.ofSeconds(30)).ok());
    }
}
