package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Query limits through the official JDBC driver: max_execution_time ends a slow query with TIMEOUT_EXCEEDED (159),
 * max_result_rows refuses a large result with TOO_MANY_ROWS_OR_BYTES (396) or cuts it at a block with
 * result_overflow_mode = 'break', max_rows_to_read refuses a query reading more (TOO_MANY_ROWS, 158), and a filtered
 * read of the endless system.numbers ends.
 */
class QueryLimitsTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void maxExecutionTimeEndsASlowQuery() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            long start = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
                "SELECT count() FROM (SELECT sleepEachRow(0.01) FROM numbers(3000) SETTINGS max_block_size = 10)"
                    + " SETTINGS max_execution_time = 0.3"));
            assertEquals(159, e.getErrorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("Timeout exceeded: elapsed"), e.getMessage());
            assertTrue(System.nanoTime() - start < 20_000_000_000L, "ended long before the 30 s the query would take");
        }
    }

    @Test
    void maxResultRowsThrowsOrBreaks() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class,
                () -> st.executeQuery("SELECT number FROM numbers(1000) SETTINGS max_result_rows = 100"));
            assertEquals(396, e.getErrorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("Limit for result exceeded, max rows: 100.00, current rows: 1.00 thousand"), e.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT number FROM numbers(1000) SETTINGS max_result_rows = 100,"
                + " result_overflow_mode = 'break', max_block_size = 64")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertEquals(128, n, "the result ends after the block that went over");
            }
        }
    }

    @Test
    void maxRowsToReadCountsWhatTheQueryReads() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
                "SELECT count() FROM (SELECT number FROM numbers(5000)) SETTINGS max_rows_to_read = 1000"));
            assertEquals(158, e.getErrorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("controlled by 'max_rows_to_read' setting"), e.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT count() FROM numbers(1000) SETTINGS max_rows_to_read = 1000")) {
                assertTrue(rs.next());
                assertEquals(1000, rs.getLong(1), "exactly the limit is allowed");
            }
        }
    }

    @Test
    void boundedReadOfSystemNumbersEnds() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT number FROM system.numbers WHERE number IN (2, 4, 8) LIMIT 10")) {
            StringBuilder sb = new StringBuilder();
            while (rs.next()) {
                sb.append(rs.getLong(1)).append(' ');
            }
            assertEquals("2 4 8 ", sb.toString());
        }
    }
}
