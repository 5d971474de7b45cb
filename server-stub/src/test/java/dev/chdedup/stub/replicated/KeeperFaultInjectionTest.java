package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper faults injected into replicated inserts (insert_keeper_fault_injection_probability) with the server's own
 * retries off (insert_keeper_max_retries=0): every insert fails with ClickHouse's codes (244 before anything was
 * committed, 319 when the commit's answer was lost), and a client that retries the same block until it succeeds stores
 * each row exactly once, on every replica. With the retries on ({@link ZooKeeperRetriesControlTest}) the server hides them.
 */
class KeeperFaultInjectionTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    @Test
    void retriedInsertsLandOnceWhateverTheFaults() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE f (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/f', '{replica}') ORDER BY k");
        }
        Map<Integer, Integer> codes = new TreeMap<>();
        for (int k = 0; k < 40; k++) {
            int tries = 0;
            while (true) {
                assertTrue(++tries < 60, "insert " + k + " never succeeded");
                HttpResponse<String> r = Http.send(url(1), "INSERT INTO f VALUES (" + k + ")",
                    "insert_keeper_max_retries=0&insert_keeper_fault_injection_probability=0.4&insert_keeper_fault_injection_seed=" + (k * 100 + tries));
                if (r.statusCode() == 200) {
                    break;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("Code: (\\d+)").matcher(r.body());
                assertTrue(m.find() && (m.group(1).equals("244") || m.group(1).equals("319")), r.body());
                codes.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
            }
        }
        assertEquals(java.util.Set.of(244, 319), codes.keySet(), "the faults seen: " + codes);
        for (int i = 1; i <= 2; i++) {
            Http.query(replicas.cluster().replica(i).httpUrl(), "SYSTEM SYNC REPLICA f");
            assertEquals("40\t40\t780\n", Http.query(replicas.cluster().replica(i).httpUrl(), "SELECT count(), uniqExact(k), sum(k) FROM f"), "replica " + i);
        }
        assertEquals("0\n", Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/f/block_numbers/all'"),
            "no block number is left locked");
    }
}
