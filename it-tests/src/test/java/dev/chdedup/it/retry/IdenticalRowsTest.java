package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.countAndUniq;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.chdedup.driver.DedupStatement;
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
 * Two different inserts that happen to carry identical rows are two inserts: with our driver each gets its own token,
 * so both land. Without a token the table's deduplication log hashes the data, and drops the second as a "retry".
 */
class IdenticalRowsTest {
    private static final String ROWS = " (id, s) VALUES (1, 'same'), (2, 'same')";
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @Test
    void rawDriverLosesTheSecondInsertToTheDataHash() throws SQLException {
        String t = createTable(stub(), "same_raw", true);
        try (Connection c = RetryFixtures.raw(stub()); Statement st = c.createStatement()) {
            assertEquals(2, st.executeUpdate("INSERT INTO " + t + ROWS));
            // accepted as a success, but written nothing: same block, same hash, found in the log
            assertEquals(0, st.executeUpdate("INSERT INTO " + t + ROWS));
        }
        assertArrayEquals(new long[] {2, 2}, countAndUniq(stub(), t));
    }

    @Test
    void oursLandsBothStatements() throws SQLException {
        String t = createTable(stub(), "same_stmt", true);
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub())); Statement st = c.createStatement()) {
            assertEquals(2, st.executeUpdate("INSERT INTO " + t + ROWS));
            String first = st.unwrap(DedupStatement.class).lastToken();
            assertEquals(2, st.executeUpdate("INSERT INTO " + t + ROWS));
            String second = st.unwrap(DedupStatement.class).lastToken();
            assertNotNull(first);
            assertNotEquals(first, second);
        }
        assertArrayEquals(new long[] {4, 2}, countAndUniq(stub(), t));
    }

    @Test
    void oursLandsBothBatches() throws SQLException {
        String t = createTable(stub(), "same_batch", true);
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub()));
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?)")) {
            for (int round = 0; round < 2; round++) {
                for (int id = 1; id <= 100; id++) {
                    ps.setInt(1, id);
                    ps.setString(2, "same");
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertEquals(100, counts.length);
                assertEquals(1, counts[0], "written_rows matched the batch size");
            }
        }
        assertArrayEquals(new long[] {200, 100}, countAndUniq(stub(), t));
    }
}
