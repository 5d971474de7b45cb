package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.conformance.ConformanceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension's shards: two shards of two replicas, reached by shard and replica, each knowing the whole cluster. */
class StubClusterExtensionShardsTest {
    @RegisterExtension
    static StubClusterExtension cluster = StubClusterExtension.builder().shards(2).replicas(2).cluster("ext").build();

    @Test
    void serversAreReachedByShardAndReplicaAndKnowTheCluster(StubCluster injected) {
        assertEquals(4, injected.size());
        assertEquals(4, cluster.jdbcUrls().size());
        assertEquals(cluster.replica(2, 1).httpUrl(), cluster.httpUrls().get(2));
        for (String url : cluster.httpUrls()) {
            assertEquals("2\t4\t1\n", new ConformanceClient(url).query("SELECT uniqExact(shard_num), count(), sum(is_local) FROM system.clusters"
                + " WHERE cluster = 'ext'"), url);
        }
    }
}
