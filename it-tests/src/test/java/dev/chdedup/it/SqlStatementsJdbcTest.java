package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SQL the official Java client's own test suites send, through its JDBC driver (jdbc-v2): trailing commas, EXPLAIN,
 * the SHOW statements of access entities, SET ROLE, a parameter in WITH, recursive WITH, functions in VALUES, JSON
 * sub-paths and the refusal of several statements in one query. The answers are the engine's (the stub's unit tests
 * hold them to answers recorded from ClickHouse 26.7).
 */
class SqlStatementsJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void trailingCommasAreAllowedWhereTheEngineAllowsThem() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE sql_commas (a UInt8, b String,) ENGINE = Memory");
            st.execute("INSERT INTO sql_commas (a, b,) VALUES (1, 'x')");
            try (ResultSet rs = st.executeQuery("SELECT a, b, FROM sql_commas")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertEquals("x", rs.getString(2));
                assertFalse(rs.next());
            }
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT a FROM sql_commas ORDER BY a,"));
            assertTrue(e.getMessage().contains("SYNTAX_ERROR"), e.getMessage());
        }
    }

    @Test
    void aSecondStatementInOneQueryIsRefusedAsTheServerRefusesIt() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT 1; SELECT 2"));
            assertTrue(e.getMessage().contains("Code: 62. DB::Exception: Syntax error (Multi-statements are not allowed): failed at"
                + " position 9 (end of query): ; SELECT 2. . (SYNTAX_ERROR)"), e.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT 1;")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
        }
    }

    @Test
    void showListsAccessEntitiesAndSetRoleHoldsForTheConnection() throws Exception {
        for (String sql : new String[] {"CREATE ROLE sql_r1", "CREATE ROLE sql_r2", "CREATE USER sql_u IDENTIFIED BY 'pw'",
            "GRANT sql_r1, sql_r2 TO sql_u", "GRANT SELECT ON default.* TO sql_u"}) {
            STUB.scalar(sql);
        }
        try (Connection c = STUB.connect("user", "sql_u", "password", "pw"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SHOW USERS")) {
                assertEquals("name", rs.getMetaData().getColumnName(1));
                assertTrue(rs.next());
                assertEquals("default", rs.getString(1));
                assertTrue(rs.next());
                assertEquals("sql_u", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SHOW GRANTS")) {
                assertEquals("GRANTS", rs.getMetaData().getColumnName(1));
                assertTrue(rs.next());
                assertEquals("GRANT SELECT ON default.* TO sql_u", rs.getString(1));
                assertTrue(rs.next());
                assertEquals("GRANT sql_r1, sql_r2 TO sql_u", rs.getString(1));
            }
            // the driver sends SET ROLE, then each role as a role parameter of the next queries
            st.execute("SET ROLE sql_r2");
            try (ResultSet rs = st.executeQuery("SHOW CURRENT ROLES")) {
                assertEquals("role_name", rs.getMetaData().getColumnName(1));
                assertTrue(rs.next());
                assertEquals("sql_r2", rs.getString("role_name"));
                assertEquals(1, rs.getInt("is_default"));
                assertFalse(rs.next());
            }
            SQLException e = assertThrows(SQLException.class, () -> st.execute("SET ROLE sql_nope"));
            assertTrue(e.getMessage().contains("UNKNOWN_ROLE"), e.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT currentRoles()")) {
                assertTrue(rs.next());
                assertEquals("['sql_r2']", rs.getString(1));
            }
        }
    }

    @Test
    void aParameterInWithIsTheValueBound() throws Exception {
        try (Connection c = STUB.connect(); java.sql.PreparedStatement ps = c.prepareStatement("WITH ? AS x SELECT x, toTypeName(x)")) {
            ps.setInt(1, 42);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(42, rs.getInt(1));
                assertEquals("UInt8", rs.getString(2));
            }
            ps.setString(1, "it's");
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("it's", rs.getString(1));
                assertEquals("String", rs.getString(2));
            }
        }
        // jdbc-v2 substitutes the values into the text itself, as literals
        assertEquals("WITH 42 AS x SELECT x, toTypeName(x)\nWITH 'it\\'s' AS x SELECT x, toTypeName(x)", STUB.scalar(
            "SELECT query FROM system.query_log WHERE type = 'QueryFinish' AND query LIKE 'WITH % AS x SELECT x%' ORDER BY event_time_microseconds FORMAT TSVRaw"));
    }

    @Test
    void recursiveWithRunsUntilAStepIsEmpty() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r")) {
                for (int n = 1; n <= 3; n++) {
                    assertTrue(rs.next());
                    assertEquals(n, rs.getLong("n"));
                }
                assertFalse(rs.next());
            }
            SQLException e = assertThrows(SQLException.class, () -> {
                try (ResultSet rs = st.executeQuery("WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT count() FROM r")) {
                    rs.next();
                }
            });
            assertTrue(e.getMessage().contains("TOO_DEEP_RECURSION"), e.getMessage());
        }
    }

    @Test
    void functionsInValuesAreEvaluatedQuotedOrNot() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE sql_values (d Date, t DateTime, s String) ENGINE = Memory");
            st.execute("INSERT INTO sql_values VALUES (`toDate`('2020-01-01'), now(), `upper`('a'))");
            try (ResultSet rs = st.executeQuery("SELECT d, t > '2021-01-01', s FROM sql_values")) {
                assertTrue(rs.next());
                assertEquals("2020-01-01", rs.getString(1));
                assertTrue(rs.getBoolean(2));
                assertEquals("A", rs.getString(3));
            }
            SQLException e = assertThrows(SQLException.class, () -> st.execute("INSERT INTO sql_values VALUES (`nosuch`('x'), now(), 'b')"));
            assertTrue(e.getMessage().contains("UNKNOWN_FUNCTION"), e.getMessage());
            assertEquals(1, STUB.count("sql_values"));
        }
    }
}
