package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The queue reads new log entries by name from its pointer on (ZooKeeper numbers them one after another, removals by
 * the cleanup below every pointer leave no hole above it) and lists the log only on a server without persistent
 * watches: no entry is missed either way, and log_pointer is the last entry's index plus one, as ClickHouse writes it.
 */
class ReplicatedMergeTreeQueuePullTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    static void create(String table, String settings) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (id UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table
                + "', '{replica}') ORDER BY id" + settings);
        }
    }

    static void insert(String table, int from, int to) throws Exception {
        for (int k = from; k < to; k++) {
            Http.query(url(1), "INSERT INTO " + table + " VALUES (" + k + ")");
        }
    }

    static String logCount(String table) throws Exception {
        return Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/" + table + "/log'");
    }

    /** r2's log_pointer and the last log entry's index plus one. */
    static void assertPointerAtTheEnd(String table) throws Exception {
        String base = "/clickhouse/tables/01/" + table;
        String last = Http.query(url(1), "SELECT max(name) FROM system.zookeeper WHERE path = '" + base + "/log'").strip();
        String pointer = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '" + base + "/replicas/r2' AND name = 'log_pointer'");
        assertEquals(Long.parseLong(last.substring("log-".length())) + 1 + "\n", pointer);
    }

    @Test
    void entriesAfterTheCleanupRemovedAFewAndAfterItRemovedManyAreAllCopied() throws Exception {
        create("pull", " SETTINGS cleanup_delay_period = 1, cleanup_delay_period_random_add = 0, min_replicated_logs_to_keep = 2,"
            + " merge_selecting_sleep_ms = 600000");
        // a few removed: the log's cversion runs ahead of its next number by as many
        insert("pull", 0, 6);
        Http.query(url(2), "SYSTEM SYNC REPLICA pull");
        ReplicaRecoveryTest.waitFor("the log trimmed to 2 entries", () -> logCount("pull").equals("2\n"));
        insert("pull", 6, 7);
        Http.query(url(2), "SYSTEM SYNC REPLICA pull");
        assertEquals("7\t21\n", Http.query(url(2), "SELECT count(), sum(id) FROM pull"));
        assertPointerAtTheEnd("pull");
        // many removed: more than one pull reads at once
        insert("pull", 7, 140);
        Http.query(url(2), "SYSTEM SYNC REPLICA pull");
        ReplicaRecoveryTest.waitFor("the log trimmed to 2 entries", () -> logCount("pull").equals("2\n"));
        insert("pull", 140, 143);
        Http.query(url(2), "SYSTEM SYNC REPLICA pull");
        assertEquals("143\t10153\n", Http.query(url(2), "SELECT count(), sum(id) FROM pull"));
        assertPointerAtTheEnd("pull");
    }

    @Test
    void withoutPersistentWatchesTheLogIsListedAndNothingIsMissed() throws Exception {
        ZooKeeperClient zk = replicas.cluster().replica(2).replication().zookeeper();
        zk.usePersistentWatches(false);
        try {
            create("listed", "");
            insert("listed", 0, 20);
            Http.query(url(2), "SYSTEM SYNC REPLICA listed");
            assertEquals("20\t190\n", Http.query(url(2), "SELECT count(), sum(id) FROM listed"));
            assertPointerAtTheEnd("listed");
        } finally {
            zk.usePersistentWatches(true);
        }
    }
}
