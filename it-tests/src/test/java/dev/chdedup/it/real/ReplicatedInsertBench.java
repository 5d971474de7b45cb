package dev.chdedup.it.real;

import dev.chdedup.stub.cluster.StubCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The replicated-insert benchmark of issue 8: 2,000 sequential single-row INSERTs over HTTP into a 2-replica
 * ReplicatedMergeTree table (inserts/s, p50, p99), on the stub's StubCluster with its embedded ZooKeeper and, where
 * the Debian {@code clickhouse-server} 18.16 and {@code zookeeper} packages are installed, on a real two-replica
 * ClickHouse ({@link DebianClickHouse}) in the same run; and the readiness time of {@code server-stub --replicas 3}
 * (a child JVM, until its third Ready line) beside the real pair's (ZooKeeper and two servers until they answer
 * /ping); and, for issue 9, the same inserts with {@code insert_quorum=2} into a second table of the same pair (the
 * stub with its default parallel quorum and with {@code insert_quorum_parallel=0}, the quorum 18.16 has). It prints
 * figures and ratios and asserts nothing. Run it (after {@code mvn -o package -DskipTests}) with
 * {@code java -cp "it-tests/target/test-classes:it-tests/target/classes:$(cat it-tests/target/classpath.txt)"
 * dev.chdedup.it.real.ReplicatedInsertBench [inserts]}.
 */
public final class ReplicatedInsertBench {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String CREATE = "CREATE TABLE bench (id UInt64, s String) ENGINE = "
        + "ReplicatedMergeTree('/clickhouse/tables/{shard}/bench', '{replica}') ORDER BY id";
    /** The quorum inserts' tables: {@code bench_q} for the default, {@code bench_q0} for non-parallel quorum. */
    private static final String CREATE_QUORUM = CREATE.replace("bench", "bench_q");
    private static final String QUORUM = "insert_quorum=2";

    private ReplicatedInsertBench() {
    }

    record Figures(double insertsPerSecond, double p50Ms, double p99Ms) {
        @Override
        public String toString() {
            return String.format("%.0f inserts/s, p50 %.2f ms, p99 %.2f ms", insertsPerSecond, p50Ms, p99Ms);
        }
    }

    static void post(String url, String sql) throws IOException, InterruptedException {
        post(url, sql, "");
    }

