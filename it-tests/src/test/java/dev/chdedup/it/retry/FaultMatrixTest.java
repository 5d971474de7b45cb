package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.assertExactlyOnce;
import static dev.chdedup.it.retry.RetryFixtures.countAndUniq;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static dev.chdedup.it.retry.RetryFixtures.firedOn;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each injected fault, first against the raw official driver (its default retries: up to 4 attempts, no backoff, on
 * NoHttpResponse, connect failures including HTTP 503, and the "retryable" server codes including 319), then against
 * ours, for the three insert forms. The raw driver runs on a plain MergeTree, ClickHouse's default, which keeps no
 * deduplication log; ours on a table with a log (without one it refuses to retry an unknown outcome, see
 * {@link TableWithoutLogTest}). The raw tests assert what really happens, good or bad; ours must end with exactly one
 * copy of every row, after exactly one retry.
 */
class FaultMatrixTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @AfterEach
    void disarm() {
        stub().faults().clear();
    }

    private static String rawTable(FaultRule rule) throws SQLException {
        String t = createTable(stub(), "raw", false);
        stub().faults().add(rule.onTable(t).times(1));
        return t;
    }

    private static Connection rawConnection(String... params) throws SQLException {
        return DriverManager.getConnection(RetryFixtures.rawUrl(stub(), params));
    }

    /** Inserts through our driver while {@code rule} fires once on a table with a log; exactly one copy must land. */
    private static void oursExactlyOnce(InsertForm form, FaultRule rule, String... params) throws SQLException {
        String t = createTable(stub(), "ours", true);
        stub().faults().add(rule.onTable(t).times(1));
        String[] all = new String[params.length + 1];
        all[0] = RetryFixtures.FAST_RETRY;
        System.arraycopy(params, 0, all, 1, params.length);
        RetryFixtures.Sent sent;
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub(), all))) {
            sent = form.insert(c, t, 1_000_000);
        }
        assertEquals(1, firedOn(stub(), t), "the fault fired once");
        assertEquals(2, sent.attempts(), "one retry after the fault");
        assertNotNull(sent.token());
        assertExactlyOnce(stub(), t, form.rows);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    // --- drop after commit: the insert is written, then the connection is reset before any answer

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void rawDropAfterCommitFailsAlthoughTheRowsLanded(InsertForm form) throws SQLException {
        String t = rawTable(FaultRule.of(FaultKind.DROP_AFTER_COMMIT));
        try (Connection c = rawConnection()) {
            SQLException e = assertThrows(SQLException.class, () -> form.insert(c, t, 0));
            // a reset is not in the official default client_retry_on_failures (a graceful close would be: NoHttpResponse,
            // and then the retry duplicates on this table), so the caller gets an error...
            assertTrue(causedBy(e, SocketException.class), () -> "expected a connection reset, got " + e);
        }
        // ...although every row is there: the outcome is unknown to the caller, and retrying by hand would duplicate
        assertArrayEquals(new long[] {form.rows, form.rows}, countAndUniq(stub(), t));
    }

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void oursDropAfterCommit(InsertForm form) throws SQLException {
        oursExactlyOnce(form, FaultRule.of(FaultKind.DROP_AFTER_COMMIT));
    }

    @Test
    void oursWithTheFailpointArmedBySqlThroughOurDriver() throws SQLException {
        String t = createTable(stub(), "ours", true);
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY));
             Statement st = c.createStatement()) {
            // a SYSTEM statement is not an INSERT: it passes through to the server untouched
            st.execute("SYSTEM ENABLE FAILPOINT stub_insert_drop_after_commit FOR 1 INSERTS ON TABLE " + t);
            st.executeUpdate("INSERT INTO " + t + " (id, s) VALUES (1, 'a'), (2, 'b')");
            assertEquals(2, st.unwrap(DedupStatement.class).lastAttempts());
        }
        assertEquals(1, firedOn(stub(), t));
        assertExactlyOnce(stub(), t, 2);
    }

    // --- drop before body: the connection is reset before the insert runs, nothing is written

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void rawDropBeforeBodyLosesTheRows(InsertForm form) throws SQLException {
        String t = rawTable(FaultRule.of(FaultKind.DROP_BEFORE_BODY));
        try (Connection c = rawConnection()) {
            SQLException e = assertThrows(SQLException.class, () -> form.insert(c, t, 0));
            assertTrue(causedBy(e, SocketException.class), () -> "expected a connection reset, got " + e);
        }
        // nothing landed, and from the same error as above the caller cannot tell this case from that one
        assertArrayEquals(new long[] {0, 0}, countAndUniq(stub(), t));
    }

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void oursDropBeforeBody(InsertForm form) throws SQLException {
        oursExactlyOnce(form, FaultRule.of(FaultKind.DROP_BEFORE_BODY));
    }

    // --- HTTP 503: refused before executing

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void rawHttp503IsRetriedByTheOfficialDriverToo(InsertForm form) throws SQLException {
        String t = rawTable(FaultRule.of(FaultKind.HTTP_503));
        try (Connection c = rawConnection()) {
            form.insert(c, t, 0);
        }
        // no problem here: the official client turns 503 into a ConnectException and retries it (at once, no backoff)
        assertEquals(1, firedOn(stub(), t));
        assertArrayEquals(new long[] {form.rows, form.rows}, countAndUniq(stub(), t));
    }

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void oursHttp503(InsertForm form) throws SQLException {
        oursExactlyOnce(form, FaultRule.of(FaultKind.HTTP_503));
    }

    // --- Code 202 (too many simultaneous queries) before the insert: nothing written

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void rawError202IsRetriedByTheOfficialDriverToo(InsertForm form) throws SQLException {
        String t = rawTable(FaultRule.error(202));
        try (Connection c = rawConnection()) {
            form.insert(c, t, 0);
        }
        // 202 is one of the official client's retryable server codes, and nothing was written by the failed attempt
        assertEquals(1, firedOn(stub(), t));
        assertArrayEquals(new long[] {form.rows, form.rows}, countAndUniq(stub(), t));
    }

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void oursError202(InsertForm form) throws SQLException {
        oursExactlyOnce(form, FaultRule.error(202));
    }

    // --- Code 319 (UNKNOWN_STATUS_OF_INSERT) after the commit

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void rawError319AfterCommitDuplicates(InsertForm form) throws SQLException {
        String t = rawTable(FaultRule.errorAfterCommit(319));
        try (Connection c = rawConnection()) {
            form.insert(c, t, 0);
        }
        // the official client retries 319 blindly, without a token, into a table without a log: success is reported and
        // every row is there twice
        assertEquals(1, firedOn(stub(), t));
        assertArrayEquals(new long[] {2 * form.rows, form.rows}, countAndUniq(stub(), t));
    }

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void oursError319AfterCommit(InsertForm form) throws SQLException {
        oursExactlyOnce(form, FaultRule.errorAfterCommit(319));
    }

    // --- the response comes after the client's socket_timeout (1 s): the insert was committed before the delay

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void rawSocketTimeoutFailsAlthoughTheRowsLanded(InsertForm form) throws SQLException {
        String t = rawTable(FaultRule.delay(2000));
        try (Connection c = rawConnection("socket_timeout=1000")) {
            SQLException e = assertThrows(SQLException.class, () -> form.insert(c, t, 0));
            // read timeouts are not retried by the official client at all (SocketTimeout is not in its default causes)
            assertTrue(causedBy(e, SocketTimeoutException.class), () -> "expected a read timeout, got " + e);
        }
        // the rows are there although the caller got an error: unknown outcome
        assertArrayEquals(new long[] {form.rows, form.rows}, countAndUniq(stub(), t));
    }

    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void oursSocketTimeout(InsertForm form) throws SQLException {
        oursExactlyOnce(form, FaultRule.delay(2000), "socket_timeout=1000");
    }
}
