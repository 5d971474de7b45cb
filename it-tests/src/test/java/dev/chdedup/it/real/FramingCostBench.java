package dev.chdedup.it.real;

import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What the driver's compressed framing ({@code dedup.framing=compressed}, the default) costs: batches of 10,000 rows
 * (UInt64, String) through a PreparedStatement, framed and unframed in alternating rounds, on the stub and, where
 * Debian's {@code clickhouse-server} 18.16 is installed, on a real one in the same run. Prints the median time of a
 * batch each way and their ratio; asserts nothing. Run it (after {@code mvn -o package -DskipTests}) with
 * {@code java -cp "it-tests/target/test-classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.real.FramingCostBench [rounds]}.
 */
public final class FramingCostBench {
    private static final int ROWS = 10_000;

    private FramingCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        try (StubServer stub = StubServer.builder().port(0).build().start()) {
            run("stub", stub.httpUrl().replace("http://", ""), rounds);
        }
        if (DebianClickHouse.missing() == null) {
            try (DebianClickHouse real = new DebianClickHouse(1)) {
                run("ClickHouse " + real.query(0, "SELECT version()").strip(), "127.0.0.1:" + real.httpPort(0), rounds);
            }
        } else {
            System.out.println("no real ClickHouse here: " + DebianClickHouse.missing());
        }
    }

    private static void run(String server, String hostPort, int rounds) throws Exception {
        String base = "jdbc:dedup:clickhouse://" + hostPort + "/default";
        try (Connection c = DriverManager.getConnection(base); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS framing_bench");
            st.execute("CREATE TABLE framing_bench (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        }
        List<Long> framed = new ArrayList<>();
        List<Long> unframed = new ArrayList<>();
        long next = 0;
        for (int r = -2; r < rounds; r++) { // two rounds of warm-up
            for (boolean f : r % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                long t = batch(base + (f ? "" : "?dedup.framing=none"), next);
                next += ROWS;
                if (r >= 0) {
                    (f ? framed : unframed).add(t);
                }
            }
        }
        double mf = median(framed) / 1e6;
        double mu = median(unframed) / 1e6;
        System.out.printf("FRAMING %s: %d-row batches, median framed %.1f ms, unframed %.1f ms, framed/unframed %.2f (%d rounds)%n", server,
            ROWS, mf, mu, mf / mu, rounds);
    }

    private static long batch(String url, long from) throws Exception {
        try (Connection c = DriverManager.getConnection(url); PreparedStatement ps = c.prepareStatement("INSERT INTO framing_bench (id, s) VALUES (?, ?)")) {
            for (int i = 0; i < ROWS; i++) {
                ps.setLong(1, from + i);
                ps.setString(2, "row-" + (from + i) + "-some-text-to-make-it-longer");
                ps.addBatch();
            }
            long t0 = System.nanoTime();
            ps.executeBatch();
            return System.nanoTime() - t0;
        }
    }

    private static double median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        s.sort(null);
        return s.size() % 2 == 1 ? s.get(s.size() / 2) : (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2.0;
    }
}
