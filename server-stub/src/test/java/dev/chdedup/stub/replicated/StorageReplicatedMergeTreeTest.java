package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two replicas on an embedded ZooKeeper: convergence, table-wide deduplication, the znode layout, round trips. */
class StorageReplicatedMergeTreeTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    static void create(String table) throws Exception {
        for (String url : List.of(url(1), url(2))) {
            Http.query(url, "CREATE TABLE " + table + " (id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/"
                + table + "', '{replica}') ORDER BY id");
        }
    }

    @Test
    void insertOnOneReplicaReachesTheOther() throws Exception {
        create("conv");
        Http.query(url(1), "INSERT INTO conv VALUES (1,'a'),(2,'b')");
        Http.query(url(2), "INSERT INTO conv VALUES (3,'c')");
        Http.query(url(1), "SYSTEM SYNC REPLICA conv");
        Http.query(url(2), "SYSTEM SYNC REPLICA conv");
        assertEquals("1\ta\n2\tb\n3\tc\n", Http.query(url(2), "SELECT * FROM conv ORDER BY id"));
        assertEquals("1\ta\n2\tb\n3\tc\n", Http.query(url(1), "SELECT * FROM conv ORDER BY id"));
        assertEquals("all_0_0_0\nall_1_1_0\n", Http.query(url(2), "SELECT name FROM system.parts WHERE table = 'conv' ORDER BY name"));
    }

    @Test
    void aBlockInsertedOnOneReplicaIsADuplicateOnTheOther() throws Exception {
        create("dup");
        Http.query(url(1), "INSERT INTO dup VALUES (1,'a'),(2,'b')");
        Http.query(url(2), "INSERT INTO dup VALUES (1,'a'),(2,'b')");
        Http.query(url(1), "INSERT INTO dup VALUES (1,'a'),(2,'b')");
        Http.query(url(2), "SYSTEM SYNC REPLICA dup");
        assertEquals("2\n", Http.query(url(2), "SELECT count() FROM dup"));
        assertEquals("1\n", Http.query(url(2), "SELECT count() FROM system.parts WHERE table = 'dup' AND active"));
        // without deduplication the block takes the next block number: numbers stay contiguous after duplicates
        assertEquals(200, Http.send(url(2), "INSERT INTO dup VALUES (1,'a'),(2,'b')", "deduplicate_insert=disable").statusCode());
        assertEquals("all_0_0_0\nall_1_1_0\n", Http.query(url(2), "SELECT name FROM system.parts WHERE table = 'dup' ORDER BY name"));
        Http.query(url(1), "SYSTEM SYNC REPLICA dup");
        assertEquals("all_0_0_0\nall_1_1_0\n", Http.query(url(1), "SELECT name FROM system.parts WHERE table = 'dup' ORDER BY name"));
    }

    @Test
    void aNonQuorumInsertCostsTwoZooKeeperWriteRoundTrips() throws Exception {
        create("trips");
        StorageReplicatedMergeTree t = (StorageReplicatedMergeTree) replicas.cluster().replica(1).components().catalog().mergeTree("default", "trips");
        ZooKeeperClient zk = replicas.cluster().replica(1).replication().zookeeper();
        t.commitPart("all", new java.util.ArrayList<>(List.<Object[]>of(new Object[] {0L, "first: creates block_numbers/all"})), "all_0_0");
        for (int i = 1; i <= 20; i++) {
            long before = zk.writeRoundTripsOfThisThread();
            List<Object[]> rows = new java.util.ArrayList<>(List.<Object[]>of(new Object[] {(long) i, "x"}));
            assertTrue(t.commitPart("all", rows, "all_" + i + "_" + i) != null);
            assertEquals(2, zk.writeRoundTripsOfThisThread() - before, "insert " + i);
        }
        long before = zk.writeRoundTripsOfThisThread();
        List<Object[]> again = new java.util.ArrayList<>(List.<Object[]>of(new Object[] {5L, "x"}));
        assertEquals(null, t.commitPart("all", again, "all_5_5"), "a duplicate block id commits nothing");
        assertEquals(1, zk.writeRoundTripsOfThisThread() - before, "a duplicate costs the one check multi");
        Http.query(url(2), "SYSTEM SYNC REPLICA trips");
        assertEquals("21\n", Http.query(url(2), "SELECT count() FROM trips"));
    }

    @Test
    void createMakesTheZnodeLayoutOfARealServer() throws Exception {
        create("layout");
        Http.query(url(1), "INSERT INTO layout VALUES (1,'a')");
        String base = "/clickhouse/tables/01/layout";
        // 26.7's layout (oracle/replicated_create_layout_26_7.tsv)
        assertEquals("alter_partition_version\nasync_blocks\nblock_numbers\nblocks\ncolumns\ndeduplication_hashes\nleader_election\n"
            + "lightweight_updates\nlog\nlost_part_count\nmetadata\nmutations\nnonincrement_block_numbers\npart_moves_shard\n"
            + "pinned_part_uuids\nquorum\nreplicas\ntable_shared_id\ntemp\n",
            Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '" + base + "' ORDER BY name"));
        assertEquals("columns\ncreator_info\nflags\nhost\nis_active\nis_lost\nlog_pointer\nmax_processed_insert_time\nmetadata\n"
            + "metadata_version\nmin_unprocessed_insert_time\nmutation_pointer\nparts\nqueue\n",
            Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '" + base + "/replicas/r2' ORDER BY name"));
        String log = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '" + base + "/log' AND name = 'log-0000000000' FORMAT TSVRaw");
        assertTrue(log.matches("format version: 4\ncreate_time: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\nsource replica: r1\n"
            + "block_id: all_\\d+_\\d+\nget\nall_0_0_0\n\n"), log);
        String id = log.split("\n")[3].substring("block_id: ".length());
        assertEquals("all_0_0_0\n", Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '" + base
            + "/deduplication_hashes' AND name = '" + id + "'"));
        assertEquals("1\t0\n", Http.query(url(1), "SELECT is_leader, is_readonly FROM system.replicas WHERE table = 'layout'"));
        assertEquals("0\t2\t2\n", Http.query(url(2), "SELECT is_leader, total_replicas, active_replicas FROM system.replicas WHERE table = 'layout'"));
    }
}
