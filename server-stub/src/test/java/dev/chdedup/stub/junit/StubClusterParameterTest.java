package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.chdedup.stub.cluster.StubCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A test method takes the running cluster as a parameter. */
class StubClusterParameterTest {
    @RegisterExtension
    static StubClusterExtension cluster = StubClusterExtension.builder().replicas(3).build();

    @Test
    void theRunningClusterIsInjected(StubCluster injected) {
        assertSame(cluster.cluster(), injected);
        assertEquals(3, injected.size());
        assertEquals(3, injected.httpUrls().stream().distinct().count());
    }
}