    static void post(String url, String sql, String params) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/?" + params)).timeout(Duration.ofSeconds(300))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + " for " + sql + ": " + r.body());
        }
    }

    static Figures inserts(String url, int n) throws IOException, InterruptedException {
        return inserts(url, n, "bench", "");
    }

    /** {@code n} timed single-row inserts into {@code table} with the URL parameters {@code params}, after 50 untimed. */
    static Figures inserts(String url, int n, String table, String params) throws IOException, InterruptedException {
        for (int i = 0; i < 50; i++) {
            post(url, "INSERT INTO " + table + " VALUES (" + (1_000_000 + i) + ", 'warm-up')", params);
        }
        long[] ns = new long[n];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            post(url, "INSERT INTO " + table + " VALUES (" + i + ", 'row " + i + "')", params);
            ns[i] = System.nanoTime() - s;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Arrays.sort(ns);
        return new Figures(n / seconds, ns[n / 2] / 1e6, ns[(int) (n * 0.99)] / 1e6);
    }

    /** Milliseconds until {@code server-stub --replicas 3} in a child JVM printed its three Ready lines. */
    static long stubReadinessMs() throws IOException, InterruptedException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), "dev.chdedup.stub.cli.StubMain", "--replicas", "3", "--http-port", "0");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            int ready = 0;
            String line;
            while (ready < 3 && (line = out.readLine()) != null) {
                if (line.startsWith("Ready: ")) {
                    ready++;
                }
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (ready < 3) {
                throw new IOException("server-stub --replicas 3 printed " + ready + " Ready lines");
            }
            return ms;
        } finally {
            p.destroy();
            p.waitFor();
        }
    }

    /**
     * CREATE on a real replica, again while ClickHouse cannot reach ZooKeeper yet (ZooKeeper answers ruok before it
     * serves sessions); readiness is measured up to the moment both replicas have the table.
     */
    static void createWhenZooKeeperAnswers(DebianClickHouse real, int r) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try {
                real.query(r, CREATE);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !e.getMessage().contains("ZooKeeper")) {
                    throw e;
                }
                Thread.sleep(100); // polling a child process for readiness, with a deadline
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        long stubReady = stubReadinessMs();
        System.out.println("stub: server-stub --replicas 3 ready in " + stubReady + " ms (child JVM start included)");
        long c0 = System.nanoTime();
        try (StubCluster three = StubCluster.builder().replicas(3).build().start()) {
            for (String url : three.httpUrls()) {
                post(url, CREATE);
            }
        }
        System.out.println("stub: StubCluster of 3 replicas started and a replicated table created on each in "
            + (System.nanoTime() - c0) / 1_000_000 + " ms (in this JVM)");
        Figures stub;
        Figures stubQuorum;
        Figures stubQuorum0;
        try (StubCluster cluster = StubCluster.builder().replicas(2).build().start()) {
            for (String url : cluster.httpUrls()) {
                post(url, CREATE);
                post(url, CREATE_QUORUM);
                post(url, CREATE.replace("bench", "bench_q0"));
            }
            stub = inserts(cluster.replica(1).httpUrl(), n);
            stubQuorum = inserts(cluster.replica(1).httpUrl(), n, "bench_q", QUORUM);
            stubQuorum0 = inserts(cluster.replica(1).httpUrl(), n, "bench_q0", QUORUM + "&insert_quorum_parallel=0");
            long s0 = System.nanoTime();
            post(cluster.replica(2).httpUrl(), "SYSTEM SYNC REPLICA bench");
            System.out.println("stub: r2 caught up " + (System.nanoTime() - s0) / 1_000_000 + " ms after the last insert");
        }
        System.out.println("stub: " + n + " sequential single-row inserts into a 2-replica table: " + stub);
        System.out.println("stub: " + n + " sequential single-row inserts with insert_quorum=2 (parallel, the default): " + stubQuorum);
        System.out.println("stub: " + n + " sequential single-row inserts with insert_quorum=2, insert_quorum_parallel=0: " + stubQuorum0);
        String missing = DebianClickHouse.missing();
        if (missing != null) {
            System.out.println("real ClickHouse not measured: " + missing);
            return;
        }
        long t0 = System.nanoTime();
        try (DebianClickHouse real = new DebianClickHouse()) {
            long realReady = (System.nanoTime() - t0) / 1_000_000;
            for (int r = 0; r < 2; r++) {
                createWhenZooKeeperAnswers(real, r);
            }
            realReady = (System.nanoTime() - t0) / 1_000_000;
            for (int r = 0; r < 2; r++) {
                real.query(r, CREATE_QUORUM);
            }
            Figures ch = inserts(real.httpUrl(0), n);
            Figures chQuorum = inserts(real.httpUrl(0), n, "bench_q", QUORUM);
            System.out.println("real ClickHouse 18.16: ZooKeeper and 2 replicas ready (table created on both) in " + realReady + " ms");
            System.out.println("real ClickHouse 18.16: " + n + " sequential single-row inserts into a 2-replica table: " + ch);
            System.out.printf("ratio stub/real: inserts/s %.2fx, p50 %.2fx, p99 %.2fx; readiness (3 stub replicas vs 2 real) %.2fx%n",
                stub.insertsPerSecond() / ch.insertsPerSecond(), stub.p50Ms() / ch.p50Ms(), stub.p99Ms() / ch.p99Ms(),
                (double) stubReady / realReady);
            System.out.println("real ClickHouse 18.16: " + n + " sequential single-row inserts with insert_quorum=2: " + chQuorum);
            System.out.printf("ratio stub/real with insert_quorum=2: inserts/s %.2fx (parallel) and %.2fx (insert_quorum_parallel=0), p50 %.2fx,"
                + " p99 %.2fx%n", stubQuorum.insertsPerSecond() / chQuorum.insertsPerSecond(), stubQuorum0.insertsPerSecond() / chQuorum.insertsPerSecond(),
                stubQuorum.p50Ms() / chQuorum.p50Ms(), stubQuorum.p99Ms() / chQuorum.p99Ms());
        }
    }
}
