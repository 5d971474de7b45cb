package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Server errors reach the application as SQLException whose error code is ClickHouse's, whose message is the
 * server's {@code Code: N. DB::Exception: ... (NAME)} text, and a failed INSERT writes nothing. The connection stays
 * usable afterwards.
 */
class ErrorsTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @BeforeAll
    static void table() {
        STUB.scalar("CREATE TABLE e (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        STUB.scalar("INSERT INTO e VALUES (1, 'one')");
    }

    @Test
    void syntaxError() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            expect(62, "SYNTAX_ERROR", () -> st.executeQuery("SELEC 1"));
            expect(62, "SYNTAX_ERROR", () -> st.execute("CREATE TABLE (id UInt64) ENGINE = MergeTree ORDER BY id"));
            expect(62, "SYNTAX_ERROR", () -> st.executeUpdate("INSERT INTO e (id, s VALUES (2, 'two')"));
            assertStillUsable(st);
        }
        assertEquals(1, STUB.count("e"));
    }

    @Test
    void unknownTableDatabaseColumnFunction() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            expect(60, "UNKNOWN_TABLE", () -> st.executeQuery("SELECT * FROM missing_table"));
            expect(60, "UNKNOWN_TABLE", () -> st.executeUpdate("INSERT INTO missing_table VALUES (1)"));
            expect(81, "UNKNOWN_DATABASE", () -> st.executeQuery("SELECT * FROM missing_db.e"));
            expect(16, "NO_SUCH_COLUMN_IN_TABLE", () -> st.executeUpdate("INSERT INTO e (id, nope) VALUES (2, 'x')"));
            expect(47, "UNKNOWN_IDENTIFIER", () -> st.executeQuery("SELECT nope FROM e"));
            expect(46, "UNKNOWN_FUNCTION", () -> st.executeQuery("SELECT noSuchFunction(1)"));
            expect(57, "TABLE_ALREADY_EXISTS", () -> st.execute("CREATE TABLE e (id UInt64) ENGINE = MergeTree ORDER BY id"));
            assertStillUsable(st);
        }
        assertEquals(1, STUB.count("e"));
    }

    /** The driver forwards {@code clickhouse_setting_<name>} as URL parameter {@code <name>}; the server rejects an unknown one. */
    @Test
    void unknownSettingOnTheConnection() throws Exception {
        try (Connection c = STUB.connect("clickhouse_setting_foo", "1"); Statement st = c.createStatement()) {
            expect(115, "UNKNOWN_SETTING", () -> st.executeQuery("SELECT 1"));
            expect(115, "UNKNOWN_SETTING", () -> st.executeUpdate("INSERT INTO e VALUES (2, 'two')"));
        }
        assertEquals(1, STUB.count("e"));
    }

    @Test
    void unknownSettingOnTheStatementAndInSql() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.unwrap(com.clickhouse.jdbc.StatementImpl.class).getLocalSettings().serverSetting("no_such_setting", "1");
            expect(115, "UNKNOWN_SETTING", () -> st.executeUpdate("INSERT INTO e VALUES (2, 'two')"));
            try (Statement plain = c.createStatement()) {
                expect(115, "UNKNOWN_SETTING", () -> plain.executeQuery("SELECT 1 SETTINGS no_such_setting = 1"));
                expect(115, "UNKNOWN_SETTING", () -> plain.executeUpdate("INSERT INTO e SETTINGS no_such_setting = 1 VALUES (2, 'two')"));
                assertStillUsable(plain);
            }
        }
        assertEquals(1, STUB.count("e"));
    }

    @Test
    void badValuesWriteNothing() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            // a value of the wrong type in the second row: the whole INSERT fails, the first row is not written
            expect(6, "CANNOT_PARSE_TEXT", () -> st.executeUpdate("INSERT INTO e VALUES (2, 'two'), ('abc', 'three')"));
            // the data ends in the middle of a row
            expect(27, "CANNOT_PARSE_INPUT_ASSERTION_FAILED", () -> st.executeUpdate("INSERT INTO e VALUES (2, 'two'), (3, 'three'"));
            // a string that is only partly a number
            expect(6, "CANNOT_PARSE_TEXT", () -> st.executeUpdate("INSERT INTO e VALUES (2, 'two'), ('12abc', 'three')"));
            assertStillUsable(st);
        }
        try (Connection c = STUB.connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO e (id, s) VALUES (?, ?)")) {
            ps.setLong(1, 2);
            ps.setString(2, "two");
            ps.addBatch();
            ps.setString(1, "not a number");
            ps.setString(2, "three");
            ps.addBatch();
            expect(6, "CANNOT_PARSE_TEXT", ps::executeBatch);
        }
        assertEquals(1, STUB.count("e"));
        assertEquals("1\tone", STUB.scalar("SELECT * FROM e"));
    }

    private static void expect(int code, String name, Executable call) {
        SQLException e = assertThrows(SQLException.class, call);
        assertEquals(code, e.getErrorCode(), e::getMessage);
        assertTrue(e.getMessage().startsWith("Code: " + code + ". DB::Exception: "), e::getMessage);
        assertTrue(e.getMessage().contains("(" + name + ")"), e::getMessage);
    }

    private static void assertStillUsable(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count() FROM e")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getLong(1));
        }
    }
}
