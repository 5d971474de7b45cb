package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultInjector;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Wrapper;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the retry suites share: URLs of the raw official driver and of ours for one stub, tables with and without a
 * deduplication log, and the exactly-once check (count and uniqExact over the ids).
 * Setup and checks go through the raw official driver so that they never count as our inserts.
 */
final class RetryFixtures {
    /** Short backoff so that the suites stay fast; every other retry property keeps its default. */
    static final String FAST_RETRY = "retry.initialBackoffMs=20&retry.maxBackoffMs=200";
    private static final AtomicInteger TABLES = new AtomicInteger();

    private RetryFixtures() {
    }

    /** The official driver's URL for the stub's {@code default} database, with extra {@code k=v} parameters. */
    static String rawUrl(StubServer stub, String... params) {
        return withParams(stub.jdbcUrl(), params);
    }

    /** Our driver's URL for the same server: the official URL with {@code jdbc:dedup:} in front. */
    static String oursUrl(StubServer stub, String... params) {
        return withParams("jdbc:dedup:" + stub.jdbcUrl().substring("jdbc:".length()), params);
    }

    private static String withParams(String url, String... params) {
        return params.length == 0 ? url : url + "?" + String.join("&", params);
    }

    static Connection raw(StubServer stub) throws SQLException {
        return DriverManager.getConnection(rawUrl(stub));
    }

    /** Runs DDL or a query through the raw official driver. */
    static void exec(StubServer stub, String sql) throws SQLException {
        try (Connection c = raw(stub); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /**
     * Creates {@code default.<prefix>_<n>} (id UInt64, s String). With {@code log}, the table keeps a deduplication
     * log of 100 blocks; without, it is a plain MergeTree, ClickHouse's default, which keeps none.
     */
    static String createTable(StubServer stub, String prefix, boolean log) throws SQLException {
        String name = "default." + prefix + "_" + TABLES.incrementAndGet();
        exec(stub, "CREATE TABLE " + name + " (id UInt64, s String) ENGINE = MergeTree ORDER BY id"
            + (log ? " SETTINGS non_replicated_deduplication_window = 100" : ""));
        return name;
    }

    /** {count(), uniqExact(id)} of the table. */
    static long[] countAndUniq(StubServer stub, String table) throws SQLException {
        try (Connection c = raw(stub); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM " + table)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    /** Every one of {@code rows} distinct ids is in the table exactly once. */
    static void assertExactlyOnce(StubServer stub, String table, long rows) throws SQLException {
        long[] cu = countAndUniq(stub, table);
        assertEquals(rows, cu[1], "distinct ids in " + table);
        assertEquals(rows, cu[0], "rows in " + table + " (" + rows + " distinct ids expected once each)");
    }

    /** How many faults fired on inserts into {@code table} ({@code db.t}). */
    static long firedOn(StubServer stub, String table) {
        return stub.faults().journal().stream().filter(e -> table.equals(e.database() + "." + e.table())).count();
    }

    static long firedOn(FaultInjector faults, String table, dev.chdedup.stub.fault.FaultKind kind) {
        return faults.journal().stream().filter(e -> e.kind() == kind && table.equals(e.database() + "." + e.table())).count();
    }

    /** The attempts and token our driver reports for the last INSERT of {@code statement}; {@code (0, null)} for the raw driver. */
    record Sent(int attempts, String token) {
        static Sent of(Wrapper statement) throws SQLException {
            if (!statement.isWrapperFor(DedupStatement.class)) {
                return new Sent(0, null);
            }
            DedupStatement d = statement.unwrap(DedupStatement.class);
            return new Sent(d.lastAttempts(), d.lastToken());
        }
    }
}
