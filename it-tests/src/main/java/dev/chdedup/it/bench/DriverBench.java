package dev.chdedup.it.bench;

import dev.chdedup.stub.server.StubServer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.Locale;

/**
 * The driver's overhead, measured in one process against an embedded stub: the raw official driver
 * ({@code jdbc:clickhouse://}) against ours ({@code jdbc:dedup:clickhouse://}) on (a) PreparedStatement batches of
 * 10,000 rows and (b) sequential single-row INSERTs (prepared, and plain Statement), after a warm-up, with raw and ours alternating in ABBA order so
 * that drift (JIT, parts piling up in the stub, GC) falls on both sides alike; and (c) the heap a recorded batch of
 * 100,000 rows holds, next to the size of the SQL it renders to. Each side writes to its own table of the same
 * definition (with a deduplication log, as the driver recommends), always with distinct rows. Prints its figures,
 * asserts nothing. Run it with
 * {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.bench.DriverBench
 * [--batches 20] [--batch-rows 10000] [--singles 2000] [--memory-rows 100000]}.
 */
public final class DriverBench {
    private static final String COLUMNS = "(id UInt64, s String, v Float64, ts DateTime64(3, 'UTC'))";
    private static final long BASE_MILLIS = 1_700_000_000_000L;

    private final String rawUrl;
    private final String oursUrl;
    private final Connection raw;
    private final Connection ours;
    /** The next id per side: rows are never repeated, so no insert is ever deduplicated. */
    private long rawNext;
    private long oursNext;

