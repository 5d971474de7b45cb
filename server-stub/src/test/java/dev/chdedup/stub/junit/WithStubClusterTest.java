package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.conformance.ConformanceClient;
import org.junit.jupiter.api.Test;

/** {@link WithStubCluster}: the annotated topology, started for the test and injected. */
@WithStubCluster(shards = 3, replicas = 1, cluster = "three")
class WithStubClusterTest {
    @Test
    void theAnnotatedTopologyIsInjected(StubCluster cluster) {
        assertEquals(3, cluster.shards());
        assertEquals(1, cluster.replicasPerShard());
        assertEquals("1\n2\n3\n", new ConformanceClient(cluster.replica(2, 1).httpUrl()).query(
            "SELECT shard_num FROM system.clusters WHERE cluster = 'three' ORDER BY shard_num"));
    }
}
