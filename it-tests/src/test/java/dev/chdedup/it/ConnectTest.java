package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.stub.exec.ServerInfo;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The official driver connects to the stub through DriverManager and through a HikariCP pool, and runs DDL. */
class ConnectTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void driverManagerConnects() throws Exception {
        String url = "jdbc:clickhouse://127.0.0.1:" + STUB.server().port() + "/default";
        assertEquals(url, STUB.jdbcUrl());
        try (Connection c = DriverManager.getConnection(url)) {
            assertTrue(c.isValid(5));
            assertEquals(ServerInfo.VERSION, c.getMetaData().getDatabaseProductVersion());
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void hikariPoolConnects() throws Exception {
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(STUB.jdbcUrl());
        cfg.setMaximumPoolSize(2);
        cfg.setMinimumIdle(1);
        cfg.setConnectionTimeout(5_000);
        cfg.setPoolName("connect-test");
        try (HikariDataSource ds = new HikariDataSource(cfg)) {
            for (int i = 0; i < 3; i++) {
                try (Connection c = ds.getConnection()) {
                    assertTrue(c.isValid(5));
                    assertEquals(ServerInfo.VERSION, c.getMetaData().getDatabaseProductVersion());
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT version()")) {
                        assertTrue(rs.next());
                        assertEquals(ServerInfo.VERSION, rs.getString(1));
                    }
                }
            }
            // two connections at once: the pool hands out distinct ones that both work
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                assertTrue(a.isValid(5));
                assertTrue(b.isValid(5));
            }
        }
    }

    @Test
    void ddlThroughStatementExecute() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE ddl_db");
            assertEquals("1", STUB.scalar("SELECT count() FROM system.databases WHERE name = 'ddl_db'"));
            st.execute("CREATE TABLE ddl_db.t (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
            assertEquals("1", STUB.scalar("EXISTS TABLE ddl_db.t"));
            st.execute("CREATE TABLE IF NOT EXISTS ddl_db.t (id UInt64) ENGINE = MergeTree ORDER BY id");
            assertEquals("id\tUInt64\ns\tString", STUB.scalar("SELECT name, type FROM system.columns WHERE database = 'ddl_db' AND table = 't' ORDER BY position"));

            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SHOW TABLES FROM ddl_db")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertEquals(List.of("t"), tables);

            st.execute("DROP TABLE ddl_db.t");
            assertEquals("0", STUB.scalar("EXISTS TABLE ddl_db.t"));
            st.execute("DROP TABLE IF EXISTS ddl_db.t");
            st.execute("DROP DATABASE ddl_db");
            assertEquals("0", STUB.scalar("SELECT count() FROM system.databases WHERE name = 'ddl_db'"));
        }
    }

    @Test
    void connectionToAnotherDatabase() throws Exception {
        STUB.scalar("CREATE DATABASE IF NOT EXISTS other");
        STUB.scalar("CREATE TABLE other.x (v UInt8) ENGINE = MergeTree ORDER BY v");
        try (Connection c = DriverManager.getConnection(STUB.server().jdbcUrl("other")); Statement st = c.createStatement()) {
            assertEquals(1, st.executeUpdate("INSERT INTO x VALUES (42)"));
            try (ResultSet rs = st.executeQuery("SELECT v, currentDatabase() FROM x")) {
                assertTrue(rs.next());
                assertEquals(42, rs.getInt(1));
                assertEquals("other", rs.getString(2));
            }
        }
        assertEquals("42", STUB.scalar("SELECT v FROM other.x"));
    }
}