    private DriverBench(StubServer stub) throws SQLException {
        this.rawUrl = stub.jdbcUrl();
        this.oursUrl = "jdbc:dedup:" + rawUrl.substring("jdbc:".length());
        this.raw = DriverManager.getConnection(rawUrl);
        this.ours = DriverManager.getConnection(oursUrl);
        try (Statement st = raw.createStatement()) {
            for (String t : new String[] {"bench_raw", "bench_ours"}) {
                st.execute("CREATE TABLE default." + t + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 100");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        int batches = 20;
        int batchRows = 10_000;
        int singles = 2_000;
        int memoryRows = 100_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batches" -> batches = Integer.parseInt(args[++i]);
                case "--batch-rows" -> batchRows = Integer.parseInt(args[++i]);
                case "--singles" -> singles = Integer.parseInt(args[++i]);
                case "--memory-rows" -> memoryRows = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                    + "; use [--batches N] [--batch-rows N] [--singles N] [--memory-rows N]");
            }
        }
        Class.forName("dev.chdedup.driver.DedupDriver");
        try (StubServer stub = StubServer.builder().port(0).build().start()) {
            System.out.printf(Locale.ROOT, "DriverBench: stub %s, %s %s, %d cores, max heap %d MB%n", stub.httpUrl(),
                System.getProperty("java.vm.name"), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
            DriverBench bench = new DriverBench(stub);
            try {
                bench.warmUp(batchRows);
                bench.batches(batches, batchRows);
                bench.singles(singles);
                bench.memory(memoryRows);
                bench.check();
            } finally {
                bench.raw.close();
                bench.ours.close();
            }
        }
    }

    private void warmUp(int batchRows) throws SQLException {
        long t0 = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            batch(false, batchRows);
            batch(true, batchRows);
        }
        for (int i = 0; i < 300; i++) {
            single(false);
            single(true);
        }
        System.out.printf(Locale.ROOT, "warm-up: 5 batches and 300 single inserts per side, %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }

    /** (a) {@code n} batches of {@code rows} rows per side, ABBA order; each timing covers setting, addBatch and executeBatch. */
    private void batches(int n, int rows) throws SQLException {
        long[] rawNanos = new long[n];
        long[] oursNanos = new long[n];
        for (int i = 0; i < n; i++) {
            boolean oursFirst = (i & 1) == 1;
            if (oursFirst) {
                oursNanos[i] = batch(true, rows);
                rawNanos[i] = batch(false, rows);
            } else {
                rawNanos[i] = batch(false, rows);
                oursNanos[i] = batch(true, rows);
            }
        }
        System.out.printf(Locale.ROOT, "%n(a) PreparedStatement batches: %d x %,d rows per side%n", n, rows);
        report(rawNanos, oursNanos, rows, "batch", 1.05);
    }

    /**
     * (b) {@code n} sequential single-row INSERTs per side, alternating in blocks of 100 in ABBA order: through
     * PreparedStatement.executeUpdate, then through Statement.executeUpdate with the values inline.
     */
    private void singles(int n) throws SQLException {
        singles(n, true);
        singles(n, false);
    }

    private void singles(int n, boolean prepared) throws SQLException {
        int block = 100;
        int blocks = Math.max(1, n / block);
        long[] rawNanos = new long[blocks];
        long[] oursNanos = new long[blocks];
        for (int b = 0; b < blocks; b++) {
            boolean oursFirst = (b & 1) == 1;
            for (int side = 0; side < 2; side++) {
                boolean useOurs = oursFirst == (side == 0);
                long t0 = System.nanoTime();
                for (int i = 0; i < block; i++) {
                    if (prepared) {
                        single(useOurs);
                    } else {
                        singleStatement(useOurs);
                    }
                }
                long d = System.nanoTime() - t0;
                if (useOurs) {
                    oursNanos[b] = d;
                } else {
                    rawNanos[b] = d;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%n(b) single-row INSERTs (%s.executeUpdate): %,d sequential per side, in blocks of %d%n",
            prepared ? "PreparedStatement" : "Statement", blocks * block, block);
        report(rawNanos, oursNanos, block, "block", 1.10);
    }

    private static void report(long[] rawNanos, long[] oursNanos, int rowsPerRun, String unit, double target) {
        long rawTotal = Arrays.stream(rawNanos).sum();
        long oursTotal = Arrays.stream(oursNanos).sum();
        long rows = (long) rowsPerRun * rawNanos.length;
        System.out.printf(Locale.ROOT, "  raw : total %8.1f ms, %,9.0f rows/s; per %s: median %7.2f, trimmed mean %7.2f, max %7.2f ms%n",
            rawTotal / 1e6, rows / (rawTotal / 1e9), unit, median(rawNanos) / 1e6, trimmedMean(rawNanos) / 1e6,
            Arrays.stream(rawNanos).max().getAsLong() / 1e6);
        System.out.printf(Locale.ROOT, "  ours: total %8.1f ms, %,9.0f rows/s; per %s: median %7.2f, trimmed mean %7.2f, max %7.2f ms%n",
            oursTotal / 1e6, rows / (oursTotal / 1e9), unit, median(oursNanos) / 1e6, trimmedMean(oursNanos) / 1e6,
            Arrays.stream(oursNanos).max().getAsLong() / 1e6);
        // the stub shares the process: its merges and the GC land on whichever side runs at the time, so the totals
        // carry stray pauses; the median and the 10%-trimmed mean are the robust figures
        double medians = median(oursNanos) / median(rawNanos);
        double trimmed = trimmedMean(oursNanos) / trimmedMean(rawNanos);
        System.out.printf(Locale.ROOT, "  ours/raw: %.3f on medians, %.3f on trimmed means, %.3f on totals (target <= %.2f: %s)%n", medians,
            trimmed, (double) oursTotal / rawTotal, target, Math.max(medians, trimmed) <= target ? "met" : "NOT met");
    }

    /** The mean without the lowest and the highest 10%. */
    private static double trimmedMean(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        int cut = s.length / 10;
        return Arrays.stream(s, cut, s.length - cut).average().orElse(0);
    }

    static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    private long batch(boolean useOurs, int rows) throws SQLException {
        Connection c = useOurs ? ours : raw;
        String table = useOurs ? "default.bench_ours" : "default.bench_raw";
        long t0 = System.nanoTime();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s, v, ts) VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                bind(ps, nextId(useOurs));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return System.nanoTime() - t0;
    }

    private void single(boolean useOurs) throws SQLException {
        Connection c = useOurs ? ours : raw;
        String table = useOurs ? "default.bench_ours" : "default.bench_raw";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s, v, ts) VALUES (?, ?, ?, ?)")) {
            bind(ps, nextId(useOurs));
            ps.executeUpdate();
        }
    }

    private void singleStatement(boolean useOurs) throws SQLException {
        Connection c = useOurs ? ours : raw;
        long id = nextId(useOurs);
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + (useOurs ? "default.bench_ours" : "default.bench_raw") + " (id, s, v, ts) VALUES (" + id
                + ", 'row " + id + " it\\'s', " + id * 0.25 + ", fromUnixTimestamp64Milli(" + (BASE_MILLIS + id) + "))");
        }
    }

    private long nextId(boolean useOurs) {
        return useOurs ? oursNext++ : rawNext++;
    }

    private static void bind(PreparedStatement ps, long id) throws SQLException {
        ps.setLong(1, id);
        ps.setString(2, "row " + id + " it's");
        ps.setDouble(3, id * 0.25);
        ps.setTimestamp(4, new Timestamp(BASE_MILLIS + id));
    }

    /** (c) The heap one recorded batch holds, next to the size of the SQL text it is sent as. */
    private void memory(int rows) throws SQLException {
        System.out.printf(Locale.ROOT, "%n(c) batch recording memory: %,d rows of (UInt64, String, Float64, DateTime64)%n", rows);
        long sqlChars = -1;
        for (boolean useOurs : new boolean[] {true, false}) {
            Connection c = useOurs ? ours : raw;
            String table = useOurs ? "default.bench_ours" : "default.bench_raw";
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s, v, ts) VALUES (?, ?, ?, ?)")) {
                long before = usedHeapAfterGc();
                for (int i = 0; i < rows; i++) {
                    bind(ps, nextId(useOurs));
                    ps.addBatch();
                }
                long after = usedHeapAfterGc();
                if (useOurs) {
                    sqlChars = renderedLength(rows);
                }
                long t0 = System.nanoTime();
                int[] counts = ps.executeBatch();
                System.out.printf(Locale.ROOT, "  %-4s: heap +%,d bytes while recording (%.2f bytes per rendered SQL char); sent in %.0f ms,"
                    + " %d counts%n", useOurs ? "ours" : "raw", after - before, (double) (after - before) / sqlChars,
                    (System.nanoTime() - t0) / 1e6, counts.length);
            }
        }
        System.out.printf(Locale.ROOT, "  rendered SQL of the batch: %,d chars (Latin-1, so about as many bytes in a Java String)%n", sqlChars);
    }

    /** The length of the VALUES text our driver renders for {@code rows} rows bound by {@link #bind} (ids from {@code oursNext - rows}). */
    private long renderedLength(int rows) throws SQLException {
        long total = "INSERT INTO default.bench_ours (id, s, v, ts) VALUES ".length();
        long first = oursNext - rows;
        for (long id = first; id < oursNext; id++) {
            StringBuilder sb = new StringBuilder(96).append('(');
            dev.chdedup.driver.Literals.render(id, sb);
            sb.append(", ");
            dev.chdedup.driver.Literals.render("row " + id + " it's", sb);
            sb.append(", ");
            dev.chdedup.driver.Literals.render(id * 0.25, sb);
            sb.append(", ");
            dev.chdedup.driver.Literals.render(new Timestamp(BASE_MILLIS + id), sb);
            sb.append(')');
            total += sb.length() + (id > first ? 1 : 0);
        }
        return total;
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            used = Math.min(used, mem.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** Every row each side sent is in its table exactly once: the figures above measured real, complete inserts. */
    private void check() throws SQLException {
        try (Statement st = raw.createStatement()) {
            for (String[] side : new String[][] {{"bench_raw", Long.toString(rawNext)}, {"bench_ours", Long.toString(oursNext)}}) {
                try (ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM default." + side[0])) {
                    rs.next();
                    System.out.printf(Locale.ROOT, "%ncheck %s: %,d rows, %,d distinct ids, %s sent%s", side[0], rs.getLong(1), rs.getLong(2),
                        side[1], rs.getLong(1) == Long.parseLong(side[1]) && rs.getLong(2) == rs.getLong(1) ? " (ok)" : " (MISMATCH)");
                }
            }
            System.out.println();
        }
    }
}
