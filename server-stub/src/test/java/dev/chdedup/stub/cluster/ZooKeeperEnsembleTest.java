package dev.chdedup.stub.cluster;

import static dev.chdedup.stub.cluster.Sql.query;
import static dev.chdedup.stub.cluster.Sql.send;
import static dev.chdedup.stub.cluster.Sql.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A cluster on a 3-node embedded ensemble: one node down leaves a quorum, two down make the tables read-only. */
class ZooKeeperEnsembleTest {
    private static final Duration WAIT = Duration.ofSeconds(40);
    @RegisterExtension
    StubClusterExtension extension = StubClusterExtension.builder().replicas(2).zookeeperEnsemble(3).build();

    @Test
    void oneNodeKilledLeavesAQuorumTwoKilledDoNot() throws Exception {
        StubCluster cluster = extension.cluster();
        ClusterFaults faults = extension.faults();
        assertEquals(3, faults.zooKeeperNodes());
        assertEquals(3, cluster.zookeeperConnectString().split(",").length);
        Sql.createTable(cluster);
        faults.killZooKeeperNode(1);
        waitFor("an insert on r1 with zk1 down", WAIT, () -> ok(send(cluster, 1, "INSERT INTO t VALUES (1, 1)")));
        waitFor("an insert on r2 with zk1 down", WAIT, () -> ok(send(cluster, 2, "INSERT INTO t VALUES (1, 2)")));
        faults.killZooKeeperNode(2);
        waitFor("r1 to notice", WAIT, () -> query(cluster, 1, "SELECT is_readonly FROM system.replicas").equals("1\n"));
        waitFor("242 with two of three nodes down", WAIT, () -> {
            HttpResponse<String> r = send(cluster, 1, "INSERT INTO t VALUES (1, 3)");
            return r != null && r.statusCode() == 500 && r.body().contains("(TABLE_IS_READ_ONLY)");
        });
        faults.restartZooKeeperNode(1);
        faults.restartZooKeeperNode(2);
        waitFor("r1 writable again", WAIT, () -> ok(send(cluster, 1, "INSERT INTO t VALUES (1, 3)")));
        waitFor("r2 to fetch all three rows", WAIT, () -> query(cluster, 2, "SELECT count() FROM t").equals("3\n"));
        assertEquals("1\n2\n3\n", query(cluster, 2, "SELECT n FROM t ORDER BY n"));
        assertEquals(2, faults.firedByType().get(FaultType.KILL_ZOOKEEPER_NODE));
        assertThrows(IllegalArgumentException.class, () -> faults.killZooKeeperNode(4));
    }

    private static boolean ok(HttpResponse<String> r) {
        return r != null && r.statusCode() == 200;
    }
}
