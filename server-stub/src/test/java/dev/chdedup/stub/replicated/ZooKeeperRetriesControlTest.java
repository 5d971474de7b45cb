package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The insert path retrying its own ZooKeeper requests (insert_keeper_max_retries and backoffs) under injected faults
 * (insert_keeper_fault_injection_probability): with enough retries every insert succeeds at its first attempt, and
 * with few retries a client's retries meet 244 or 319 as before; in both, each block lands exactly once on every
 * replica, quorum inserts included, and no block number stays locked.
 */
class ZooKeeperRetriesControlTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    static void create(String table) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table
                + "', '{replica}') ORDER BY k");
        }
    }

    static void assertOncePerReplica(String table, int rows) throws Exception {
        long sum = (long) rows * (rows - 1) / 2;
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "SYSTEM SYNC REPLICA " + table);
            assertEquals(rows + "\t" + rows + "\t" + sum + "\n", Http.query(url(i), "SELECT count(), uniqExact(k), sum(k) FROM " + table), "r" + i);
        }
        assertEquals("0\n", Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/" + table
            + "/block_numbers/all'"), "no block number is left locked");
    }

    @Test
    void theBackoffDoublesUpToItsMaximumAndOnlyConnectionFaultsAreRetried() {
        ZooKeeperRetriesControl r = new ZooKeeperRetriesControl(3, 0, 0);
        assertTrue(!r.retryAfter(new KeeperException.NoNodeException()), "a fault of the request itself is not retried");
        assertTrue(!r.retryAfter(new KeeperException.BadVersionException()));
        assertTrue(r.retryAfter(new KeeperException.ConnectionLossException()));
        assertTrue(r.retryAfter(new KeeperException.OperationTimeoutException()));
        assertTrue(r.retryAfter(new KeeperException.SessionExpiredException()));
        assertTrue(!r.retryAfter(new KeeperException.ConnectionLossException()), "three retries, no more");
        assertEquals(3, r.retries());
        assertTrue(!ZooKeeperRetriesControl.none().retryAfter(new KeeperException.ConnectionLossException()));
    }

    @Test
    void withEnoughRetriesEveryInsertSucceedsAtOnceAndLandsOnce() throws Exception {
        create("kr");
        for (int k = 0; k < 40; k++) {
            HttpResponse<String> r = Http.send(url(1), "INSERT INTO kr VALUES (" + k + ")", "insert_keeper_max_retries=100"
                + "&insert_keeper_retry_initial_backoff_ms=1&insert_keeper_retry_max_backoff_ms=4"
                + "&insert_keeper_fault_injection_probability=0.4&insert_keeper_fault_injection_seed=" + (k + 1));
            assertEquals(200, r.statusCode(), "insert " + k + ": " + r.body());
        }
        assertOncePerReplica("kr", 40);
    }

    @Test
    void withFewRetriesClientRetriesStillLeaveOneCopyQuorumInsertsIncluded() throws Exception {
        create("kq");
        Map<Integer, Integer> codes = new TreeMap<>();
        for (int k = 0; k < 30; k++) {
            int tries = 0;
            while (true) {
                assertTrue(++tries < 60, "insert " + k + " never succeeded");
                HttpResponse<String> r = Http.send(url(1), "INSERT INTO kq VALUES (" + k + ")", "insert_quorum=2&insert_keeper_max_retries=1"
                    + "&insert_keeper_retry_initial_backoff_ms=1&insert_keeper_fault_injection_probability=0.6&insert_keeper_fault_injection_seed="
                    + (k * 100 + tries));
                if (r.statusCode() == 200) {
                    break;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("Code: (\\d+)").matcher(r.body());
                assertTrue(m.find() && (m.group(1).equals("244") || m.group(1).equals("319")), r.body());
                codes.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
            }
        }
        assertTrue(!codes.isEmpty(), "one retry is not always enough at 0.6");
        assertOncePerReplica("kq", 30);
        assertEquals("", Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '/clickhouse/tables/01/kq/quorum/parallel'"),
            "every quorum was reached");
    }
}
