package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.countAndUniq;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupMetrics;
import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Everything that is not an INSERT goes to the official driver untouched: the same results, columns and types as raw. */
class PassThroughTest {
    private static StubServer stub;
    private static Connection raw;
    private static Connection ours;

    @BeforeAll
    static void start() throws Exception {
        stub = StubServer.builder().port(0).build().start();
        raw = RetryFixtures.raw(stub);
        ours = DriverManager.getConnection(RetryFixtures.oursUrl(stub));
    }

    @AfterAll
    static void stop() throws Exception {
        ours.close();
        raw.close();
        stub.close();
    }

    @AfterEach
    void disarm() {
        stub.faults().clear();
    }

    /** Column labels and type names, then every value as a string, row by row. */
    private static List<String> table(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        ResultSetMetaData md = rs.getMetaData();
        StringBuilder head = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            head.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append(':').append(md.getColumnType(i)).append(' ');
        }
        out.add(head.toString());
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                row.append(rs.getString(i)).append('|');
            }
            out.add(row.toString());
        }
        return out;
    }

    private static List<String> query(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return table(rs);
        }
    }

    @Test
    void selectsReturnTheSameAsRaw() throws SQLException {
        String t = createTable(stub, "pass", true);
        RetryFixtures.exec(stub, "INSERT INTO " + t + " SELECT number, concat('v', toString(number)) FROM numbers(50)");
        String[] queries = {
            "SELECT 1",
            "SELECT number, toString(number) AS s, number * 1.5 AS f FROM numbers(20)",
            "SELECT id, s FROM " + t + " WHERE id % 7 = 0 ORDER BY id",
            "SELECT count(), uniqExact(id), min(s), max(id) FROM " + t,
            "SELECT 'INSERT INTO x VALUES (1)' AS looks_like_an_insert",
            "/* INSERT */ SELECT toDate('2024-01-02') AS d, [1, 2] AS a, NULL AS n",
        };
        for (String q : queries) {
            List<String> expected = query(raw, q);
            assertTrue(expected.size() > 1, q);
            assertEquals(expected, query(ours, q), q);
        }
    }

    @Test
    void preparedSelectsReturnTheSameAsRaw() throws SQLException {
        String sql = "SELECT number, toString(number) FROM numbers(100) WHERE number > ? AND toString(number) != ?";
        List<List<String>> results = new ArrayList<>();
        for (Connection c : new Connection[] {raw, ours}) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setLong(1, 90);
                ps.setString(2, "95");
                try (ResultSet rs = ps.executeQuery()) {
                    results.add(table(rs));
                }
                assertFalse(ps.isWrapperFor(DedupStatement.class), "a SELECT is not prepared as an insert");
            }
        }
        assertEquals(8, results.get(0).size() - 1, "91..99 without 95");
        assertEquals(results.get(0), results.get(1));
    }

    @Test
    void executeReturnsAResultSetAndDdlWorks() throws SQLException {
        long inserts = DedupMetrics.INSTANCE.getInserts();
        try (Statement st = ours.createStatement()) {
            assertFalse(st.execute("CREATE TABLE default.pass_ddl (id UInt64) ENGINE = MergeTree ORDER BY id"));
            assertTrue(st.execute("SELECT name FROM system.tables WHERE name = 'pass_ddl'"));
            try (ResultSet rs = st.getResultSet()) {
                assertTrue(rs.next());
                assertEquals("pass_ddl", rs.getString(1));
            }
            assertSame(ours, st.getConnection());
            assertFalse(st.execute("DROP TABLE default.pass_ddl"));
        }
        assertEquals(inserts, DedupMetrics.INSTANCE.getInserts(), "no statement here is an insert");
    }

    @Test
    void withModeOffInsertsAreNotStampedNorRetried() throws SQLException {
        String t = createTable(stub, "pass_off", true);
        stub.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub, "dedup.mode=off")); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO " + t + " VALUES (1, 'a')"));
            assertFalse(e instanceof DedupInsertException, "the official driver's own error: " + e);
            assertNull(st.unwrap(DedupStatement.class).lastToken());
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(stub, t));
    }

    /**
     * An INSERT run by Statement.execute has one result, its count: getMoreResults then says there is no other and
     * getUpdateCount is -1, as on the official driver, so callers that loop over results (Liquibase's executor,
     * Spring's JdbcTemplate.execute) end. Before, the count stayed and such a loop never ended.
     */
    @Test
    void anInsertsResultsEndAfterItsCount() throws SQLException {
        String t = createTable(stub, "pass_results", true);
        for (Connection c : new Connection[] {raw, ours}) {
            try (Statement st = c.createStatement()) {
                assertFalse(st.execute("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')"));
                assertEquals(2, st.getUpdateCount(), c.getClass().getName());
                assertNull(st.getResultSet());
                assertFalse(st.getMoreResults());
                assertEquals(-1, st.getUpdateCount(), c.getClass().getName());
                assertEquals(-1L, st.getLargeUpdateCount());
                assertFalse(st.getMoreResults());
                assertEquals(-1, st.getUpdateCount());
                assertEquals(1, st.executeUpdate("INSERT INTO " + t + " VALUES (3, 'c')"), "a new statement has its own count");
            }
        }
    }

    @Test
    void unwrapReachesTheOfficialDriver() throws SQLException {
        assertInstanceOf(com.clickhouse.jdbc.ConnectionImpl.class, ours.unwrap(com.clickhouse.jdbc.ConnectionImpl.class));
        try (Statement st = ours.createStatement()) {
            assertInstanceOf(com.clickhouse.jdbc.StatementImpl.class, st.unwrap(com.clickhouse.jdbc.StatementImpl.class));
            assertTrue(st.isWrapperFor(DedupStatement.class));
        }
    }
}
