package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.countAndUniq;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static dev.chdedup.it.retry.RetryFixtures.firedOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plain MergeTree keeps no deduplication log (non_replicated_deduplication_window = 0), so nothing can recognize a
 * retried insert. Our driver then refuses to retry an error of unknown outcome and says why, still retries errors
 * that wrote nothing, and retries anyway (accepting a duplicate) when told to with dedup.onTableWithoutLog=retry.
 */
class TableWithoutLogTest {
    private static final String VALUES = " (id, s) VALUES (1, 'a'), (2, 'b'), (3, 'c')";
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @AfterEach
    void disarm() {
        stub().faults().clear();
    }

    @Test
    void unknownOutcomeIsAClearErrorNotARetry() throws SQLException {
        String t = createTable(stub(), "nolog", false);
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY));
             Statement st = c.createStatement()) {
            DedupInsertException e = assertThrows(DedupInsertException.class, () -> st.executeUpdate("INSERT INTO " + t + VALUES));
            assertTrue(e.outcomeUnknown());
            assertEquals(1, e.attempts());
            assertTrue(e.getMessage().contains(t), e.getMessage());
            assertTrue(e.getMessage().contains("non_replicated_deduplication_window"), e.getMessage());
            assertTrue(e.getMessage().contains("dedup.onTableWithoutLog=retry"), e.getMessage());
            assertNotNull(e.token());
            assertEquals(e.token(), st.unwrap(DedupStatement.class).lastToken());
        }
        assertEquals(1, firedOn(stub(), t));
        // the rows did land, once: a retry would have written them twice
        assertArrayEquals(new long[] {3, 3}, countAndUniq(stub(), t));
    }

    @Test
    void anErrorThatWroteNothingIsStillRetried() throws SQLException {
        String t = createTable(stub(), "nolog", false);
        stub().faults().add(FaultRule.of(FaultKind.HTTP_503).onTable(t).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY));
             Statement st = c.createStatement()) {
            assertEquals(3, st.executeUpdate("INSERT INTO " + t + VALUES));
            assertEquals(2, st.unwrap(DedupStatement.class).lastAttempts());
        }
        assertEquals(1, firedOn(stub(), t));
        assertArrayEquals(new long[] {3, 3}, countAndUniq(stub(), t));
    }

    @Test
    void retryAnywayWhenConfigured() throws SQLException {
        String t = createTable(stub(), "nolog", false);
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "dedup.onTableWithoutLog=retry"));
             Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + t + VALUES);
            assertEquals(2, st.unwrap(DedupStatement.class).lastAttempts());
        }
        assertEquals(1, firedOn(stub(), t));
        // the risk the user accepted: without a log the retry cannot be recognized, and the rows are there twice
        assertArrayEquals(new long[] {6, 3}, countAndUniq(stub(), t));
    }
}
