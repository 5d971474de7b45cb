package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.it.TemporalRoundTrip;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver against a real ClickHouse from the Debian packages (18.16 here: no insert_deduplication_token, old error
 * text, a JDBC SELECT it cannot answer), two replicas of a ReplicatedMergeTree on ZooKeeper, through a {@link LossyLink}
 * that loses acknowledgements, cuts requests and delays responses past the socket timeout. Every distinct insert that
 * was acknowledged lands once and none twice; most are acknowledged. Skips where the packages are not installed.
 */
class DebianClickHouseLossyLinkTest {
    private static final int INSERTS = 240;
    private static final int ROWS_PER_INSERT = 5;
    private static final int TEMPORAL_BATCHES = 20;
    private static final int INSERTS_OF_50 = 60;
    private static DebianClickHouse clickhouse;

    @BeforeAll
    static void start() throws Exception {
        String missing = DebianClickHouse.missing();
        Assumptions.assumeTrue(missing == null, () -> "Skipped: " + missing);
        clickhouse = new DebianClickHouse();
    }

    @AfterAll
    static void stop() {
        if (clickhouse != null) {
            clickhouse.close();
        }
    }

    @Test
    void everyAcknowledgedDistinctInsertLandsOnceThroughALossyLink() throws Exception {
        String table = "lossy_" + System.nanoTime();
        for (int r = 0; r < 2; r++) {
            clickhouse.query(r, "CREATE TABLE default." + table + " (id UInt64, s String) ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/" + table + "', '{replica}') ORDER BY id");
        }
        String version = clickhouse.query(0, "SELECT version()").strip();
        int acknowledged = 0;
        List<String> failures = new ArrayList<>();
        List<Long> ackedIds = new ArrayList<>();
        long rowBinaryBefore = dev.chdedup.driver.DedupMetrics.INSTANCE.getRowBinaryBatches();
        try (LossyLink link = new LossyLink(clickhouse.httpPort(0), 0.15, 0.05, 0.03, 1500, 11)) {
            String url = "jdbc:dedup:clickhouse://127.0.0.1:" + link.port() + "/default?socket_timeout=1000"
                + "&retry.maxAttempts=10&retry.initialBackoffMs=20&retry.maxBackoffMs=200";
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                 PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
                for (int i = 0; i < INSERTS; i++) {
                    long base = (long) i * ROWS_PER_INSERT;
                    try {
                        if (i % 2 == 0) {
                            StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id, s) VALUES ");
                            for (int k = 0; k < ROWS_PER_INSERT; k++) {
                                sql.append(k == 0 ? "" : ", ").append('(').append(base + k).append(", 'row-").append(base + k).append("')");
                            }
                            st.executeUpdate(sql.toString());
                        } else {
                            for (int k = 0; k < ROWS_PER_INSERT; k++) {
                                ps.setLong(1, base + k);
                                ps.setString(2, "row-" + (base + k));
                                ps.addBatch();
                            }
                            ps.executeBatch();
                        }
                        acknowledged++;
                        for (int k = 0; k < ROWS_PER_INSERT; k++) {
                            ackedIds.add(base + k);
                        }
                    } catch (SQLException e) {
                        ps.clearBatch();
                        failures.add("insert " + i + ": " + e.getMessage());
                    }
                }
            }
            Map<Long, Integer> seen = new HashMap<>();
            for (String line : clickhouse.query(0, "SELECT id FROM default." + table).split("\n")) {
                if (!line.isBlank()) {
                    seen.merge(Long.parseLong(line.strip()), 1, Integer::sum);
                }
            }
            long duplicates = seen.values().stream().filter(n -> n > 1).count();
            long lost = ackedIds.stream().filter(id -> !seen.containsKey(id)).count();
            String replica2 = awaitSameCount(table, seen.values().stream().mapToInt(Integer::intValue).sum());
            System.out.printf("LOSSY-LINK ClickHouse %s, 2 replicas: acknowledged %d/%d inserts, duplicated ids %d, lost acknowledged ids"
                    + " %d; exchanges %d, lost acks %d, cut requests %d, delayed %d; replica 2 rows %s%n", version, acknowledged, INSERTS,
                duplicates, lost, link.exchanges.get(), link.lostAcks.get(), link.cutRequests.get(), link.delayed.get(), replica2);
            assertEquals(0, duplicates, "ids stored twice");
            assertEquals(0, lost, "acknowledged ids missing");
            assertTrue(link.lostAcks.get() > 10 && link.cutRequests.get() > 0, "the link did lose acknowledgements and cut requests");
            assertTrue(acknowledged >= INSERTS * 9 / 10, "most inserts are acknowledged: " + acknowledged + "; " + failures);
            // the PreparedStatement half went as RowBinary batches (18.16 reads RowBinary), under the same framing and tokens
            assertTrue(dev.chdedup.driver.DedupMetrics.INSTANCE.getRowBinaryBatches() - rowBinaryBefore >= INSERTS / 2 * 9 / 10,
                "RowBinary batches: " + (dev.chdedup.driver.DedupMetrics.INSTANCE.getRowBinaryBatches() - rowBinaryBefore));
        }
    }

    /**
     * Date and time parameters on a real 18.16 (no fromUnixTimestamp64Nano, no fraction or bare date for DateTime, no
     * time for Date, no DateTime64), through the lossy link: every batch is acknowledged, each of its rows reads back as it
     * was set ({@link TemporalRoundTrip}), on both replicas, none twice.
     */
    @Test
    void everyDateAndTimeSetterReadsBackAsSetThroughALossyLink() throws Exception {
        String table = "temporal_" + System.nanoTime();
        for (int r = 0; r < 2; r++) {
            clickhouse.query(r, "CREATE TABLE default." + table + " (" + TemporalRoundTrip.columns(false) + ") ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/" + table + "', '{replica}') ORDER BY row");
        }
        java.time.ZoneId zone = java.time.ZoneId.of(clickhouse.query(0, "SELECT timezone()").strip());
        StringBuilder expected = new StringBuilder();
        int acknowledged = 0;
        List<String> failures = new ArrayList<>();
        try (LossyLink link = new LossyLink(clickhouse.httpPort(0), 0.15, 0.05, 0.03, 1500, 23)) {
            String url = "jdbc:dedup:clickhouse://127.0.0.1:" + link.port() + "/default?socket_timeout=1000"
                + "&retry.maxAttempts=10&retry.initialBackoffMs=20&retry.maxBackoffMs=200";
            try (Connection c = DriverManager.getConnection(url)) {
                for (int b = 0; b < TEMPORAL_BATCHES; b++) {
                    try {
                        TemporalRoundTrip.insert(c, table, false, b * 3);
                        acknowledged++;
                        expected.append(TemporalRoundTrip.expected(zone, false, b * 3));
                    } catch (SQLException e) {
                        failures.add("batch " + b + ": " + e.getMessage());
                    }
                }
            }
            String got = clickhouse.query(0, TemporalRoundTrip.select(table, false));
            int rows = got.isEmpty() ? 0 : got.split("\n").length;
            System.out.printf("TEMPORAL ClickHouse %s: acknowledged %d/%d batches of 3 rows, rows read back %d; exchanges %d, lost acks %d,"
                    + " cut requests %d, delayed %d%n", clickhouse.query(0, "SELECT version()").strip(), acknowledged, TEMPORAL_BATCHES, rows,
                link.exchanges.get(), link.lostAcks.get(), link.cutRequests.get(), link.delayed.get());
            assertEquals(TEMPORAL_BATCHES, acknowledged, "every batch acknowledged: " + failures);
            assertEquals(expected.toString(), got, "the rows read back as set, each once");
            awaitSameCount(table, rows);
            assertEquals(got, clickhouse.query(1, TemporalRoundTrip.select(table, false)), "replica 2 holds the same rows");
        }
    }

    /** What one client made of 50-row inserts through a link that cuts requests: acknowledged, duplicated and lost ids. */
    private record Damage(int acknowledged, long duplicated, long lost, int cuts) {
    }

    /**
     * {@code INSERTS_OF_50} inserts of 50 rows through a link that cuts 20% of requests halfway (18.16 then commits the
     * complete rows it got), by {@code url}; an application retry re-sends a failed insert up to 10 times.
     */
    /** Two replicas to insert into: the first one's HTTP port, and a statement on either. */
    private interface Pair {
        int port();

        String query(int replica, String sql) throws Exception;
    }

    private static final Pair REAL = new Pair() {
        @Override
        public int port() {
            return clickhouse.httpPort(0);
        }

        @Override
        public String query(int replica, String sql) throws Exception {
            return clickhouse.query(replica, sql);
        }
    };

    private static Damage fiftyRowInserts(Pair pair, String url, long seed) throws Exception {
        String table = "cut_" + System.nanoTime();
        for (int r = 0; r < 2; r++) {
            pair.query(r, "CREATE TABLE default." + table + " (id UInt64, s String) ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/" + table + "', '{replica}') ORDER BY id");
        }
        List<Long> acked = new ArrayList<>();
        int acknowledged = 0;
        try (LossyLink link = new LossyLink(pair.port(), 0.0, 0.2, 0.0, 0, seed)) {
            String target = url.replace("PORT", Integer.toString(link.port()));
            try (Connection c = DriverManager.getConnection(target); Statement st = c.createStatement()) {
                for (int i = 0; i < INSERTS_OF_50; i++) {
                    StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id, s) VALUES ");
                    for (int k = 0; k < 50; k++) {
                        long id = i * 50L + k;
                        sql.append(k == 0 ? "" : ", ").append('(').append(id).append(", 'row-").append(id).append("')");
                    }
                    for (int attempt = 0; attempt < 10; attempt++) {
                        try {
                            st.executeUpdate(sql.toString());
                            acknowledged++;
                            for (int k = 0; k < 50; k++) {
                                acked.add(i * 50L + k);
                            }
                            break;
                        } catch (SQLException e) {
                            // the application's own retry, as one without the dedup driver writes it
                        }
                    }
                }
            }
            Map<Long, Integer> seen = new HashMap<>();
            for (String line : pair.query(0, "SELECT id FROM default." + table).split("\n")) {
                if (!line.isBlank()) {
                    seen.merge(Long.parseLong(line.strip()), 1, Integer::sum);
                }
            }
            long duplicated = seen.values().stream().filter(n -> n > 1).count();
            long lost = acked.stream().filter(id -> !seen.containsKey(id)).count();
            return new Damage(acknowledged, duplicated, lost, link.cutRequests.get());
        }
    }

    /**
     * The same 50-row inserts through a link that cuts requests, on the real 18.16 pair and on two stub replicas playing
     * 18.16, by the official driver with an application retry, by
     * the dedup driver without framing and by the dedup driver as it comes. 18.16 commits a body cut on a row boundary,
     * so the first two end with duplicated rows (the retry carries other content than the committed prefix);
     * the framed inserts (one compressed frame each: a cut one fails to decompress) land every acknowledged row once.
     */
    @Test
    void aCutRequestCommitsAPrefixUnlessTheBodyIsFramed() throws Exception {
        try (dev.chdedup.stub.cluster.StubCluster stub = dev.chdedup.stub.cluster.StubCluster.builder().replicas(2).emulate("18.16").build()
            .start()) {
            Pair emulated = new Pair() {
                @Override
                public int port() {
                    return stub.replica(1).port();
                }

                @Override
                public String query(int replica, String sql) throws Exception {
                    return new dev.chdedup.stub.conformance.ConformanceClient(stub.replica(replica + 1).httpUrl()).query(sql, Map.of());
                }
            };
            for (Pair pair : List.of(REAL, emulated)) {
                String server = pair == REAL ? "ClickHouse " + clickhouse.query(0, "SELECT version()").strip() : "the stub playing 18.16";
                String options = "?socket_timeout=2000";
                Damage raw = fiftyRowInserts(pair, "jdbc:clickhouse://127.0.0.1:PORT/default" + options, 31);
                Damage unframed = fiftyRowInserts(pair, "jdbc:dedup:clickhouse://127.0.0.1:PORT/default" + options + "&dedup.framing=none"
                    + "&retry.maxAttempts=10&retry.initialBackoffMs=20&retry.maxBackoffMs=200", 31);
                Damage framed = fiftyRowInserts(pair, "jdbc:dedup:clickhouse://127.0.0.1:PORT/default" + options
                    + "&retry.maxAttempts=10&retry.initialBackoffMs=20&retry.maxBackoffMs=200", 31);
                System.out.printf("CUT-BODY %s, 2 replicas, %d inserts of 50 rows, 20%% of requests cut: official driver %s; dedup driver,"
                    + " framing none %s; dedup driver, framing compressed %s%n", server, INSERTS_OF_50, raw, unframed, framed);
                assertEquals(0, framed.duplicated(), server + ", framed: no id twice");
                assertEquals(0, framed.lost(), server + ", framed: no acknowledged id missing");
                assertEquals(INSERTS_OF_50, framed.acknowledged(), server + ", framed: every insert acknowledged");
                assertTrue(framed.cuts() > 0, "the link did cut framed requests");
                assertTrue(raw.duplicated() + raw.lost() > 0, server + ": the official driver shows the damage: " + raw);
                assertTrue(unframed.duplicated() + unframed.lost() > 0, server + ": so does the dedup driver without framing: " + unframed);
            }
        }
    }

    /** Waits (with a deadline) until replica 2 holds {@code rows}; returns its count. */
    private static String awaitSameCount(String table, int rows) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String count;
        while (!(count = clickhouse.query(1, "SELECT count() FROM default." + table).strip()).equals(Integer.toString(rows))
            && System.nanoTime() < deadline) {
            Thread.sleep(200); // polling replication, with a deadline
        }
        assertEquals(Integer.toString(rows), count, "replica 2 caught up");
        return count;
    }
}
