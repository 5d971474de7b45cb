package dev.chdedup.it.real;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real ClickHouse from the Debian packages ({@code clickhouse-server} 18.16, {@code zookeeper} 3.8) started for one
 * test class: one ZooKeeper and two servers (or more), each a process of its own on 127.0.0.1 with free ports, its own config
 * and data in one temporary directory that {@link #close()} removes after stopping the processes it started. Nothing of
 * the system service is used. The servers are the replicas of one shard (macros {@code {shard}} 01, {@code {replica}} r1,
 * r2...) or, with {@link Layout#SHARDS}, one shard each ({@code {shard}} 01, 02..., {@code {replica}} r1); either way
 * every server's {@code remote_servers} has the cluster {@link #CLUSTER} of them all, with internal replication.
 * {@link #missing()} says why it cannot run here (the test then skips).
 */
final class DebianClickHouse implements AutoCloseable {
    static final Path[] SERVER_BINARIES = {Path.of("/usr/bin/clickhouse-server"), Path.of("/usr/sbin/clickhouse-server"),
        Path.of("/usr/bin/clickhouse")};
    static final Path ZOOKEEPER_JAR = Path.of("/usr/share/java/zookeeper.jar");
    static final Path ZOOKEEPER_JUTE_JAR = Path.of("/usr/share/java/zookeeper-jute.jar");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** The cluster of every server, in {@code remote_servers}. */
    static final String CLUSTER = "test_cluster";

    /** How the servers make up the cluster. */
    enum Layout {
        /** Replicas of one shard. */
        REPLICAS,
        /** One shard each, of one replica. */
        SHARDS
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private final int zkPort;
    private final int[] httpPorts;
    private final int[] tcpPorts;
    private final Layout layout;
    private final Process[] replicaProcesses;
    private final Thread reaper = new Thread(this::stopProcesses, "debian-clickhouse-reaper");

    /** Why no real server can start here, or null when the packages are installed. */
    static String missing() {
        if (server() == null) {
            return "no clickhouse-server binary (apt-get install clickhouse-server zookeeper to run this test)";
        }
        if (!Files.isRegularFile(ZOOKEEPER_JAR) || !Files.isRegularFile(ZOOKEEPER_JUTE_JAR)) {
            return "no " + ZOOKEEPER_JAR + " (apt-get install zookeeper to run this test)";
        }
        return null;
    }

    /** Starts {@code replicas} servers, or skips the calling test (a JUnit assumption) where the packages are missing. */
    static DebianClickHouse startOrSkip(int replicas) throws IOException, InterruptedException {
        String why = missing();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, () -> "Skipped: " + why);
        return new DebianClickHouse(replicas);
    }

    /** Starts {@code servers} servers as the shards of {@link #CLUSTER}, or skips the calling test where the packages are missing. */
    static DebianClickHouse startShardsOrSkip(int servers) throws IOException, InterruptedException {
        String why = missing();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, () -> "Skipped: " + why);
        return new DebianClickHouse(servers, Layout.SHARDS);
    }

    /** Closes what a test class started, the last first; those never started (null) are passed over. */
    static void closeAll(AutoCloseable... started) throws Exception {
        for (int i = started.length - 1; i >= 0; i--) {
            if (started[i] != null) {
                started[i].close();
            }
        }
    }

    private static Path server() {
        for (Path p : SERVER_BINARIES) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    DebianClickHouse() throws IOException, InterruptedException {
        this(2);
    }

    /** {@code replicas} servers (r1, r2, ...) on one ZooKeeper. */
    DebianClickHouse(int replicas) throws IOException, InterruptedException {
        this(replicas, Layout.REPLICAS);
    }

    /** {@code servers} servers on one ZooKeeper, as {@code layout} says. */
    DebianClickHouse(int servers, Layout layout) throws IOException, InterruptedException {
        int replicas = servers;
        this.layout = layout;
        httpPorts = new int[replicas];
        tcpPorts = new int[replicas];
        replicaProcesses = new Process[replicas];
        dir = Files.createTempDirectory("chdedup-real-1816-");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            zkPort = freePort();
            startZooKeeper();
            for (int r = 0; r < replicas; r++) {
                httpPorts[r] = freePort();
                tcpPorts[r] = freePort();
            }
            for (int r = 0; r < replicas; r++) {
                startReplica(r);
            }
            for (int r = 0; r < replicas; r++) {
                awaitPing(r);
                awaitZooKeeperSession(r);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    int httpPort(int replica) {
        return httpPorts[replica];
    }

    /** Where replica {@code replica} keeps a table's parts. */
    Path tableData(int replica, String database, String table) {
        return dir.resolve("r" + (replica + 1)).resolve("data").resolve("data").resolve(database).resolve(table);
    }

    String httpUrl(int replica) {
        return "http://127.0.0.1:" + httpPorts[replica];
    }

    /** Runs {@code sql} on a replica over plain HTTP and returns the body; a non-200 answer is an IOException with the body. */
    String query(int replica, String sql) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(httpUrl(replica) + "/")).timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    private void startZooKeeper() throws IOException, InterruptedException {
        Path zk = Files.createDirectories(dir.resolve("zookeeper"));
        Path cfg = zk.resolve("zoo.cfg");
        Files.writeString(cfg, "tickTime=2000\ndataDir=" + zk.resolve("data") + "\nclientPort=" + zkPort + "\nclientPortAddress=127.0.0.1\n"
            + "admin.enableServer=false\n4lw.commands.whitelist=ruok\nmaxClientCnxns=0\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        start(zk, List.of(java, "-Xmx256m", "-cp", ZOOKEEPER_JAR + ":" + ZOOKEEPER_JUTE_JAR, "org.apache.zookeeper.server.ZooKeeperServerMain",
            cfg.toString()));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!"imok".equals(fourLetterWord("ruok"))) {
            if (System.nanoTime() > deadline) {
                throw new IOException("ZooKeeper did not answer ruok on port " + zkPort + "; see " + zk.resolve("out.log"));
            }
            Thread.sleep(100); // polling a child process for readiness, with a deadline
        }
    }

    private String fourLetterWord(String word) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", zkPort), 1000);
            s.setSoTimeout(1000);
            OutputStream out = s.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return null;
        }
    }

    private void startReplica(int r) throws IOException {
        Path d = Files.createDirectories(dir.resolve("r" + (r + 1)));
        Files.createDirectories(d.resolve("log"));
        String config = """
            <?xml version="1.0"?>
            <yandex>
              <logger><level>information</level><log>%1$s/log/server.log</log><errorlog>%1$s/log/err.log</errorlog><size>100M</size><count>1</count></logger>
              <listen_host>127.0.0.1</listen_host>
              <http_port>%2$d</http_port><tcp_port>%3$d</tcp_port><interserver_http_port>%4$d</interserver_http_port>
              <interserver_http_host>127.0.0.1</interserver_http_host>
              <path>%1$s/data/</path><tmp_path>%1$s/tmp/</tmp_path><user_files_path>%1$s/user_files/</user_files_path>
              <format_schema_path>%1$s/format_schemas/</format_schema_path>
              <users_config>%1$s/users.xml</users_config>
              <default_profile>default</default_profile><default_database>default</default_database>
              <mark_cache_size>67108864</mark_cache_size>
              <keep_alive_timeout>10</keep_alive_timeout>
              <mlock_executable>false</mlock_executable>
              <zookeeper><node><host>127.0.0.1</host><port>%5$d</port></node><session_timeout_ms>30000</session_timeout_ms></zookeeper>
              <macros><shard>%6$s</shard><replica>%7$s</replica></macros>
              <remote_servers><%8$s>%9$s</%8$s></remote_servers>
            </yandex>
            """.formatted(d, httpPorts[r], tcpPorts[r], freePort(), zkPort, shardMacro(r), replicaMacro(r), CLUSTER, remoteServers());
        Files.writeString(d.resolve("config.xml"), config);
        Files.writeString(d.resolve("users.xml"), """
            <?xml version="1.0"?>
            <yandex>
              <profiles><default></default></profiles>
              <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
              <quotas><default></default></quotas>
            </yandex>
            """);
        replicaProcesses[r] = start(d, List.of(server().toString(), "--config-file=" + d.resolve("config.xml")));
    }

    /** The {@code {shard}} macro of server {@code r}. */
    String shardMacro(int r) {
        return String.format("%02d", layout == Layout.SHARDS ? r + 1 : 1);
    }

    /** The {@code {replica}} macro of server {@code r}. */
    String replicaMacro(int r) {
        return "r" + (layout == Layout.SHARDS ? 1 : r + 1);
    }

    /** The shards of {@link #CLUSTER} as {@code remote_servers} lists them, in server order. */
    private String remoteServers() {
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < tcpPorts.length; r++) {
            if (layout == Layout.SHARDS || r == 0) {
                out.append("<shard><internal_replication>true</internal_replication>");
            }
            out.append("<replica><host>127.0.0.1</host><port>").append(tcpPorts[r]).append("</port></replica>");
            if (layout == Layout.SHARDS || r == tcpPorts.length - 1) {
                out.append("</shard>");
            }
        }
        return out.toString();
    }

    /**
     * Stops server {@code r} where it stands (SIGSTOP): it holds its connections and answers nothing until {@link #thaw}, as a
     * server stalled by a long GC pause, a full disk or a hung NFS mount does.
     */
    void freeze(int r) throws IOException, InterruptedException {
        signal(r, "-STOP");
    }

    /** Kills server {@code r} (SIGKILL): it stops where it stands, its connections reset; {@link #restartCrashed} starts it again. */
    void kill(int r) throws InterruptedException {
        replicaProcesses[r].destroyForcibly().waitFor();
    }

    /** Lets a server stopped by {@link #freeze} go on (SIGCONT). */
    void thaw(int r) throws IOException, InterruptedException {
        signal(r, "-CONT");
    }

    private void signal(int r, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(replicaProcesses[r].pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill " + signal + " " + replicaProcesses[r].pid() + " failed");
        }
    }

    /** Whether replica {@code r}'s process is still running (a crash of the reference is told from a wrong answer by this). */
    boolean alive(int replica) {
        return replicaProcesses[replica].isAlive();
    }

    /** Starts a crashed replica again on its config and data, and waits until it serves with a ZooKeeper session. */
    void restartCrashed(int replica) throws IOException, InterruptedException {
        if (alive(replica)) {
            throw new IllegalStateException("replica r" + (replica + 1) + " is running");
        }
        Path d = dir.resolve("r" + (replica + 1));
        replicaProcesses[replica] = start(d, List.of(server().toString(), "--config-file=" + d.resolve("config.xml")));
        awaitPing(replica);
        awaitZooKeeperSession(replica);
    }

    /** The tail of a replica's error log, for a report. */
    String errorLogTail(int replica, int lines) {
        try {
            List<String> all = Files.readAllLines(dir.resolve("r" + (replica + 1)).resolve("log").resolve("err.log"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no error log: " + e.getMessage() + ")";
        }
    }

    private Process start(Path workDir, List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve("out.log").toFile())).start();
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    private void awaitPing(int r) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                HttpResponse<String> resp = HTTP.send(HttpRequest.newBuilder(URI.create(httpUrl(r) + "/ping")).timeout(Duration.ofSeconds(2))
                    .build(), HttpResponse.BodyHandlers.ofString());
                if (resp.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("replica r" + (r + 1) + " did not answer /ping; see " + dir.resolve("r" + (r + 1)).resolve("log"));
            }
            Thread.sleep(100); // polling a child process for readiness, with a deadline
        }
    }

    /**
     * Waits until a replica's ZooKeeper session is up (it reads system.zookeeper): a server answers /ping before its
     * session's handshake is done, and a CREATE TABLE of a replicated table meanwhile fails.
     */
    private void awaitZooKeeperSession(int r) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            try {
                query(r, "SELECT count() FROM system.zookeeper WHERE path = '/'");
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("replica r" + (r + 1) + " has no ZooKeeper session: " + e.getMessage(), e);
                }
            }
            Thread.sleep(100); // polling a child process for readiness, with a deadline
        }
    }

    private void stopProcesses() {
        List<Process> all;
        synchronized (processes) {
            all = new ArrayList<>(processes);
            processes.clear();
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Process p = all.get(i);
            p.destroy();
            try {
                if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        stopProcesses();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
