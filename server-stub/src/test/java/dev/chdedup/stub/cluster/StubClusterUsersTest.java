package dev.chdedup.stub.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.distributed.Cluster;
import org.junit.jupiter.api.Test;

/**
 * A cluster whose servers have users and no password-less default: the discovered cluster reaches each server as the
 * servers' user (here the only one, alice), so a read over every shard (cluster()) passes their authentication.
 */
class StubClusterUsersTest {
    @Test
    void theDiscoveredClusterReachesTheServersAsTheirUser() throws Exception {
        try (StubCluster c = StubCluster.builder().shards(2).replicas(1).user("alice", "pw").build().start()) {
            Cluster.Address a = c.replica(1).clusters().get("default").shard(2).replicas().get(0);
            assertEquals(java.util.List.of("alice", "pw", c.replica(2, 1).port()), java.util.List.of(a.user(), a.password(), a.port()));
            ConformanceClient first = new ConformanceClient(c.replica(1, 1).httpUrl(), "alice", "pw");
            first.query("CREATE TABLE t ON CLUSTER default (k UInt64) ENGINE = MergeTree ORDER BY k");
            first.query("INSERT INTO t VALUES (1)");
            new ConformanceClient(c.replica(2, 1).httpUrl(), "alice", "pw").query("INSERT INTO t VALUES (2), (3)");
            assertEquals("3\t6\n", first.query("SELECT count(), sum(k) FROM cluster('default', default, t)"));
        }
    }
}
