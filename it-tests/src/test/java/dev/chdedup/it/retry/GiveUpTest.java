package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.countAndUniq;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static dev.chdedup.it.retry.RetryFixtures.firedOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.jdbc.StatementImpl;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * When the policy runs out (retry.maxAttempts=3 while a fault fires 5 times), the caller gets a DedupInsertException
 * with the attempts, the token every attempt carried (also the statement's lastToken()), the earlier errors as
 * suppressed, and a message that says what is known and what is safe to do.
 */
class GiveUpTest {
    private static final String VALUES = " (id, s) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')";
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @AfterEach
    void disarm() {
        stub().faults().clear();
    }

    private static Connection ours() throws SQLException {
        return DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "retry.maxAttempts=3"));
    }

    @Test
    void unknownOutcomeGivesUpWithTheToken() throws SQLException {
        String t = createTable(stub(), "giveup", true);
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(5));
        String token;
        try (Connection c = ours(); Statement st = c.createStatement()) {
            DedupInsertException e = assertThrows(DedupInsertException.class, () -> st.executeUpdate("INSERT INTO " + t + VALUES));
            assertEquals(3, e.attempts());
            assertTrue(e.outcomeUnknown());
            token = e.token();
            assertNotNull(token);
            assertEquals(token, st.unwrap(DedupStatement.class).lastToken());
            assertEquals(3, st.unwrap(DedupStatement.class).lastAttempts());
            assertEquals(2, e.getSuppressed().length, "the two earlier attempts' errors");
            for (Throwable s : e.getSuppressed()) {
                assertInstanceOf(SQLException.class, s);
            }
            assertInstanceOf(SQLException.class, e.getCause(), "the last attempt's error");
            String m = e.getMessage();
            assertTrue(m.contains("gave up after 3 attempt(s)"), m);
            assertTrue(m.contains(token), m);
            assertTrue(m.contains("may or may not have landed"), m);
            assertTrue(m.contains("re-sending it with the same insert_deduplication_token") && m.contains("is safe"), m);
        }
        assertEquals(3, firedOn(stub(), t), "three attempts, each committed and then dropped");
        // each attempt was written and acknowledged by nobody, and the same token made the 2nd and 3rd no-ops
        assertArrayEquals(new long[] {4, 4}, countAndUniq(stub(), t));

        // what the message promises: re-sending with the same token (here through the raw driver) changes nothing
        stub().faults().clear();
        try (Connection c = RetryFixtures.raw(stub()); Statement st = c.createStatement()) {
            st.unwrap(StatementImpl.class).getLocalSettings().serverSetting("insert_deduplication_token", token);
            assertEquals(0, st.executeUpdate("INSERT INTO " + t + VALUES));
        }
        assertArrayEquals(new long[] {4, 4}, countAndUniq(stub(), t));
    }

    @Test
    void refusedEveryTimeGivesUpSayingNothingWasWritten() throws SQLException {
        String t = createTable(stub(), "giveup", true);
        stub().faults().add(FaultRule.of(FaultKind.HTTP_503).onTable(t).times(5));
        try (Connection c = ours(); Statement st = c.createStatement()) {
            DedupInsertException e = assertThrows(DedupInsertException.class, () -> st.executeUpdate("INSERT INTO " + t + VALUES));
            assertEquals(3, e.attempts());
            assertFalse(e.outcomeUnknown());
            assertEquals(2, e.getSuppressed().length);
            assertEquals(e.token(), st.unwrap(DedupStatement.class).lastToken());
            assertTrue(e.getMessage().contains("Nothing was written by the last attempt"), e.getMessage());
        }
        assertEquals(3, firedOn(stub(), t));
        assertArrayEquals(new long[] {0, 0}, countAndUniq(stub(), t));
    }

    @Test
    void batchGivesUpWithTheTokenAsTheCause() throws SQLException {
        String t = createTable(stub(), "giveup", true);
        stub().faults().add(FaultRule.errorAfterCommit(319).onTable(t).times(5));
        try (Connection c = ours(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?)")) {
            for (int i = 0; i < 100; i++) {
                ps.setInt(1, i);
                ps.setString(2, "r" + i);
                ps.addBatch();
            }
            BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
            DedupInsertException cause = assertInstanceOf(DedupInsertException.class, e.getCause());
            assertEquals(3, cause.attempts());
            assertTrue(cause.outcomeUnknown());
            assertEquals(319, cause.getErrorCode());
            assertNotNull(cause.token());
            assertEquals(cause.token(), ps.unwrap(DedupStatement.class).lastToken());
            assertEquals(100, e.getLargeUpdateCounts().length);
            assertEquals(Statement.EXECUTE_FAILED, e.getLargeUpdateCounts()[0]);
        }
        assertEquals(3, firedOn(stub(), t));
        assertArrayEquals(new long[] {100, 100}, countAndUniq(stub(), t));
    }
}
