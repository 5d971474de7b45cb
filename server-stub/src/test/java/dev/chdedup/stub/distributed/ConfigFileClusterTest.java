package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two stub servers described only by ClickHouse config files, as two hosts of a team's cluster would be: each file
 * names the shared ZooKeeper, the server's macros, and remote_servers listing both servers (as localhost, not the
 * address they registered with) as two shards of one cluster. Each knows the cluster with itself as the local
 * replica, and one ON CLUSTER CREATE from either reaches both, each taking its own {shard} macro.
 */
class ConfigFileClusterTest {
    @TempDir
    Path dir;

    private static String config(String zk, int shard, String remoteServers) {
        return "<clickhouse><zookeeper><node><host>" + zk.substring(0, zk.lastIndexOf(':')) + "</host><port>" + zk.substring(zk.lastIndexOf(':') + 1)
            + "</port></node><session_timeout_ms>8000</session_timeout_ms></zookeeper><macros><shard>0" + shard + "</shard>"
            + "<replica>r1</replica><cluster>team</cluster></macros>" + remoteServers + "</clickhouse>";
    }

    @Test
    void twoServersFromConfigFilesMakeOneClusterOfTwoShards() throws Exception {
        try (TestingServer zk = dev.chdedup.stub.replicated.EmbeddedZooKeeper.start(Files.createDirectories(dir.resolve("zk")).toFile())) {
            Path[] files = {dir.resolve("a").resolve("config.xml"), dir.resolve("b").resolve("config.xml")};
            for (int i = 0; i < 2; i++) {
                Files.createDirectories(files[i].getParent());
                Files.writeString(files[i], config(zk.getConnectString(), i + 1, ""));
            }
            try (StubServer a = StubServer.builder().port(0).configFile(files[0]).build().start();
                 StubServer b = StubServer.builder().port(0).configFile(files[1]).build().start()) {
                // the ports are known now: the files get their remote_servers, and the servers read them again (the API, SYSTEM RELOAD CONFIG)
                String remote = "<remote_servers><team><shard><internal_replication>true</internal_replication><replica><host>localhost</host>"
                    + "<port>" + a.port() + "</port></replica></shard><shard><internal_replication>true</internal_replication><replica>"
                    + "<host>localhost</host><port>" + b.port() + "</port></replica></shard></team></remote_servers>";
                for (int i = 0; i < 2; i++) {
                    Files.writeString(files[i], config(zk.getConnectString(), i + 1, remote));
                }
                a.reloadConfig();
                new ConformanceClient(b.httpUrl()).query("SYSTEM RELOAD CONFIG");
                StubServer[] servers = {a, b};
                for (int i = 0; i < 2; i++) {
                    assertEquals("1\tlocalhost\t" + a.port() + "\t" + (i == 0 ? 1 : 0) + "\n2\tlocalhost\t" + b.port() + "\t" + (i == 1 ? 1 : 0) + "\n",
                        new ConformanceClient(servers[i].httpUrl()).query("SELECT shard_num, host_name, port, is_local FROM system.clusters"
                            + " WHERE cluster = 'team' ORDER BY shard_num"));
                    assertEquals(List.of(a.port(), b.port()), servers[i].clusters().get("team").addresses().stream().map(Cluster.Address::port).toList());
                }
                String answer = new ConformanceClient(b.httpUrl()).query("CREATE TABLE t ON CLUSTER '{cluster}' (k UInt64) ENGINE ="
                    + " ReplicatedMergeTree('/clickhouse/tables/{shard}/{table}', '{replica}') ORDER BY k");
                assertEquals(java.util.stream.Stream.of(a.port(), b.port()).map(p -> "localhost\t" + p + "\t0\t\n").sorted()
                    .reduce("", String::concat), answer.lines()
                    .map(l -> String.join("\t", java.util.Arrays.asList(l.split("\t", -1)).subList(0, 4)) + "\n").sorted().reduce("", String::concat));
                for (int i = 0; i < 2; i++) {
                    assertEquals("/clickhouse/tables/0" + (i + 1) + "/t\tr1\n", new ConformanceClient(servers[i].httpUrl()).query(
                        "SELECT zookeeper_path, replica_name FROM system.replicas WHERE table = 't'"));
                }
            }
        }
    }
}
