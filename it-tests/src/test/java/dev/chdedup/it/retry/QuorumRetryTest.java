package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quorum inserts through the dedup driver on three stub replicas: while the other replicas do not fetch, every
 * attempt ends in UNKNOWN_STATUS_OF_INSERT (319) after insert_quorum_timeout; the driver re-sends the same block with
 * the same token, which the server takes for a duplicate that waits for the first part's quorum; once a replica fetches,
 * the insert succeeds and each replica has exactly one copy.
 */
class QuorumRetryTest {
    @RegisterExtension
    static final StubClusterExtension CLUSTER = StubClusterExtension.builder().replicas(3).build();

    static StubServer replica(int i) {
        return CLUSTER.cluster().replica(i);
    }

    static long scalar(StubServer s, String sql) throws SQLException {
        try (Connection c = RetryFixtures.raw(s); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void a319AfterTheQuorumTimeoutIsRetriedIntoExactlyOneCopy() throws Exception {
        for (int i = 1; i <= 3; i++) {
            RetryFixtures.exec(replica(i), "CREATE TABLE quorum_retry (id UInt64, s String) ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/quorum_retry', '{replica}') ORDER BY id");
        }
        RetryFixtures.exec(replica(2), "SYSTEM STOP FETCHES quorum_retry");
        RetryFixtures.exec(replica(3), "SYSTEM STOP FETCHES quorum_retry");
        // once r1 answered 319 at least once, r2 may fetch: a later attempt (a duplicate that waits) then succeeds
        CompletableFuture<Long> releaser = CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            try {
                long failed;
                do {
                    RetryFixtures.exec(replica(1), "SYSTEM FLUSH LOGS");
                    failed = scalar(replica(1), "SELECT count() FROM system.query_log WHERE type = 'ExceptionWhileProcessing'"
                        + " AND exception_code = 319 AND query LIKE 'INSERT INTO quorum_retry%'");
                    LockSupport.parkNanos(20_000_000);
                } while (failed < 1 && System.nanoTime() < deadline);
                RetryFixtures.exec(replica(2), "SYSTEM START FETCHES quorum_retry");
                return failed;
            } catch (SQLException e) {
                throw new RuntimeException(e);
            }
        });
        String url = RetryFixtures.oursUrl(replica(1), RetryFixtures.FAST_RETRY, "retry.maxAttempts=100", "clickhouse_setting_insert_quorum=2",
            "clickhouse_setting_insert_quorum_timeout=300");
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            // the count is the last attempt's written_rows: 0 when that attempt was the duplicate that waited
            st.executeUpdate("INSERT INTO quorum_retry VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            assertTrue(st.unwrap(dev.chdedup.driver.DedupStatement.class).lastAttempts() >= 2, "retried");
        }
        assertTrue(releaser.get(30, TimeUnit.SECONDS) >= 1, "the first attempt ended in 319");
        RetryFixtures.exec(replica(3), "SYSTEM START FETCHES quorum_retry");
        for (int i = 1; i <= 3; i++) {
            RetryFixtures.exec(replica(i), "SYSTEM SYNC REPLICA quorum_retry");
            assertArrayEquals(new long[] {3, 3}, RetryFixtures.countAndUniq(replica(i), "quorum_retry"), "one copy on r" + i);
        }
        assertEquals(1, scalar(replica(1), "SELECT count() FROM system.parts WHERE table = 'quorum_retry' AND active"), "one part");
    }
}
