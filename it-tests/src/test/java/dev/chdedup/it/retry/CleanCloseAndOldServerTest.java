package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupMetrics;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two situations users meet in production: the server closes the connection cleanly after committing (the
 * official client sees "no response" and re-sends on its own, silently duplicating the rows), and an older
 * server that does not know insert_deduplication_token (the stub plays one with {@code unknownSettings}).
 */
class CleanCloseAndOldServerTest {
    private static StubServer stub;
    private static StubServer oldServer;

    @BeforeAll
    static void start() throws Exception {
        stub = StubServer.builder().port(0).build().start();
        oldServer = StubServer.builder().port(0).unknownSettings("insert_deduplication_token", "deduplicate_insert").build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        stub.close();
        oldServer.close();
    }

    @Test
    void officialDriverSilentlyDuplicatesOnACleanCloseAfterCommit() throws SQLException {
        // a plain MergeTree, ClickHouse's default: nothing absorbs the re-sent block
        String table = RetryFixtures.createTable(stub, "clean_raw", false);
        stub.faults().add(FaultRule.of(FaultKind.CLOSE_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.rawUrl(stub)); Statement st = c.createStatement()) {
            // no exception: the official client re-sent the INSERT after "failed to respond", without a token
            st.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b')");
        }
        long[] cu = RetryFixtures.countAndUniq(stub, table);
        assertEquals(4, cu[0], "the raw driver's own retry of a committed insert lands the rows twice");
        assertEquals(2, cu[1]);
    }

    @Test
    void ourDriverEndsWithOneCopyOnACleanCloseAfterCommit() throws SQLException {
        String table = RetryFixtures.createTable(stub, "clean_ours", true);
        stub.faults().add(FaultRule.of(FaultKind.CLOSE_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub, RetryFixtures.FAST_RETRY)); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b')");
        }
        assertEquals(1, RetryFixtures.firedOn(stub.faults(), table, FaultKind.CLOSE_AFTER_COMMIT));
        RetryFixtures.assertExactlyOnce(stub, table, 2);
    }

    @Test
    void aBatchWhoseRetryWasDroppedAsDuplicateReportsItsRowsAsLanded() throws SQLException {
        String table = RetryFixtures.createTable(stub, "counts", true);
        stub.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub, RetryFixtures.FAST_RETRY));
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
            for (int i = 0; i < 5; i++) {
                ps.setLong(1, i);
                ps.setString(2, "r" + i);
                ps.addBatch();
            }
            // the retry wrote nothing (the server dropped it as a duplicate): the rows landed with the first attempt
            org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 1, 1, 1, 1}, ps.executeBatch());
            assertEquals(2, ps.unwrap(dev.chdedup.driver.DedupStatement.class).lastAttempts());
        }
        RetryFixtures.assertExactlyOnce(stub, table, 5);
    }

    @Test
    void olderServerWithoutTokensFallsBackToContentHashing() throws SQLException {
        String table = RetryFixtures.createTable(oldServer, "old", true);
        long before = DedupMetrics.INSTANCE.getTokenFallbacks();
        oldServer.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(oldServer, RetryFixtures.FAST_RETRY)); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b')");
            st.executeUpdate("INSERT INTO " + table + " VALUES (3, 'c')");
        }
        assertTrue(DedupMetrics.INSTANCE.getTokenFallbacks() > before, "the fallback was detected and counted");
        RetryFixtures.assertExactlyOnce(oldServer, table, 3);
    }

    @Test
    void olderServerRefusesTheTokenInEveryForm() {
        SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> RetryFixtures.exec(oldServer,
            "SELECT 1 SETTINGS insert_deduplication_token = 'x'"));
        assertEquals(115, e.getErrorCode());
    }
}
