package dev.chdedup.it.chaos;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.stub.cluster.ClusterFaults;
import dev.chdedup.stub.cluster.ExactlyOnceChecker;
import dev.chdedup.stub.cluster.FaultSchedule;
import dev.chdedup.stub.cluster.StubCluster;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a chaos workload against a cluster: creates the tables, starts the seeded fault schedule, lets the writers
 * write their batches (each through HikariCP pools of our driver, one per replica, with and without
 * {@code insert_quorum=2} and with keeper faults while the schedule turns them on; with the raw official driver
 * writing the same batches into a second table as the contrast), prints a progress line every few seconds, heals the
 * cluster and checks both tables with {@link ExactlyOnceChecker}.
 */
public final class Workload {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Workload.class);
    static final int SOCKET_TIMEOUT_MS = 3000;
    static final double KEEPER_FAULT_PROBABILITY = 0.2;
    static final String OURS = "default.chaos_events";
    static final String RAW = "default.chaos_raw";
    private static final String RETRY = "retry.initialBackoffMs=50&retry.maxBackoffMs=1000&retry.maxAttempts=15&retry.maxElapsedMs=60000";

    private final StubCluster cluster;
    private final ChaosConfig config;
    private final PrintStream out;
    private final Tally ours = new Tally();
    private final Tally raw = new Tally();
    private final ExactlyOnceChecker oursChecker = new ExactlyOnceChecker("default", "chaos_events", "batch");
    private final ExactlyOnceChecker rawChecker = new ExactlyOnceChecker("default", "chaos_raw", "batch");
    /** pools[driver 0 ours / 1 raw][replica - 1][quorum * 2 + keeper faults]. */
    private final HikariDataSource[][][] pools;

    public Workload(StubCluster cluster, ChaosConfig config, PrintStream out) {
        this.cluster = cluster;
        this.config = config;
        this.out = out;
        this.pools = new HikariDataSource[2][cluster.size()][4];
    }

    public ChaosReport run() throws Exception {
        createTables();
        openPools();
        ClusterFaults faults = cluster.faults();
        FaultSchedule schedule = config.schedule();
        long t0 = System.nanoTime();
        ExecutorService writers = Executors.newFixedThreadPool(config.writers());
        Thread progress = progress(t0);
        FaultSchedule.Runner runner = schedule.start(faults, cluster.size(), "default", "chaos_events");
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < config.writers(); w++) {
                int writer = w;
                done.add(writers.submit(() -> write(writer, t0)));
            }
            for (Future<?> f : done) {
                f.get();
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (runner.applied() < config.minFaults() && runner.failure() == null && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        } finally {
            runner.close();
            writers.shutdownNow();
            progress.interrupt();
            closePools();
        }
        long writeMillis = (System.nanoTime() - t0) / 1_000_000;
        ExactlyOnceChecker.Result oursResult = oursChecker.check(cluster, config.convergenceDeadline());
        ExactlyOnceChecker.Result rawResult = config.rawContrast() ? rawChecker.check(cluster, config.convergenceDeadline()) : null;
        return new ChaosReport(config, writeMillis, ours, raw, faults.firedByType(), failpointHits(), runner.failure(), oursResult, rawResult);
    }

    private void write(int writer, long t0) {
        List<Batch> batches = Batch.plan(config.seed(), writer, config.batches(), config.largeBatchEvery());
        Random r = new Random(config.seed() * 17 + writer);
        long pace = config.duration().toNanos() / Math.max(1, config.batches());
        for (int i = 0; i < batches.size(); i++) {
            long due = t0 + i * pace;
            while (System.nanoTime() < due) {
                LockSupport.parkNanos(due - System.nanoTime());
            }
            Batch b = batches.get(i);
            int replica = (writer + i) % cluster.size();
            int variant = (r.nextDouble() < config.quorumShare() ? 2 : 0) + (cluster.faults().insertKeeperFaultProbability() > 0 ? 1 : 0);
            writeOurs(b, replica, variant);
            if (config.rawContrast()) {
                writeRaw(b, replica, variant);
            }
        }
    }

    private void writeOurs(Batch b, int replica, int variant) {
        for (int hop = 0; hop < cluster.size() * 2; hop++) {
            HikariDataSource pool = pools[0][(replica + hop) % cluster.size()][variant];
            Connection c;
            try {
                c = pool.getConnection();
            } catch (SQLException e) {
                continue; // that replica is down: the application tries the next one; nothing was sent
            }
            try (c) {
                Batch.Sent sent = b.insert(c, OURS);
                LOG.debug("batch {} acknowledged by r{} after {} attempt(s), token {}", b.id(), (replica + hop) % cluster.size() + 1,
                    sent.attempts(), sent.token());
                oursChecker.acknowledged(b.id(), b.rows());
                ours.acknowledged(b.rows(), sent.attempts() > 1);
            } catch (SQLException e) {
                DedupInsertException d = dedupCause(e);
                if (d != null) {
                    oursChecker.failed(b.id(), b.rows(), d.outcomeUnknown());
                    ours.failed(d.outcomeUnknown(), d.getMessage());
                } else if (e instanceof SQLTransientConnectionException) {
                    LOG.warn("batch {}: r{} refused the insert, trying the next replica: {}", b.id(), (replica + hop) % cluster.size() + 1, e.toString());
                    continue;
                } else {
                    oursChecker.failed(b.id(), b.rows(), true);
                    ours.failed(true, "not a DedupInsertException: " + e);
                }
            }
            return;
        }
        oursChecker.failed(b.id(), b.rows(), false);
        ours.failed(false, "no replica gave a connection");
    }

    /** The raw official driver with the retry loop an application writes around it: up to 3 attempts. */
    private void writeRaw(Batch b, int replica, int variant) {
        SQLException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Connection c = pools[1][(replica + attempt) % cluster.size()][variant].getConnection()) {
                b.insert(c, RAW);
                rawChecker.acknowledged(b.id(), b.rows());
                raw.acknowledged(b.rows(), attempt > 0);
                return;
            } catch (SQLException e) {
                last = e;
            }
        }
        rawChecker.failed(b.id(), b.rows(), true);
        raw.failed(true, String.valueOf(last));
    }

    private static DedupInsertException dedupCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DedupInsertException) {
                return (DedupInsertException) t;
            }
        }
        return null;
    }

    private void createTables() throws SQLException {
        for (int i = 1; i <= cluster.size(); i++) {
            try (Connection c = DriverManager.getConnection(cluster.replica(i).jdbcUrl()); java.sql.Statement st = c.createStatement()) {
                for (String t : new String[] {"chaos_events", "chaos_raw"}) {
                    st.execute("CREATE TABLE IF NOT EXISTS default." + t + " (batch UInt64, seq UInt32, payload String) ENGINE = "
                        + "ReplicatedMergeTree('/clickhouse/tables/{shard}/default/" + t + "', '{replica}') ORDER BY (batch, seq)");
                }
            }
        }
    }

    private void openPools() {
        for (int d = 0; d < 2; d++) {
            for (int i = 0; i < cluster.size(); i++) {
                for (int v = 0; v < 4; v++) {
                    String base = cluster.replica(i + 1).jdbcUrl() + "?socket_timeout=" + SOCKET_TIMEOUT_MS
                        + ((v & 2) != 0 ? "&clickhouse_setting_insert_quorum=2" : "")
                        + ((v & 1) != 0 ? "&clickhouse_setting_insert_keeper_fault_injection_probability=" + KEEPER_FAULT_PROBABILITY : "");
                    HikariConfig hc = new HikariConfig();
                    hc.setPoolName((d == 0 ? "dedup" : "raw") + "-r" + (i + 1) + "-" + v);
                    hc.setJdbcUrl(d == 0 ? "jdbc:dedup:" + base.substring("jdbc:".length()) + "&" + RETRY : base);
                    hc.setMaximumPoolSize(Math.max(2, config.writers() / 2));
                    hc.setMinimumIdle(0);
                    hc.setInitializationFailTimeout(-1);
                    hc.setConnectionTimeout(3_000);
                    pools[d][i][v] = new HikariDataSource(hc);
                }
            }
        }
    }

    private void closePools() {
        for (HikariDataSource[][] byDriver : pools) {
            for (HikariDataSource[] byReplica : byDriver) {
                for (HikariDataSource p : byReplica) {
                    if (p != null) {
                        p.close();
                    }
                }
            }
        }
    }

    private java.util.Map<dev.chdedup.stub.fault.FaultKind, Integer> failpointHits() {
        java.util.Map<dev.chdedup.stub.fault.FaultKind, Integer> m = new java.util.EnumMap<>(dev.chdedup.stub.fault.FaultKind.class);
        for (var s : cluster.replicas()) {
            for (var e : s.faults().journal()) {
                m.merge(e.kind(), 1, Integer::sum);
            }
        }
        return m;
    }

    private Thread progress(long t0) {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    TimeUnit.SECONDS.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
                List<ClusterFaults.Fired> log = cluster.faults().log();
                out.printf("[%4ds] ours: %s | raw: %s | faults %d%s%n", (System.nanoTime() - t0) / 1_000_000_000, ours, raw, log.size(),
                    log.isEmpty() ? "" : " (last: " + log.get(log.size() - 1) + ")");
            }
        }, "chaos-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
