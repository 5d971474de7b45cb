package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ServerException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A migration script's users, roles, settings profiles and grants through the official JDBC driver: the script runs
 * twice (IF NOT EXISTS), the users it creates log in with their passwords (JDBC and client-v2), a user under a
 * readonly = 1 profile reads but cannot write or change a setting (164), a readonly = 2 user changes settings but not
 * readonly, and a CONST or MAX constraint holds (452); users, profiles and grants survive a restart, as ClickHouse's
 * local_directory keeps them.
 */
class AccessEntitiesTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static final String[] MIGRATION = {
        "CREATE TABLE IF NOT EXISTS facts (id UInt32, v String) ENGINE = MergeTree ORDER BY id",
        "CREATE ROLE IF NOT EXISTS analyst",
        "CREATE SETTINGS PROFILE IF NOT EXISTS read_only SETTINGS readonly = 1",
        "CREATE USER IF NOT EXISTS reporter IDENTIFIED WITH sha256_password BY 'r-pass' SETTINGS PROFILE 'read_only'",
        "CREATE USER IF NOT EXISTS tuner IDENTIFIED BY 't-pass' SETTINGS readonly = 2, max_threads = 2 MAX 4, max_block_size = 1000 CONST",
        "CREATE USER IF NOT EXISTS loader IDENTIFIED BY 'l-pass' DEFAULT DATABASE default",
        "GRANT SELECT ON default.* TO analyst",
        "GRANT analyst TO reporter",
        "GRANT INSERT, SELECT ON default.facts TO loader",
    };

    @BeforeAll
    static void migrateTwice() throws SQLException {
        for (int run = 0; run < 2; run++) {
            try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
                for (String sql : MIGRATION) {
                    st.execute(sql);
                }
            }
        }
    }

    private static Connection as(String user, String password, String... settings) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        for (int i = 0; i < settings.length; i += 2) {
            p.setProperty("clickhouse_setting_" + settings[i], settings[i + 1]);
        }
        return DriverManager.getConnection(STUB.jdbcUrl(), p);
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    private static int errorCode(Connection c, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
        });
        return e.getErrorCode();
    }

    @Test
    void theMigrationRanOnceInEffect() throws SQLException {
        try (Connection c = STUB.connect()) {
            assertEquals("3", one(c, "SELECT count() FROM system.users WHERE name IN ('default', 'reporter', 'tuner')"));
            assertEquals("analyst", one(c, "SELECT granted_role_name FROM system.role_grants WHERE user_name = 'reporter'"));
            assertEquals("1", one(c, "SELECT count() FROM system.grants WHERE role_name = 'analyst'"), "recorded once");
            assertEquals(493, errorCode(c, "CREATE USER reporter"), "ACCESS_ENTITY_ALREADY_EXISTS without IF NOT EXISTS");
        }
    }

    @Test
    void aReadonlyProfileReadsButNeverWrites() throws SQLException {
        try (Connection c = as("reporter", "r-pass")) {
            assertEquals("reporter", one(c, "SELECT currentUser()"));
            assertEquals("1", one(c, "SELECT getSetting('readonly')"), "the profile's setting applies at login");
            assertEquals("0", one(c, "SELECT count() FROM facts WHERE id = 1"));
            assertEquals(164, errorCode(c, "INSERT INTO facts VALUES (1, 'x')"));
            assertEquals(164, errorCode(c, "CREATE TABLE other (x UInt8) ENGINE = Memory"));
            assertEquals(164, errorCode(c, "SET max_threads = 3"));
        }
        assertEquals("0", STUB.scalar("SELECT count() FROM facts WHERE id = 1"), "nothing was written");
        try (Connection c = as("reporter", "r-pass", "max_threads", "3")) {
            assertEquals(164, errorCode(c, "SELECT 1"), "a setting in the URL is a change too");
        }
    }

    @Test
    void readonlyTwoChangesSettingsWithinItsConstraints() throws SQLException {
        try (Connection c = as("tuner", "t-pass", "max_threads", "3")) {
            assertEquals("3", one(c, "SELECT getSetting('max_threads')"));
            assertEquals(164, errorCode(c, "INSERT INTO facts VALUES (1, 'x')"));
        }
        try (Connection c = as("tuner", "t-pass", "readonly", "0")) {
            assertEquals(164, errorCode(c, "SELECT 1"), "readonly = 2 cannot lower readonly");
        }
        try (Connection c = as("tuner", "t-pass", "max_threads", "8")) {
            assertEquals(452, errorCode(c, "SELECT 1"), "MAX 4");
        }
        try (Connection c = as("tuner", "t-pass", "max_block_size", "5")) {
            assertEquals(452, errorCode(c, "SELECT 1"), "CONST");
        }
        try (Connection c = as("tuner", "t-pass", "max_block_size", "1000")) {
            assertEquals("1000", one(c, "SELECT getSetting('max_block_size')"), "setting a CONST to its own value is no change");
        }
    }

    @Test
    void aCreatedUserWritesThroughClientV2AndAWrongPasswordIsRefused() throws Exception {
        try (Client client = STUB.newClient("loader", "l-pass")) {
            client.queryAll("INSERT INTO facts VALUES (7, 'seven')");
            assertEquals("seven", client.queryAll("SELECT v FROM facts WHERE id = 7").get(0).getString("v"));
        }
        try (Client client = STUB.newClient("loader", "wrong")) {
            Throwable t = assertThrows(RuntimeException.class, () -> client.queryAll("SELECT 1"));
            while (t != null && !(t instanceof ServerException)) {
                t = t.getCause();
            }
            assertTrue(t != null, "a ServerException");
            assertEquals(516, ((ServerException) t).getCode(), t.getMessage());
        }
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("DROP USER loader");
        }
        assertThrows(SQLException.class, () -> {
            try (Connection c = as("loader", "l-pass")) {
                one(c, "SELECT 1");
            }
        }, "a dropped user cannot log in");
    }

    @Test
    void usersProfilesAndGrantsSurviveARestart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dataDir) throws Exception {
        try (dev.chdedup.stub.server.StubServer server = dev.chdedup.stub.server.StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement()) {
                st.execute("CREATE SETTINGS PROFILE ro SETTINGS readonly = 1");
                st.execute("CREATE USER kept IDENTIFIED BY 'k-pass'\nSETTINGS PROFILE 'ro'");
                st.execute("CREATE USER gone IDENTIFIED BY 'g'");
                st.execute("CREATE ROLE r");
                st.execute("GRANT SELECT ON default.* TO r");
                st.execute("GRANT r TO kept");
                st.execute("DROP USER gone");
            }
            server.restart();
            Properties p = new Properties();
            p.setProperty("user", "kept");
            p.setProperty("password", "k-pass");
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(), p)) {
                assertEquals("1", one(c, "SELECT getSetting('readonly')"), "the profile is back and applies");
                assertEquals("r", one(c, "SELECT granted_role_name FROM system.role_grants WHERE user_name = 'kept'"));
                assertEquals("0", one(c, "SELECT count() FROM system.users WHERE name = 'gone'"), "a dropped user stays dropped");
            }
        }
    }
}
