package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

/** The leader trims block ids to the deduplication window and the log to what every replica has read (02c-dedup-window). */
class ReplicatedMergeTreeCleanupThreadTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }


    @Test
    void blockIdsBeyondTheWindowAreRemovedAndTheirBlocksCanBeInsertedAgain() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE w (id UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/w', '{replica}') ORDER BY id"
                + " SETTINGS replicated_deduplication_window = 3, cleanup_delay_period = 1, cleanup_delay_period_random_add = 0,"
                + " min_replicated_logs_to_keep = 2");
        }
        for (int k = 1; k <= 5; k++) {
            Http.query(url(1), "INSERT INTO w VALUES (" + k + ")");
        }
        Http.query(url(2), "SYSTEM SYNC REPLICA w");
        String blocks = "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/w/deduplication_hashes'";
        String log = "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/w/log'";
        ReplicaRecoveryTest.waitFor("the window of 3 block ids", () -> Http.query(url(1), blocks).equals("3\n"));
        ReplicaRecoveryTest.waitFor("the log trimmed to 2 entries", () -> Http.query(url(1), log).equals("2\n"));
        Http.query(url(2), "INSERT INTO w VALUES (1)");
        Http.query(url(2), "INSERT INTO w VALUES (5)");
        Http.query(url(1), "SYSTEM SYNC REPLICA w");
        assertEquals("1\t2\n2\t1\n3\t1\n4\t1\n5\t1\n", Http.query(url(1), "SELECT id, count() FROM w GROUP BY id ORDER BY id"),
            "block 1 fell out of the window, block 5 is still in it");
        // a replica added after the log was trimmed clones an active one
        Http.query(url(2), "CREATE DATABASE late");
        Http.query(url(2), "CREATE TABLE late.w (id UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/w', 'r3') ORDER BY id");
        Http.query(url(2), "SYSTEM SYNC REPLICA late.w");
        assertEquals("6\t16\n", Http.query(url(2), "SELECT count(), sum(id) FROM late.w"));
    }
}
