package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Memory and Log engines through the official JDBC driver: a batch insert lands in insertion order, the same
 * batch sent twice is stored twice (these engines do not deduplicate), and after a restart a Log table keeps its rows
 * while a Memory table is still there but empty, as in ClickHouse.
 */
class SimpleEnginesTest {
    private static void insert(Connection c, String table, int from, int n) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (k, s) VALUES (?, ?)")) {
            for (int i = from; i < from + n; i++) {
                ps.setInt(1, i);
                ps.setString(2, "v" + i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static String all(Connection c, String table) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT k, s FROM " + table)) {
            while (rs.next()) {
                sb.append(rs.getInt(1)).append('=').append(rs.getString(2)).append(' ');
            }
        }
        return sb.toString().trim();
    }

    @Test
    void memoryForgetsAndLogKeepsAcrossARestart(@TempDir Path dataDir) throws Exception {
        try (StubServer server = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE mem (k UInt32, s String) ENGINE = Memory");
                st.execute("CREATE TABLE lg (k UInt32, s String) ENGINE = Log");
                for (String t : new String[] {"mem", "lg"}) {
                    insert(c, t, 3, 2);
                    insert(c, t, 1, 1);
                    insert(c, t, 1, 1);
                }
                assertEquals("3=v3 4=v4 1=v1 1=v1", all(c, "mem"), "insertion order, no deduplication");
                assertEquals("3=v3 4=v4 1=v1 1=v1", all(c, "lg"));
            }
            server.restart();
            try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
                assertEquals("", all(c, "mem"), "a Memory table is empty after a restart");
                assertEquals("3=v3 4=v4 1=v1 1=v1", all(c, "lg"), "a Log table keeps every acknowledged insert");
                insert(c, "lg", 9, 1);
                assertEquals("3=v3 4=v4 1=v1 1=v1 9=v9", all(c, "lg"));
            }
        }
    }
}
