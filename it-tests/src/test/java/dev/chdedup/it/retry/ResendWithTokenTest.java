package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * After the driver gives up, the application can re-send the same insert later with the token the exception
 * carries (DedupStatement.setNextToken): whether or not the first execution landed, the table ends with one copy.
 */
class ResendWithTokenTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    private static Connection ours() throws SQLException {
        return DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "retry.maxAttempts=2"));
    }

    /**
     * The update count of an insert whose first attempt landed and whose retry the server dropped as a duplicate is
     * the rows sent, not the retry's 0 written, for a Statement as for a PreparedStatement batch.
     */
    @Test
    void anInsertLandedByAnEarlierAttemptCountsItsRows() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "landed_count", true);
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = ours(); Statement st = c.createStatement()) {
            assertEquals(3, st.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a'), (2, '(b), c'), (3, 'c')"));
            assertEquals(3, st.getUpdateCount());
        }
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = ours(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
            for (int i = 10; i < 14; i++) {
                ps.setLong(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            assertEquals(4, java.util.Arrays.stream(ps.executeBatch()).sum());
        }
        assertEquals(2, RetryFixtures.firedOn(stub(), table), "both first attempts were cut after their commit");
        RetryFixtures.assertExactlyOnce(stub(), table, 7);
    }

    @Test
    void resendingALandedInsertWithItsTokenAddsNothing() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "resend_landed", true);
        String sql = "INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b'), (3, 'c')";
        stub().faults().add(FaultRule.errorAfterCommit(319).onTable(table).times(2));
        String token;
        try (Connection c = ours(); Statement st = c.createStatement()) {
            DedupInsertException e = assertThrows(DedupInsertException.class, () -> st.executeUpdate(sql));
            assertTrue(e.outcomeUnknown());
            token = e.token();
            assertEquals(token, st.unwrap(DedupStatement.class).lastToken());
        }
        // later, maybe from another process: the same rows with the same token
        try (Connection c = ours(); Statement st = c.createStatement()) {
            st.unwrap(DedupStatement.class).setNextToken(token);
            st.executeUpdate(sql);
            assertEquals(token, st.unwrap(DedupStatement.class).lastToken());
        }
        RetryFixtures.assertExactlyOnce(stub(), table, 3);
    }

    @Test
    void resendingAnInsertThatNeverLandedWritesItOnce() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "resend_lost", true);
        stub().faults().add(FaultRule.of(FaultKind.DROP_BEFORE_BODY).onTable(table).times(2));
        String token;
        try (Connection c = ours(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
            for (int i = 0; i < 4; i++) {
                ps.setLong(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
            token = ((DedupInsertException) e.getCause()).token();
        }
        assertEquals(0, RetryFixtures.countAndUniq(stub(), table)[0]);
        try (Connection c = ours(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
            ps.unwrap(DedupStatement.class).setNextToken(token);
            for (int i = 0; i < 4; i++) {
                ps.setLong(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            ps.executeBatch();
            // and once more with the same token: dropped as a duplicate
            ps.unwrap(DedupStatement.class).setNextToken(token);
            for (int i = 0; i < 4; i++) {
                ps.setLong(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        RetryFixtures.assertExactlyOnce(stub(), table, 4);
    }
}
