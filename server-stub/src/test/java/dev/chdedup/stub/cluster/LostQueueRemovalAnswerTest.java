package dev.chdedup.stub.cluster;

import static dev.chdedup.stub.cluster.Sql.query;
import static dev.chdedup.stub.cluster.Sql.waitFor;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.chdedup.stub.junit.StubClusterExtension;
import dev.chdedup.stub.replicated.StorageReplicatedMergeTree;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the chaos runs found: a replica whose multi removing a done queue entry was applied by ZooKeeper while its
 * answer was lost (the connection suspended) retried the removal with NoNode until something reloaded its queue, so
 * SYSTEM SYNC REPLICA could wait for ever and the replicas not converge. Here the queue node goes away behind the
 * replica's back, as the applied removal leaves it: the entry must still complete, its part recorded under the replica.
 */
class LostQueueRemovalAnswerTest {
    @RegisterExtension
    StubClusterExtension extension = StubClusterExtension.builder().replicas(2).build();

    @Test
    void anEntryWhoseQueueNodeIsAlreadyGoneCompletes() throws Exception {
        StubCluster cluster = extension.cluster();
        Sql.createTable(cluster);
        query(cluster, 2, "SYSTEM STOP FETCHES t");
        query(cluster, 1, "INSERT INTO t VALUES (1, 1)");
        var zk = cluster.replica(2).replication().zookeeper();
        StorageReplicatedMergeTree r2 = cluster.replica(2).replication().tables().get(0);
        String queue = "/clickhouse/tables/01/t/replicas/r2/queue";
        waitFor("r2 to queue the fetch", Duration.ofSeconds(20), () -> !zk.children(queue).isEmpty() && !r2.queue().snapshot().isEmpty());
        zk.delete(queue + "/" + zk.children(queue).get(0));
        query(cluster, 2, "SYSTEM START FETCHES t");
        waitFor("r2 to fetch the part and drop the entry from memory", Duration.ofSeconds(20),
            () -> query(cluster, 2, "SELECT count() FROM t").equals("1\n") && r2.queue().snapshot().isEmpty());
        assertNotNull(zk.exists("/clickhouse/tables/01/t/replicas/r2/parts/all_0_0_0"), "the fetched part is recorded under r2");
    }
}
