package dev.chdedup.stub.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.ConformanceClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's replicas: {@code --replicas 3} in one process, and named replicas in separate processes killed with -9. */
class StubMainReplicasTest {
    @TempDir
    Path dir;

    record Child(Process process, List<String> urls) {
        void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    static Child start(int readyLines, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), StubMain.class.getName(), "--http-port", "0"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        List<String> urls = new ArrayList<>();
        StringBuilder seen = new StringBuilder();
        String line;
        while (urls.size() < readyLines && (line = out.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith("Ready: ")) {
                urls.add(line.substring(7).trim());
            }
        }
        if (urls.size() < readyLines) {
            p.destroyForcibly();
            throw new AssertionError("the stub did not print " + readyLines + " Ready lines:\n" + seen);
        }
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // keep the pipe empty
                }
            } catch (Exception ignored) {
                // the process ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        return new Child(p, urls);
    }

    static void create(String url, String replica) {
        new ConformanceClient(url).query("CREATE TABLE t (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '"
            + replica + "') ORDER BY k");
    }

    /** Every mode one server takes reaches every replica of {@code --replicas}: here {@code --emulate 18.16}. */
    @Test
    void everyReplicaOfOneProcessPlaysTheEmulatedRelease() throws Exception {
        Child c = start(2, "--replicas", "2", "--emulate", "18.16", "--unknown-setting", "max_threads");
        try {
            for (String url : c.urls()) {
                ConformanceClient client = new ConformanceClient(url);
                assertEquals("18.16.1\n", client.query("SELECT version()"), url);
                ConformanceClient.Reply missing = client.send("SELECT * FROM no_such_table");
                assertTrue(missing.body().startsWith("Code: 60, e.displayText() = DB::Exception"), url + ": " + missing.body());
                assertTrue(client.send("SELECT 1", java.util.Map.of("max_threads", "2")).body().contains("Code: 115"), url);
            }
        } finally {
            c.stop();
        }
    }

    /**
     * {@code --shards 2 --replicas 2}: four Ready lines shard by shard; every server lists the same four in
     * system.clusters in that order, itself as the local one, and an ON CLUSTER CREATE puts each shard's pair on a
     * path of its own {@code {shard}} macro.
     */
    @Test
    void twoShardsOfTwoReplicasInOneProcessPrintReadyLinesShardByShard() throws Exception {
        Child c = start(4, "--shards", "2", "--replicas", "2", "--cluster", "c2", "--data-dir", dir.toString());
        try {
            List<String> ports = c.urls().stream().map(u -> u.substring(u.lastIndexOf(':') + 1)).toList();
            for (int i = 0; i < 4; i++) {
                StringBuilder expected = new StringBuilder();
                for (int j = 0; j < 4; j++) {
                    expected.append(j / 2 + 1).append('\t').append(j % 2 + 1).append('\t').append(ports.get(j)).append('\t')
                        .append(i == j ? 1 : 0).append('\n');
                }
                assertEquals(expected.toString(), new ConformanceClient(c.urls().get(i)).query("SELECT shard_num, replica_num, port,"
                    + " is_local FROM system.clusters WHERE cluster = 'c2' ORDER BY shard_num, replica_num"), c.urls().get(i));
            }
            new ConformanceClient(c.urls().get(0)).query("CREATE TABLE t ON CLUSTER c2 (k UInt64) ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/t', '{replica}') ORDER BY k");
            for (int i = 0; i < 4; i++) {
                assertEquals(String.format("/clickhouse/tables/%02d/t\tr%d\n", i / 2 + 1, i % 2 + 1), new ConformanceClient(c.urls().get(i))
                    .query("SELECT zookeeper_path, replica_name FROM system.replicas"));
            }
            assertTrue(Files.isDirectory(dir.resolve("s02").resolve("r2")), "each server's data in DIR/sNN/rN");
        } finally {
            c.stop();
        }
    }

    /**
     * {@code --config-file}: the file's remote_servers are the process's clusters and its macros name the replica and
     * the shard, while an option given on the command line ({@code --cluster}) wins over the file's {cluster} macro.
     */
    @Test
    void aConfigFileGivesClustersAndMacrosAndTheCommandLineWins() throws Exception {
        Path config = dir.resolve("config.xml");
        Files.writeString(config, "<clickhouse><macros><shard>05</shard><replica>rx</replica><cluster>fromfile</cluster></macros>"
            + "<remote_servers><listed><node><host>localhost</host><port>1234</port></node></listed></remote_servers>"
            + "<logger><level>trace</level></logger></clickhouse>");
        Child c = start(1, "--config-file", config.toString(), "--cluster", "cli");
        try {
            ConformanceClient client = new ConformanceClient(c.urls().get(0));
            String port = c.urls().get(0).substring(c.urls().get(0).lastIndexOf(':') + 1);
            assertEquals("cli\t" + port + "\t1\nlisted\t1234\t0\n", client.query("SELECT cluster, port, is_local FROM system.clusters"));
            create(c.urls().get(0), "{replica}");
            assertEquals("/clickhouse/tables/05/t\trx\n", client.query("SELECT zookeeper_path, replica_name FROM system.replicas"));
        } finally {
            c.stop();
        }
    }

    @Test
    void threeReplicasInOneProcessOnAnEmbeddedZooKeeper() throws Exception {
        Child c = start(3, "--replicas", "3");
        try {
            assertEquals(3, c.urls().size());
            assertEquals(3, c.urls().stream().distinct().count(), "each replica has its own port: " + c.urls());
            for (int i = 0; i < 3; i++) {
                create(c.urls().get(i), "{replica}");
            }
            new ConformanceClient(c.urls().get(0)).query("INSERT INTO t VALUES (1), (2)");
            ConformanceClient r3 = new ConformanceClient(c.urls().get(2));
            r3.query("SYSTEM SYNC REPLICA t");
            assertEquals("2\n", r3.query("SELECT count() FROM t"));
            assertEquals("r3\t3\t3\n", r3.query("SELECT replica_name, total_replicas, active_replicas FROM system.replicas"));
        } finally {
            c.stop();
        }
    }

    @Test
    void namedReplicasInSeparateProcessesSurviveAKillNine() throws Exception {
        Path zkDir = Files.createDirectories(dir.resolve("zk"));
        try (TestingServer zk = dev.chdedup.stub.replicated.EmbeddedZooKeeper.start(zkDir.toFile())) {
            Child r1 = start(1, "--replica-name", "r1", "--zookeeper", zk.getConnectString(), "--data-dir", dir.resolve("r1").toString(),
                "--cluster", "pair");
            Child r2 = start(1, "--replica-name", "r2", "--zookeeper", zk.getConnectString(), "--data-dir", dir.resolve("r2").toString(),
                "--cluster", "pair");
            try {
                ConformanceClient c1 = new ConformanceClient(r1.urls().get(0));
                // one ON CLUSTER CREATE from r1 reaches the other process through the DDL queue
                c1.query("CREATE TABLE t ON CLUSTER pair (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}')"
                    + " ORDER BY k");
                ConformanceClient c2 = new ConformanceClient(r2.urls().get(0));
                assertEquals("1\n", c2.query("EXISTS TABLE t"));
                c1.query("INSERT INTO t VALUES (1)");
                c2.query("SYSTEM SYNC REPLICA t");
                r2.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                c1.query("INSERT INTO t VALUES (2)");
                c1.query("INSERT INTO t VALUES (3)");
                r2 = start(1, "--replica-name", "r2", "--zookeeper", zk.getConnectString(), "--data-dir", dir.resolve("r2").toString());
                c2 = new ConformanceClient(r2.urls().get(0));
                c2.query("SYSTEM SYNC REPLICA t");
                assertEquals("1\n2\n3\n", c2.query("SELECT k FROM t ORDER BY k"));
                c2.query("INSERT INTO t VALUES (2)");
                c1.query("SYSTEM SYNC REPLICA t");
                assertEquals("3\n", c1.query("SELECT count() FROM t"), "the restarted replica still sees old blocks as duplicates");
                assertTrue(c1.query("SELECT active_replicas FROM system.replicas").startsWith("2"));
            } finally {
                r1.stop();
                r2.stop();
            }
        }
    }
}
