package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.assertExactlyOnce;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static dev.chdedup.it.retry.RetryFixtures.firedOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.chdedup.driver.DedupMetrics;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server without token support (older ClickHouse answers Code 115 UNKNOWN_SETTING): the driver leaves the refused
 * settings out, from then on for the whole connection, counts the fallback, and the insert succeeds. Without the token,
 * a retry is still recognized by the data hash, because the statement and its block settings are identical.
 */
class TokenFallbackTest {
    /** What ClickHouse 21.8 does not know among the settings the driver sends (async inserts came with 21.11). */
    private static final Set<String> UNKNOWN_TO_21_8 = Set.of("insert_deduplication_token", "deduplicate_insert", "deduplicate_insert_select",
        "wait_for_async_insert");
    private static StubServer stub;
    private static OldServerProxy proxy;

    @BeforeAll
    static void start() throws Exception {
        stub = StubServer.builder().port(0).build().start();
        proxy = OldServerProxy.start(stub.httpUrl(), UNKNOWN_TO_21_8);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        stub.close();
    }

    @AfterEach
    void disarm() {
        stub.faults().clear();
    }

    private static Connection ours() throws SQLException {
        return DriverManager.getConnection("jdbc:dedup:" + proxy.jdbcUrl().substring("jdbc:".length()) + "?" + RetryFixtures.FAST_RETRY);
    }

    @Test
    void fallsBackOncePerConnection() throws SQLException {
        String t = createTable(stub, "fallback", true);
        long fallbacks = DedupMetrics.INSTANCE.getTokenFallbacks();
        int earlier = proxy.refusals().size();
        try (Connection c = ours()) {
            RetryFixtures.Sent first = InsertForm.STATEMENT_VALUES.insert(c, t, 0);
            assertNull(first.token(), "no token was sent");
            assertEquals(1, first.attempts(), "a refused setting is not a failed attempt");
            List<String> refused = refusalsSince(earlier);
            assertEquals(Set.of("insert_deduplication_token", "deduplicate_insert", "wait_for_async_insert"), new HashSet<>(refused));
            assertEquals(3, refused.size(), "each refused once: " + refused);
            assertEquals(fallbacks + 1, DedupMetrics.INSTANCE.getTokenFallbacks());

            // the same connection does not ask again; an INSERT SELECT meets its own extra setting once
            InsertForm.PREPARED_BATCH.insert(c, t, 1000);
            InsertForm.INSERT_SELECT.insert(c, t, 2000);
            assertEquals(List.of("deduplicate_insert_select"), refusalsSince(earlier + 3));
            assertEquals(fallbacks + 1, DedupMetrics.INSTANCE.getTokenFallbacks());
        }
        assertExactlyOnce(stub, t, InsertForm.STATEMENT_VALUES.rows + InsertForm.PREPARED_BATCH.rows + InsertForm.INSERT_SELECT.rows);

        // a new connection detects it again
        try (Connection c = ours()) {
            InsertForm.STATEMENT_VALUES.insert(c, t, 5000);
        }
        assertEquals(fallbacks + 2, DedupMetrics.INSTANCE.getTokenFallbacks());
    }

    private static List<String> refusalsSince(int from) {
        List<String> all = proxy.refusals();
        return all.subList(from, all.size());
    }

    @Test
    void withoutTheTokenTheDataHashStillRecognizesTheRetry() throws SQLException {
        String t = createTable(stub, "fallback_hash", true);
        stub.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
        RetryFixtures.Sent sent;
        try (Connection c = ours()) {
            sent = InsertForm.PREPARED_BATCH.insert(c, t, 0);
        }
        assertNull(sent.token());
        assertEquals(1, firedOn(stub, t));
        assertEquals(2, sent.attempts());
        assertExactlyOnce(stub, t, InsertForm.PREPARED_BATCH.rows);
    }
}
