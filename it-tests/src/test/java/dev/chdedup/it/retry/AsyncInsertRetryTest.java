package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connection with async inserts on ({@code clickhouse_setting_async_insert=1}): the driver makes each insert wait
 * for its flush ({@code wait_for_async_insert=1}), so a lost response after the flush is retried with the same
 * token and the async path drops the duplicate; the table ends with one copy.
 */
class AsyncInsertRetryTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @Test
    void asyncInsertsAreRetriedSafely() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "async", true);
        String url = RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "clickhouse_setting_async_insert=1",
            "clickhouse_setting_async_insert_busy_timeout_ms=50");
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(table).times(1));
        try (Connection c = DriverManager.getConnection(url)) {
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b')");
                assertEquals(2, st.unwrap(DedupStatement.class).lastAttempts());
            }
            stub().faults().add(FaultRule.of(FaultKind.CLOSE_AFTER_COMMIT).onTable(table).times(1));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
                for (int i = 3; i <= 10; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, "v" + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        RetryFixtures.assertExactlyOnce(stub(), table, 10);
        // the retries went through the async queue, which dropped them as duplicates
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT value FROM system.events WHERE event = 'DuplicatedAsyncInserts'")) {
            org.junit.jupiter.api.Assertions.assertTrue(rs.next(), "no DuplicatedAsyncInserts event");
            assertEquals(2, rs.getLong(1));
        }
    }
}
