package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A replica that is away while the log grows past {@code max_replicated_logs_to_keep} is marked lost and no longer
 * holds the log back; when it comes back it clones a live replica and ends with the same parts and rows, including a
 * partition dropped and rows deleted while it was away.
 */
class CloneReplicaTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).sessionTimeout(Duration.ofSeconds(2)).build();

    private String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    private static final String ZK = "/clickhouse/tables/01/lost";

    private String node(String path, String name) throws Exception {
        return Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '" + path + "' AND name = '" + name + "'");
    }

    @Test
    void aReplicaFarBehindIsMarkedLostTheLogIsTrimmedPastItAndItClonesALiveReplicaOnReturn() throws Exception {
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "CREATE TABLE lost (p UInt8, k UInt64) ENGINE = ReplicatedMergeTree('" + ZK + "', '{replica}') PARTITION BY p"
                + " ORDER BY k SETTINGS cleanup_delay_period = 0, cleanup_delay_period_random_add = 0, min_replicated_logs_to_keep = 2,"
                + " max_replicated_logs_to_keep = 5, merge_selecting_sleep_ms = 60000");
        }
        Http.query(url(1), "INSERT INTO lost VALUES (1, 1), (2, 2)");
        Http.query(url(3), "SYSTEM SYNC REPLICA lost");
        replicas.cluster().kill(3);
        ReplicaRecoveryTest.waitFor("r3's session to expire", () -> node(ZK + "/replicas/r3", "is_active").isEmpty());
        for (int k = 3; k <= 14; k++) {
            Http.query(url(k % 2 + 1), "INSERT INTO lost VALUES (1, " + k + ")");
        }
        Http.query(url(1), "ALTER TABLE lost DROP PARTITION 2");
        assertEquals(200, Http.send(url(2), "ALTER TABLE lost DELETE WHERE k = 5", "mutations_sync=1").statusCode());
        ReplicaRecoveryTest.waitFor("r3 marked lost", () -> node(ZK + "/replicas/r3", "is_lost").equals("1\n"));
        ReplicaRecoveryTest.waitFor("the log trimmed past r3", () -> Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '"
            + ZK + "/log'").trim().equals("2"));
        long first = Long.parseLong(Http.query(url(1), "SELECT min(name) FROM system.zookeeper WHERE path = '" + ZK + "/log'").trim()
            .substring("log-".length()));
        long r3Pointer = Long.parseLong(node(ZK + "/replicas/r3", "log_pointer").trim());
        assertTrue(first > r3Pointer, "entries r3 never read are gone: first " + first + ", r3 at " + r3Pointer);
        assertEquals("0\n", node(ZK + "/replicas/r1", "is_lost"), "active replicas are never marked");
        assertEquals("0\n", node(ZK + "/replicas/r2", "is_lost"));

        replicas.cluster().restart(3);
        assertEquals("0\n", node(ZK + "/replicas/r3", "is_lost"));
        Http.query(url(3), "SYSTEM SYNC REPLICA lost");
        Http.query(url(1), "SYSTEM SYNC REPLICA lost");
        String rows = "SELECT p, k FROM lost ORDER BY p, k";
        assertEquals(Http.query(url(1), rows), Http.query(url(3), rows));
        assertEquals("12\t0\n", Http.query(url(3), "SELECT count(), countIf(p = 2 OR k = 5) FROM lost"));
        String parts = "SELECT name FROM system.parts WHERE table = 'lost' AND active ORDER BY name";
        ReplicaRecoveryTest.waitFor("the same parts on r3 as on r1", () -> Http.query(url(3), parts).equals(Http.query(url(1), parts))
            && Http.query(url(3), "SELECT count() FROM system.replication_queue WHERE table = 'lost'").equals("0\n"));
        // the part of the dropped partition r3 still had is kept aside, not deleted
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(replicas.cluster().replica(3).dataDir())) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("clone_2_")), "detached/clone_2_* on r3");
        }
        // r3 is a full replica again: it replicates new inserts both ways
        Http.query(url(3), "INSERT INTO lost VALUES (1, 100)");
        Http.query(url(1), "SYSTEM SYNC REPLICA lost");
        assertEquals("1\n", Http.query(url(1), "SELECT count() FROM lost WHERE k = 100"));
    }
}
