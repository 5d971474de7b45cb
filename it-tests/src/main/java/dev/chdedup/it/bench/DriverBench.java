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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The driver's cost and speed, measured in one process against one embedded stub. (a) PreparedStatement batches of
 * 10,000 and 100,000 rows of (UInt64, String, Float64, DateTime64(3)) through the official driver's default path
 * ({@code jdbc:clickhouse://}, VALUES text), its RowBinary path ({@code beta.row_binary_for_simple_insert=true}), and ours
 * ({@code jdbc:dedup:clickhouse://}: RowBinary, one compressed frame), with ours without the framing
 * ({@code dedup.framing=none}), with the insert journal ({@code dedup.journalDir}) and on the text path
 * ({@code dedup.rowBinary=false}) as separate rows, so that each safety's cost shows; the sides run in a rotating order
 * every round, so that drift (JIT, parts piling up in the stub, GC) falls on all alike, and medians are reported. (b)
 * Sequential single-row INSERTs, official against ours. (c) The heap a recorded batch of 100,000 rows holds on each side.
 * Each side writes to its own table of the same definition (with a deduplication log, as the driver recommends), always
 * with distinct rows. Prints its figures, asserts nothing. Run it with
 * {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.bench.DriverBench
 * [--rounds 6] [--batch-rows 10000,100000] [--singles 2000] [--memory-rows 100000]}.
 */
public final class DriverBench {
    private static final String COLUMNS = "(id UInt64, s String, v Float64, ts DateTime64(3, 'UTC'))";
    private static final long BASE_MILLIS = 1_700_000_000_000L;

    /** One way of inserting: a connection and the table it writes. */
    private static final class Side {
        final String name;
        final String table;
        final Connection connection;
        /** The next id: rows are never repeated, so no insert is ever deduplicated. */
        long next;

        Side(String name, String url, String table) throws SQLException {
            this.name = name;
            this.table = table;
            this.connection = DriverManager.getConnection(url);
        }
    }

    private final List<Side> sides = new ArrayList<>();
    private final Side raw;
    private final Side rawRowBinary;
    private final Side ours;

    private DriverBench(StubServer stub, Path journalDir) throws SQLException {
        String rawUrl = stub.jdbcUrl();
        String oursUrl = "jdbc:dedup:" + rawUrl.substring("jdbc:".length());
        raw = add("official, default (VALUES text)", rawUrl, "bench_raw");
        rawRowBinary = add("official, RowBinary (beta.row_binary_for_simple_insert)", rawUrl + "?beta.row_binary_for_simple_insert=true",
            "bench_raw_rb");
        ours = add("ours (RowBinary, framed)", oursUrl, "bench_ours");
        add("ours, dedup.framing=none", oursUrl + "?dedup.framing=none", "bench_ours_unframed");
        add("ours + journal (dedup.journalDir)", oursUrl + "?dedup.journalDir=" + journalDir, "bench_ours_journal");
        add("ours, dedup.rowBinary=false (text)", oursUrl + "?dedup.rowBinary=false", "bench_ours_text");
        try (Statement st = raw.connection.createStatement()) {
            for (Side side : sides) {
                st.execute("CREATE TABLE default." + side.table + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 100");
            }
        }
    }

    private Side add(String name, String url, String table) throws SQLException {
        Side side = new Side(name, url, table);
        sides.add(side);
        return side;
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        int rounds = 6;
        int[] batchRows = {10_000, 100_000};
        int singles = 2_000;
        int memoryRows = 100_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--batch-rows" -> batchRows = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--singles" -> singles = Integer.parseInt(args[++i]);
                case "--memory-rows" -> memoryRows = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                    + "; use [--rounds N] [--batch-rows N,N] [--singles N] [--memory-rows N]");
            }
        }
        Class.forName("dev.chdedup.driver.DedupDriver");
        Path journalDir = Files.createTempDirectory("driverbench-journal");
        try (StubServer stub = StubServer.builder().port(0).build().start()) {
            System.out.printf(Locale.ROOT, "DriverBench: stub %s, %s %s, %d cores, max heap %d MB%n", stub.httpUrl(),
                System.getProperty("java.vm.name"), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
            DriverBench bench = new DriverBench(stub, journalDir);
            try {
                bench.warmUp(batchRows[0]);
                for (int rows : batchRows) {
                    bench.batches(rounds, rows);
                }
                if (singles > 0) {
                    bench.singles(singles);
                }
                bench.memory(memoryRows);
                bench.check();
            } finally {
                for (Side side : bench.sides) {
                    side.connection.close();
                }
            }
        }
    }

    private void warmUp(int batchRows) throws SQLException {
        long t0 = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            for (Side side : sides) {
                batch(side, batchRows);
            }
        }
        for (int i = 0; i < 300; i++) {
            single(raw);
            single(ours);
        }
        System.out.printf(Locale.ROOT, "warm-up: 5 batches of %,d rows per side and 300 single inserts (official, ours), %.1f s%n", batchRows,
            (System.nanoTime() - t0) / 1e9);
    }

    /**
     * (a) {@code rounds} batches of {@code rows} rows per side, the order of the sides rotated every round; each timing
     * covers prepareStatement, setting every parameter, addBatch and executeBatch.
     */
    private void batches(int rounds, int rows) throws SQLException {
        long[][] nanos = new long[sides.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < sides.size(); k++) {
                int s = (k + r) % sides.size();
                nanos[s][r] = batch(sides.get(s), rows);
            }
        }
        System.out.printf(Locale.ROOT, "%n(a) PreparedStatement batches of %,d rows, %d rounds, medians%n", rows, rounds);
        System.out.printf(Locale.ROOT, "  | path | ms per batch | rows/s | vs official default | vs official RowBinary |%n");
        System.out.printf(Locale.ROOT, "  | --- | --- | --- | --- | --- |%n");
        double rawMedian = median(nanos[sides.indexOf(raw)]);
        double rbMedian = median(nanos[sides.indexOf(rawRowBinary)]);
        for (int s = 0; s < sides.size(); s++) {
            double m = median(nanos[s]);
            System.out.printf(Locale.ROOT, "  | %s | %.1f | %,.0f | %.2fx | %.2fx |%n", sides.get(s).name, m / 1e6, rows / (m / 1e9),
                rawMedian / m, rbMedian / m);
        }
        double oursMedian = median(nanos[sides.indexOf(ours)]);
        System.out.printf(Locale.ROOT, "  ours: %.2fx the official RowBinary path (target >= 1: %s), %.2fx its default path (target >= 4: %s)%n",
            rbMedian / oursMedian, rbMedian / oursMedian >= 1 ? "met" : "NOT met", rawMedian / oursMedian,
            rawMedian / oursMedian >= 4 ? "met" : "NOT met");
    }

    /**
     * (b) {@code n} sequential single-row INSERTs, official against ours, alternating in blocks of 100 in ABBA order:
     * through PreparedStatement.executeUpdate, then through Statement.executeUpdate with the values inline.
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
            for (int k = 0; k < 2; k++) {
                Side side = oursFirst == (k == 0) ? ours : raw;
                long t0 = System.nanoTime();
                for (int i = 0; i < block; i++) {
                    if (prepared) {
                        single(side);
                    } else {
                        singleStatement(side);
                    }
                }
                long d = System.nanoTime() - t0;
                if (side == ours) {
                    oursNanos[b] = d;
                } else {
                    rawNanos[b] = d;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%n(b) single-row INSERTs (%s.executeUpdate): %,d sequential per side, in blocks of %d%n",
            prepared ? "PreparedStatement" : "Statement", blocks * block, block);
        System.out.printf(Locale.ROOT, "  official: median %.2f ms per block; ours: median %.2f ms per block; ours/official %.3f%n",
            median(rawNanos) / 1e6, median(oursNanos) / 1e6, median(oursNanos) / median(rawNanos));
    }

    static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    private static String insert(Side side) {
        return "INSERT INTO default." + side.table + " (id, s, v, ts) VALUES (?, ?, ?, ?)";
    }

    private static long batch(Side side, int rows) throws SQLException {
        long t0 = System.nanoTime();
        try (PreparedStatement ps = side.connection.prepareStatement(insert(side))) {
            for (int i = 0; i < rows; i++) {
                bind(ps, side.next++);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return System.nanoTime() - t0;
    }

    private static void single(Side side) throws SQLException {
        try (PreparedStatement ps = side.connection.prepareStatement(insert(side))) {
            bind(ps, side.next++);
            ps.executeUpdate();
        }
    }

    private static void singleStatement(Side side) throws SQLException {
        long id = side.next++;
        try (Statement st = side.connection.createStatement()) {
            st.executeUpdate("INSERT INTO default." + side.table + " (id, s, v, ts) VALUES (" + id + ", 'row " + id + " it\\'s', "
                + id * 0.25 + ", fromUnixTimestamp64Milli(" + (BASE_MILLIS + id) + "))");
        }
    }

    private static void bind(PreparedStatement ps, long id) throws SQLException {
        ps.setLong(1, id);
        ps.setString(2, "row " + id + " it's");
        ps.setDouble(3, id * 0.25);
        ps.setTimestamp(4, new Timestamp(BASE_MILLIS + id));
    }

    /** (c) The heap one recorded batch holds on each side, next to the size of its RowBinary body. */
    private void memory(int rows) throws SQLException {
        System.out.printf(Locale.ROOT, "%n(c) heap while recording a batch of %,d rows of (UInt64, String, Float64, DateTime64(3))%n", rows);
        long body = 0;
        for (long id = 0; id < rows; id++) {
            body += 8 + 1 + ("row " + id + " it's").length() + 8 + 8;
        }
        System.out.printf(Locale.ROOT, "  RowBinary size of the batch: %,d bytes%n", body);
        System.out.printf(Locale.ROOT, "  | path | heap while recording | per RowBinary byte |%n  | --- | --- | --- |%n");
        for (Side side : sides) {
            try (PreparedStatement ps = side.connection.prepareStatement(insert(side))) {
                long before = usedHeapAfterGc();
                for (int i = 0; i < rows; i++) {
                    bind(ps, side.next++);
                    ps.addBatch();
                }
                long after = usedHeapAfterGc();
                ps.executeBatch();
                System.out.printf(Locale.ROOT, "  | %s | %.1f MB | %.2f |%n", side.name, (after - before) / 1e6, (double) (after - before) / body);
            }
        }
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
        try (Statement st = raw.connection.createStatement()) {
            System.out.println();
            for (Side side : sides) {
                try (ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM default." + side.table)) {
                    rs.next();
                    System.out.printf(Locale.ROOT, "check %s: %,d rows, %,d distinct ids, %,d sent%s%n", side.table, rs.getLong(1), rs.getLong(2),
                        side.next, rs.getLong(1) == side.next && rs.getLong(2) == rs.getLong(1) ? " (ok)" : " (MISMATCH)");
                }
            }
        }
    }
}
