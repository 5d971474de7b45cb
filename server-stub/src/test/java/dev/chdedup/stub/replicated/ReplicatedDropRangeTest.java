package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DROP PARTITION and TRUNCATE on two replicas playing 18.16, where a real 18.16 pair differed from the stub: a TRUNCATE
 * covers every block number taken before it, on every replica, whether or not the replica it runs on holds the part,
 * and executing a DROP_RANGE applies the deduplication window at once.
 */
class ReplicatedDropRangeTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).emulate("18.16").build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    private static void create(String table, String partitionBy, String settings) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (k UInt64, v String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table
                + "', '{replica}')" + partitionBy + " ORDER BY k" + settings);
        }
    }

    private static void assertRows(String table, String expected) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "SYSTEM SYNC REPLICA " + table);
            assertEquals(expected, Http.query(url(i), "SELECT k, v FROM " + table + " ORDER BY k, v"), "r" + i);
        }
    }

    /**
     * A TRUNCATE on a replica that has not fetched the other's insert yet drops it too: the partitions come from
     * ZooKeeper's block_numbers, as ClickHouse's truncate takes them, not from the parts this replica holds.
     */
    @Test
    void aTruncateDropsAnInsertTheReplicaHasNotFetchedYet() throws Exception {
        create("tf", " PARTITION BY k % 3", "");
        Http.query(url(2), "SYSTEM STOP FETCHES tf");
        Http.query(url(1), "INSERT INTO tf VALUES (1, 'a'), (2, 'b')");
        Http.query(url(2), "TRUNCATE TABLE tf");
        Http.query(url(2), "SYSTEM START FETCHES tf");
        assertRows("tf", "");
        for (int round = 0; round < 10; round++) {
            Http.query(url(1 + round % 2), "INSERT INTO tf VALUES (" + round + ", 'r')");
            Http.query(url(2 - round % 2), "TRUNCATE TABLE tf");
        }
        assertRows("tf", "");
    }

    /**
     * Executing a DROP_RANGE wakes the cleanup, as in ClickHouse: the leader applies the deduplication window to the ids
     * left at once, not a cleanup period later. On a real 18.16 pair the piece (1, 'b') of the last insert lands again
     * (a window of 1 kept only (1, 'a')); the stub dropped it as a duplicate.
     */
    @Test
    void aDropAppliesTheDeduplicationWindowAtOnce() throws Exception {
        create("dw", " PARTITION BY k % 3", " SETTINGS replicated_deduplication_window = 1");
        Http.send(url(1), "INSERT INTO dw VALUES (1, 'b'), (0, 'b'), (1, 'a'), (3, 'a')",
            "max_insert_block_size=1&min_insert_block_size_rows=0&min_insert_block_size_bytes=0");
        int leader = Http.query(url(1), "SELECT is_leader FROM system.replicas WHERE table = 'dw'").equals("1\n") ? 1 : 2;
        Http.query(url(leader), "ALTER TABLE dw DROP PARTITION 0");
        Http.query(url(1), "INSERT INTO dw VALUES (2, 'a'), (3, 'b'), (1, 'b')");
        assertRows("dw", "1\ta\n1\tb\n1\tb\n2\ta\n3\tb\n");
    }

    /** Without the drop the window is applied a cleanup period later, so the same piece is still a duplicate at once. */
    @Test
    void withoutADropThePieceIsStillADuplicate() throws Exception {
        create("nw", " PARTITION BY k % 3", " SETTINGS replicated_deduplication_window = 1");
        Http.send(url(1), "INSERT INTO nw VALUES (1, 'b'), (0, 'b'), (1, 'a'), (3, 'a')",
            "max_insert_block_size=1&min_insert_block_size_rows=0&min_insert_block_size_bytes=0");
        Http.query(url(1), "INSERT INTO nw VALUES (2, 'a'), (3, 'b'), (1, 'b')");
        assertRows("nw", "0\tb\n1\ta\n1\tb\n2\ta\n3\ta\n3\tb\n");
    }
}
