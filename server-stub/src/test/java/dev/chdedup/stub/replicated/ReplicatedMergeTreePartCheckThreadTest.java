package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import dev.chdedup.stub.mergetree.MergeTreeData;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The settling of an insert whose commit multi had an unknown outcome and did not land (a connection loss that
 * ZooKeeper never applied), built by hand: the part's file is on disk under its final name and its block number is
 * held. The check deletes the file and releases the number, so a merge over that number can run; one that landed is
 * left alone for the queue.
 */
class ReplicatedMergeTreePartCheckThreadTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    @Test
    void anUncertainCommitThatDidNotLandIsDiscardedAndItsBlockNumberReleased() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(replicas.cluster().replica(i).httpUrl(), "CREATE TABLE pc (id UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/pc', '{replica}')"
                + " ORDER BY id");
        }
        String url = replicas.cluster().replica(1).httpUrl();
        Http.query(url, "INSERT INTO pc VALUES (1)");
        StorageReplicatedMergeTree t = (StorageReplicatedMergeTree) replicas.cluster().replica(1).components().catalog().mergeTree("default", "pc");
        ZooKeeperClient zk = t.zk();
        EphemeralLockInZooKeeper lock = EphemeralLockInZooKeeper.acquire(zk, t.paths().blockNumbers("all") + "/block-", List.of());
        MergeTreeData.TempPart tmp = t.parts().writeTempPart("all", new ArrayList<>(List.<Object[]>of(new Object[] {2L})), List.of("all_x"), false);
        MergeTreePartInfo info = new MergeTreePartInfo("all", lock.number(), lock.number(), 0);
        MergeTreeData.TempPart precommitted = t.parts().precommit(tmp, info);
        t.uncertainParts().put(info.name(), new StorageReplicatedMergeTree.UncertainPart(precommitted, lock));
        Http.query(url, "INSERT INTO pc VALUES (3)");
        assertTrue(Files.exists(precommitted.file().tmp()));
        long deadline = System.currentTimeMillis() + 10_000;
        while ((Files.exists(precommitted.file().tmp()) || zk.exists(lock.path()) != null) && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(t.uncertainParts().isEmpty(), "settled");
        assertFalse(Files.exists(precommitted.file().tmp()), "the file of the commit that did not land is gone");
        assertEquals(null, zk.exists(lock.path()), "its block number is released");
        Http.query(url, "OPTIMIZE TABLE pc FINAL");
        for (int i = 1; i <= 2; i++) {
            String u = replicas.cluster().replica(i).httpUrl();
            Http.query(u, "SYSTEM SYNC REPLICA pc");
            assertEquals("2\t4\n", Http.query(u, "SELECT count(), sum(id) FROM pc"), "rows 1 and 3 on r" + i);
            assertEquals("1\n", Http.query(u, "SELECT count() FROM system.parts WHERE table = 'pc' AND active"), "one merged part on r" + i);
        }
    }
}
