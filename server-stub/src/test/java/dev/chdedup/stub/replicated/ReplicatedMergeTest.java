package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

/** Merges are chosen by the leader, written to the log and give the same part, byte for byte, on every replica. */
class ReplicatedMergeTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }


    @Test
    void theLeaderAssignsBackgroundMergesAndBothReplicasEndWithTheSameParts() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE bg (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/bg', '{replica}') ORDER BY k"
                + " SETTINGS merge_selecting_sleep_ms = 50");
        }
        for (int k = 0; k < 40; k++) {
            Http.query(url(k % 2 + 1), "INSERT INTO bg VALUES (" + k + ")");
        }
        String parts = "SELECT name FROM system.parts WHERE table = 'bg' AND active ORDER BY name";
        ReplicaRecoveryTest.waitFor("a background merge", () -> Http.query(url(1), parts).split("\n").length < 40);
        Http.query(url(1), "SYSTEM SYNC REPLICA bg");
        Http.query(url(2), "SYSTEM SYNC REPLICA bg");
        // the parts each replica lists in ZooKeeper follow its local parts (covered parts are removed by the cleanup)
        String listed = "SELECT name, value FROM system.zookeeper WHERE path LIKE '/clickhouse/tables/01/bg/replicas/%s/parts/%%'"
            + " AND name = 'checksums' ORDER BY path";
        ReplicaRecoveryTest.waitFor("the replicas to agree", () -> Http.query(url(1), parts).equals(Http.query(url(2), parts))
            && Http.query(url(1), "SELECT count() FROM system.replication_queue").equals("0\n")
            && Http.query(url(2), "SELECT count() FROM system.replication_queue").equals("0\n")
            && Http.query(url(1), listed.formatted("r1")).replace("/r1/", "/").equals(Http.query(url(1), listed.formatted("r2")).replace("/r2/", "/")));
        assertEquals("40\n", Http.query(url(2), "SELECT count() FROM bg"));
        String merges = Http.query(url(1), "SELECT splitByChar('\\n', value)[3] FROM system.zookeeper WHERE path = "
            + "'/clickhouse/tables/01/bg/log' AND splitByChar('\\n', value)[5] = 'merge'");
        assertTrue(!merges.isEmpty() && merges.lines().allMatch(l -> l.equals("source replica: r1")), "merges assigned by the leader r1 only: " + merges);
        assertEquals(Http.query(url(1), "SELECT name, value FROM system.zookeeper WHERE path LIKE '/clickhouse/tables/01/bg/replicas/r1/parts/%'"
            + " AND name = 'checksums' ORDER BY path").replace("/r1/", "/"),
            Http.query(url(1), "SELECT name, value FROM system.zookeeper WHERE path LIKE '/clickhouse/tables/01/bg/replicas/r2/parts/%'"
            + " AND name = 'checksums' ORDER BY path").replace("/r2/", "/"), "the same files (checksums) on both replicas");
    }

    @Test
    void noMergeIsAssignedOverAPartThatAReplicaListsAndTheSelectionDidNotSee() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE stray (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/stray', '{replica}') ORDER BY k");
        }
        for (int k = 1; k <= 3; k++) {
            Http.query(url(1), "INSERT INTO stray VALUES (" + k + ")");
        }
        Http.query(url(2), "SYSTEM SYNC REPLICA stray");
        // a part that r2 lists inside the range, that neither r1's queue nor its parts know of: the last look refuses
        ZooKeeperClient zk = replicas.cluster().replica(1).replication().zookeeper();
        String stray = "/clickhouse/tables/01/stray/replicas/r2/parts/all_1_2_1";
        zk.create(stray, "", org.apache.zookeeper.CreateMode.PERSISTENT);
        Http.query(url(1), "OPTIMIZE TABLE stray FINAL");
        String parts = "SELECT name FROM system.parts WHERE table = 'stray' AND active ORDER BY name";
        assertEquals("all_0_0_0\nall_1_1_0\nall_2_2_0\n", Http.query(url(1), parts), "not merged over the part r2 lists");
        zk.delete(stray);
        Http.query(url(1), "OPTIMIZE TABLE stray FINAL");
        Http.query(url(2), "SYSTEM SYNC REPLICA stray");
        assertEquals("all_0_2_1\n", Http.query(url(1), parts), "merged once nothing stray is listed");
        assertEquals("all_0_2_1\n", Http.query(url(2), parts));
    }

    @Test
    void aPartCommittedAfterThePredicateReadTheLocksIsNotMergedOverANumberTakenMeanwhile() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE late (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/late', '{replica}') ORDER BY k");
        }
        Http.query(url(1), "INSERT INTO late VALUES (0)");
        Http.query(url(1), "INSERT INTO late VALUES (1)");
        Http.query(url(2), "SYSTEM SYNC REPLICA late");
        ZooKeeperClient zk = replicas.cluster().replica(1).replication().zookeeper();
        EphemeralLockInZooKeeper[] slow = new EphemeralLockInZooKeeper[1];
        // right after the predicate read the locks: an insert takes number 2 (and is slow to commit), then another
        // takes 3 and commits on r2; r1 fetches all_3_3_0 before it reads its parts
        ReplicatedMergeAssigner.afterLocksRead = () -> {
            try {
                slow[0] = EphemeralLockInZooKeeper.acquire(zk, "/clickhouse/tables/01/late/block_numbers/all/block-", List.of());
                Http.query(url(2), "INSERT INTO late VALUES (3)");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        try {
            Http.query(url(1), "OPTIMIZE TABLE late FINAL");
        } finally {
            ReplicatedMergeAssigner.afterLocksRead = null;
        }
        assertEquals(2L, slow[0].number());
        String parts = "SELECT name FROM system.parts WHERE table = 'late' AND active ORDER BY name";
        assertEquals("all_0_0_0\nall_1_1_0\nall_3_3_0\n", Http.query(url(1), parts), "no merge over number 2, whose insert may still commit");
        slow[0].unlock(zk);
        Http.query(url(1), "OPTIMIZE TABLE late FINAL");
        assertEquals("all_0_3_1\n", Http.query(url(1), parts), "merged once number 2 is settled");
    }

    @Test
    void optimizeFinalOnAFollowerMergesOnEveryReplica() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE opt (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/opt', '{replica}') ORDER BY k");
        }
        for (int k = 3; k >= 1; k--) {
            Http.query(url(1), "INSERT INTO opt VALUES (" + k + ")");
        }
        Http.query(url(2), "OPTIMIZE TABLE opt FINAL");
        Http.query(url(1), "SYSTEM SYNC REPLICA opt");
        assertEquals("all_0_2_1\t3\n", Http.query(url(1), "SELECT name, rows FROM system.parts WHERE table = 'opt' AND active"));
        assertEquals("all_0_2_1\t3\n", Http.query(url(2), "SELECT name, rows FROM system.parts WHERE table = 'opt' AND active"));
        assertEquals("1\n2\n3\n", Http.query(url(2), "SELECT k FROM opt"));
    }

    @Test
    void aReplicaBehindMergesFetchesThePartThatCoversWhatItMissed() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE cover (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/cover', '{replica}') ORDER BY k");
        }
        Http.query(url(2), "SYSTEM STOP FETCHES cover");
        for (int k = 0; k < 5; k++) {
            Http.query(url(1), "INSERT INTO cover VALUES (" + k + ")");
        }
        Http.query(url(1), "OPTIMIZE TABLE cover FINAL");
        for (int k = 5; k < 10; k++) {
            Http.query(url(1), "INSERT INTO cover VALUES (" + k + ")");
        }
        Http.query(url(1), "OPTIMIZE TABLE cover FINAL");
        // r1 has only all_0_9_2 now: none of the parts r2's GET_PART entries name, nor all_0_4_1, exist anywhere
        assertEquals("all_0_9_2\n", Http.query(url(1), "SELECT name FROM system.parts WHERE table = 'cover' AND active"));
        Http.query(url(2), "SYSTEM START FETCHES cover");
        Http.query(url(2), "SYSTEM SYNC REPLICA cover");
        assertEquals("all_0_9_2\t10\n", Http.query(url(2), "SELECT name, rows FROM system.parts WHERE table = 'cover' AND active"));
        assertEquals("0\n", Http.query(url(2), "SELECT count() FROM system.replication_queue WHERE table = 'cover'"));
    }

    @Test
    void dropPartReachesEveryReplicaAndItsBlockCanBeInsertedAgain() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE dpart (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/dpart', '{replica}') ORDER BY k");
        }
        Http.query(url(1), "INSERT INTO dpart VALUES (1)");
        Http.query(url(1), "INSERT INTO dpart VALUES (2)");
        Http.query(url(2), "SYSTEM SYNC REPLICA dpart");
        Http.query(url(2), "ALTER TABLE dpart DROP PART 'all_0_0_0'");
        Http.query(url(1), "SYSTEM SYNC REPLICA dpart");
        assertEquals("2\n", Http.query(url(1), "SELECT k FROM dpart"));
        Http.query(url(1), "INSERT INTO dpart VALUES (1)");
        Http.query(url(2), "SYSTEM SYNC REPLICA dpart");
        assertEquals("1\n2\n", Http.query(url(2), "SELECT k FROM dpart ORDER BY k"));
        java.net.http.HttpResponse<String> r = Http.send(url(1), "ALTER TABLE dpart DROP PART 'all_9_9_0'", "");
        assertTrue(r.statusCode() != 200 && r.body().contains("NO_SUCH_DATA_PART"), r.body());
    }

    @Test
    void dropPartitionAndTruncateReachEveryReplica() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE dp (d Date, k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/dp', '{replica}')"
                + " PARTITION BY toYYYYMM(d) ORDER BY k");
        }
        Http.query(url(1), "INSERT INTO dp VALUES ('2026-01-01', 1), ('2026-02-01', 2)");
        Http.query(url(2), "SYSTEM SYNC REPLICA dp");
        Http.query(url(2), "ALTER TABLE dp DROP PARTITION 202601");
        Http.query(url(1), "SYSTEM SYNC REPLICA dp");
        assertEquals("2\n", Http.query(url(1), "SELECT k FROM dp"));
        Http.query(url(1), "INSERT INTO dp VALUES ('2026-01-01', 1)");
        Http.query(url(2), "SYSTEM SYNC REPLICA dp");
        assertEquals("1\n2\n", Http.query(url(2), "SELECT k FROM dp ORDER BY k"), "a block dropped with its partition can be inserted again");
        Http.query(url(1), "TRUNCATE TABLE dp");
        Http.query(url(2), "SYSTEM SYNC REPLICA dp");
        assertEquals("0\n", Http.query(url(2), "SELECT count() FROM dp"));
    }
}
