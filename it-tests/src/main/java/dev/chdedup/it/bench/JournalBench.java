package dev.chdedup.it.bench;

import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.driver.journal.JournalEntry;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The cost of the insert journal ({@code dedup.journalDir}), measured in one process against an embedded stub: our
 * driver with the journal off against the same driver with it on (a directory under {@code java.io.tmpdir}, or
 * {@code --dir}), on (a) sequential single-row PreparedStatement INSERTs in blocks of 50 and (b) PreparedStatement
 * batches of 10,000 rows, alternating in ABBA order after a warm-up, each side into its own table; (c) 4 threads
 * of single-row inserts at once, where the group commit lets one fsync cover several appends; and (d) the bare cost
 * of one append (durable) plus its done mark. Prints on/off ratios of medians, asserts nothing. Run it with
 * {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.bench.JournalBench
 * [--singles 1000] [--batches 20] [--batch-rows 10000] [--dir DIR]}.
 */
public final class JournalBench {
    private static final String COLUMNS = "(id UInt64, s String, v Float64)";
    private final Connection off;
    private final Connection on;
    private final String onUrl;
    private long nextId;

    private JournalBench(StubServer stub, Path dir) throws SQLException {
        String base = "jdbc:dedup:" + stub.jdbcUrl().substring("jdbc:".length());
        this.onUrl = base + "?dedup.journalDir=" + dir;
        this.off = DriverManager.getConnection(base);
        this.on = DriverManager.getConnection(onUrl);
        try (Statement st = off.createStatement()) {
            for (String t : new String[] {"bench_off", "bench_on"}) {
                st.execute("CREATE TABLE default." + t + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 100");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        int singles = 1_000;
        int batches = 20;
        int batchRows = 10_000;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--singles" -> singles = Integer.parseInt(args[++i]);
                case "--batches" -> batches = Integer.parseInt(args[++i]);
                case "--batch-rows" -> batchRows = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                    + "; use [--singles N] [--batches N] [--batch-rows N] [--dir DIR]");
            }
        }
        Path journalDir = dir != null ? dir : Files.createTempDirectory("chdedup-journal-bench");
        Class.forName("dev.chdedup.driver.DedupDriver");
        try (StubServer stub = StubServer.builder().port(0).build().start()) {
            System.out.printf(Locale.ROOT, "JournalBench: stub %s, journal %s (%s), %s %s, %d cores%n", stub.httpUrl(), journalDir,
                Files.getFileStore(journalDir).type(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
            JournalBench b = new JournalBench(stub, journalDir);
            try {
                for (int i = 0; i < 3; i++) {
                    b.batch(false, batchRows);
                    b.batch(true, batchRows);
                }
                for (int i = 0; i < 200; i++) {
                    b.single(false);
                    b.single(true);
                }
                b.abba("(a) single-row PreparedStatement INSERTs, blocks of 50", singles / 50, useOn -> {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < 50; i++) {
                        b.single(useOn);
                    }
                    return System.nanoTime() - t0;
                });
                int rows = batchRows;
                b.abba("(b) PreparedStatement batches of " + rows + " rows", batches, useOn -> b.batch(useOn, rows));
                b.concurrent(4, singles / 4);
                appendCost(journalDir.resolve("bare"), 500);
            } finally {
                b.off.close();
                b.on.close();
                DedupJournal.open(journalDir).close();
            }
        } finally {
            if (dir == null) {
                try (Stream<Path> s = Files.walk(journalDir)) {
                    s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private interface Run {
        long nanos(boolean useOn) throws Exception;
    }

    private void abba(String what, int n, Run run) throws Exception {
        long[] offNanos = new long[n];
        long[] onNanos = new long[n];
        for (int i = 0; i < n; i++) {
            if ((i & 1) == 0) {
                offNanos[i] = run.nanos(false);
                onNanos[i] = run.nanos(true);
            } else {
                onNanos[i] = run.nanos(true);
                offNanos[i] = run.nanos(false);
            }
        }
        System.out.printf(Locale.ROOT, "%n%s, %d runs per side%n  off: median %8.2f ms%n  on : median %8.2f ms%n  on/off: %.3f%n",
            what, n, DriverBench.median(offNanos) / 1e6, DriverBench.median(onNanos) / 1e6,
            DriverBench.median(onNanos) / DriverBench.median(offNanos));
    }

    /** (c) {@code threads} threads, each with its own connection, {@code each} single-row inserts; off then on then off then on. */
    private void concurrent(int threads, int each) throws Exception {
        String base = onUrl.substring(0, onUrl.indexOf('?'));
        double[] perSecond = new double[4];
        for (int r = 0; r < 4; r++) {
            boolean useOn = r % 2 == 1;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> fs = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                fs.add(pool.submit(() -> {
                    try (Connection c = DriverManager.getConnection(useOn ? onUrl : base)) {
                        for (int i = 0; i < each; i++) {
                            insert(c, useOn, nextIdSync());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            perSecond[r] = threads * each / ((System.nanoTime() - t0) / 1e9);
            pool.shutdown();
        }
        double offRate = (perSecond[0] + perSecond[2]) / 2;
        double onRate = (perSecond[1] + perSecond[3]) / 2;
        System.out.printf(Locale.ROOT, "%n(c) %d threads x %d single-row INSERTs%n  off: %,.0f inserts/s%n  on : %,.0f inserts/s%n"
            + "  on/off time: %.3f%n", threads, each, offRate, onRate, offRate / onRate);
    }

    /** (d) The journal alone: {@code n} appends of a one-row entry, each durable, each followed by its done mark. */
    private static void appendCost(Path dir, int n) throws SQLException {
        DedupJournal j = DedupJournal.open(dir);
        JournalEntry e = new JournalEntry(-1, "t", "default", "t", "INSERT_VALUES", 1, "INSERT INTO default.t VALUES (1, 'a', 0.5)",
            Map.of("insert_deduplication_token", "t"), System.currentTimeMillis());
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            j.done(j.append(e));
        }
        System.out.printf(Locale.ROOT, "%n(d) journal alone: %d durable appends + done marks, %.3f ms each%n", n,
            (System.nanoTime() - t0) / 1e6 / n);
        j.close();
    }

    private synchronized long nextIdSync() {
        return nextId++;
    }

    private long single(boolean useOn) throws SQLException {
        insert(useOn ? on : off, useOn, nextIdSync());
        return 0;
    }

    private static void insert(Connection c, boolean useOn, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO default." + (useOn ? "bench_on" : "bench_off") + " VALUES (?, ?, ?)")) {
            ps.setLong(1, id);
            ps.setString(2, "row " + id);
            ps.setDouble(3, id * 0.5);
            ps.executeUpdate();
        }
    }

    private long batch(boolean useOn, int rows) throws SQLException {
        long t0 = System.nanoTime();
        try (PreparedStatement ps = (useOn ? on : off).prepareStatement("INSERT INTO default." + (useOn ? "bench_on" : "bench_off")
            + " VALUES (?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                long id = nextIdSync();
                ps.setLong(1, id);
                ps.setString(2, "row " + id);
                ps.setDouble(3, id * 0.5);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return System.nanoTime() - t0;
    }
}
