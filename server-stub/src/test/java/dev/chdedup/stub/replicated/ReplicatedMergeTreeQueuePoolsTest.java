package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fetches and merges run in separate pools: while r2's fetch of a part hangs (r1's interserver address points at a
 * socket that accepts and never answers), a merge on r2 of another partition runs and OPTIMIZE returns, before the
 * hanging fetch's connection ends. With one thread for the whole queue the merge would wait for the fetch's timeout.
 */
class ReplicatedMergeTreeQueuePoolsTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    private static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    @Test
    void aMergeRunsWhileAFetchHangs() throws Exception {
        for (int r = 1; r <= 2; r++) {
            Http.query(url(r), "CREATE TABLE pools (p UInt8, id UInt32) ENGINE = ReplicatedMergeTree('/clickhouse/tables/pools', '{replica}')"
                + " PARTITION BY p ORDER BY id");
        }
        StorageReplicatedMergeTree r1 = (StorageReplicatedMergeTree) replicas.cluster().replica(1).components().catalog().mergeTree("default", "pools");
        ZooKeeperClient zk = r1.zk();
        String hostNode = r1.paths().replicaNode("host");
        String realHost = zk.get(hostNode);
        AtomicBoolean heldConnectionEnded = new AtomicBoolean();
        CountDownLatch accepted = new CountDownLatch(1);
        try (ServerSocket hold = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread holder = new Thread(() -> {
                try (Socket s = hold.accept()) {
                    accepted.countDown();
                    while (s.getInputStream().read() >= 0) {
                        // read the request and never answer
                    }
                } catch (Exception ignored) {
                    // the socket closed
                }
                heldConnectionEnded.set(true);
            });
            holder.setDaemon(true);
            holder.start();
            zk.set(hostNode, realHost.replaceFirst("port: \\d+", "port: " + hold.getLocalPort()));
            Http.query(url(1), "INSERT INTO pools VALUES (1, 1)");
            assertTrue(accepted.await(30, TimeUnit.SECONDS), "r2 started fetching the part from the holding socket");
            Http.query(url(2), "INSERT INTO pools VALUES (2, 10)");
            Http.query(url(2), "INSERT INTO pools VALUES (2, 11)");
            Http.query(url(2), "OPTIMIZE TABLE pools PARTITION 2 FINAL");
            boolean fetchStillHanging = !heldConnectionEnded.get();
            assertEquals("2_0_1_1\n", Http.query(url(2), "SELECT name FROM system.parts WHERE table = 'pools' AND active AND partition_id = '2'"));
            assertTrue(fetchStillHanging, "the merge ran while the fetch was still waiting for its answer");
            // the held fetch is still executing; other GET_PART entries may be executing at the same moment on a busy machine
            // (r2's own parts' entries, which find the part and finish), so only the held part's entry is counted
            String executing = Http.query(url(2), "SELECT new_part_name FROM system.replication_queue WHERE table = 'pools'"
                + " AND type = 'GET_PART' AND is_currently_executing ORDER BY new_part_name");
            System.out.println("GET_PART executing on r2: " + executing.replace("\n", " "));
            assertTrue(executing.lines().filter("1_0_0_0"::equals).count() == 1, "the held fetch, once: " + executing);
        } finally {
            zk.set(hostNode, realHost);
        }
        for (String u : List.of(url(1), url(2))) {
            Http.query(u, "SYSTEM SYNC REPLICA pools");
            assertEquals("3\n", Http.query(u, "SELECT count() FROM pools"), u);
        }
    }
}
