package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The batched reads of {@link ZooKeeperClient} against a real embedded ZooKeeper: values, stats and missing nodes in order. */
class ZooKeeperClientTest {
    @TempDir
    Path dir;

    @Test
    void getNodesReadsSeveralNodesInOneRoundTripWithMissingOnesAsNull() throws Exception {
        try (TestingServer server = EmbeddedZooKeeper.start(Files.createDirectories(dir.resolve("zk")).toFile());
             ZooKeeperClient zk = new ZooKeeperClient(server.getConnectString(), 10_000)) {
            zk.create("/a", "first", CreateMode.PERSISTENT);
            zk.create("/a/b", "", CreateMode.PERSISTENT);
            zk.set("/a", "second");
            List<ZooKeeperClient.Node> nodes = zk.getNodes(List.of("/a", "/missing", "/a/b", "/a/missing/deeper"));
            assertEquals(4, nodes.size());
            assertEquals("second", nodes.get(0).value());
            assertEquals(1, nodes.get(0).stat().getVersion(), "the stat comes along");
            assertNull(nodes.get(1));
            assertEquals("", nodes.get(2).value(), "an empty value is not a missing node");
            assertNull(nodes.get(3));
            assertEquals(Arrays.asList("second", null, ""), zk.getAll(List.of("/a", "/missing", "/a/b")));
            assertEquals(List.of(), zk.getAll(List.of()));
        }
    }
}
