package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The cluster extension: a static field gives one cluster per class, an instance field one per test. */
class StubClusterExtensionTest {
    @RegisterExtension
    static StubClusterExtension shared = StubClusterExtension.builder().replicas(2).build();

    @RegisterExtension
    StubClusterExtension own = StubClusterExtension.builder().replicas(2).build();

    static List<String> seenShared;

    @Test
    void handsOutOneUrlPerReplicaAndTheReplicasShareATable() {
        assertEquals(2, shared.jdbcUrls().size());
        assertEquals("jdbc:clickhouse://127.0.0.1:" + shared.cluster().replica(1).port() + "/default", shared.jdbcUrls().get(0));
        checkShared();
        List<String> urls = own.httpUrls();
        new ConformanceClient(urls.get(0)).query("CREATE TABLE x (k UInt8) ENGINE = ReplicatedMergeTree('/clickhouse/tables/x', '{replica}') ORDER BY k");
        new ConformanceClient(urls.get(1)).query("CREATE TABLE x (k UInt8) ENGINE = ReplicatedMergeTree('/clickhouse/tables/x', '{replica}') ORDER BY k");
        new ConformanceClient(urls.get(1)).query("INSERT INTO x VALUES (5)");
        new ConformanceClient(urls.get(0)).query("SYSTEM SYNC REPLICA x");
        assertEquals("5\n", new ConformanceClient(urls.get(0)).query("SELECT k FROM x"));
    }

    @Test
    void anInstanceFieldGivesEachTestAFreshCluster() {
        checkShared();
        assertEquals("0\n", new ConformanceClient(own.httpUrls().get(0)).query("SELECT count() FROM system.replicas"));
        assertNotEquals(shared.httpUrls(), own.httpUrls());
    }

    private static synchronized void checkShared() {
        if (seenShared == null) {
            seenShared = shared.httpUrls();
        }
        assertEquals(seenShared, shared.httpUrls(), "the static extension keeps one cluster for the class");
    }
}
