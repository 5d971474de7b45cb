package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With a data directory that outlives the server, everything the driver inserted is still there after
 * {@code restart()} (same port) and after a new server is started on the same directory: the rows, and the parts
 * with their names, partitions, row counts and levels. Block numbers continue after a restart.
 */
class RestartTest {
    /** Parts as system.parts shows them; at most 8 parts per partition, so no background merge changes them. */
    private static final String PARTS = "SELECT name, partition_id, rows, min_block_number, max_block_number, level FROM system.parts "
        + "WHERE database = 'default' AND table = 'r' AND active ORDER BY name";
    private static final String ROWS = "SELECT * FROM r ORDER BY id";

    @Test
    void restartKeepsRowsAndParts(@TempDir Path dataDir) throws Exception {
        try (StubServer server = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ClickHouseHttp http = new ClickHouseHttp(server.httpUrl());
            fill(server);
            String parts = http.scalar(PARTS);
            String rows = http.scalar(ROWS);
            // 202401: 4 parts of 1 row; 202402: 4 + 1 parts merged into 202402_2_9_1, then 202402_10_10_0
            assertEquals(6, parts.split("\n").length, parts);
            assertTrue(parts.contains("202402_2_9_1\t202402\t11\t2\t9\t1"), parts);
            assertEquals("16", http.scalar("SELECT count() FROM r"));
            int port = server.port();

            server.restart();

            assertEquals(port, server.port());
            assertEquals(StubServer.State.STARTED, server.state());
            try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement()) {
                assertEquals(16, count(st));
                assertEquals(rows, http.scalar(ROWS));
                assertEquals(parts, http.scalar(PARTS));
                // block numbers continue: a new insert gets a number above every existing one
                assertEquals(1, st.executeUpdate("INSERT INTO r (id, d, s) VALUES (100, '2024-01-31', 'after')"));
            }
            assertEquals("17", http.scalar("SELECT count() FROM r"));
            assertEquals("202401_11_11_0", http.scalar("SELECT name FROM system.parts WHERE table = 'r' AND active "
                + "AND partition_id = '202401' ORDER BY max_block_number DESC LIMIT 1"));
        }
    }

    @Test
    void newServerOnTheSameDirectorySeesEverything(@TempDir Path dataDir) throws Exception {
        String parts;
        String rows;
        try (StubServer first = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            fill(first);
            ClickHouseHttp http = new ClickHouseHttp(first.httpUrl());
            parts = http.scalar(PARTS);
            rows = http.scalar(ROWS);
        }
        try (StubServer second = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ClickHouseHttp http = new ClickHouseHttp(second.httpUrl());
            assertEquals(parts, http.scalar(PARTS));
            assertEquals(rows, http.scalar(ROWS));
            assertEquals("r", http.scalar("SHOW TABLES"));
            // TabSeparated escapes the quotes inside the type name
            assertEquals("id\tUInt64\nd\tDate\ns\tString\nts\tDateTime64(3, \\'UTC\\')\nn\tNullable(Int32)\na\tArray(String)\nm\tMap(String, UInt64)",
                http.scalar("SELECT name, type FROM system.columns WHERE table = 'r' ORDER BY position"));
        }
    }

    @Test
    void theDriversConnectionSurvivesARestart(@TempDir Path dataDir) throws Exception {
        try (StubServer server = StubServer.builder().port(0).dataDir(dataDir).build().start();
             Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE k (id UInt64) ENGINE = MergeTree ORDER BY id");
            assertEquals(2, st.executeUpdate("INSERT INTO k VALUES (1), (2)"));
            server.restart();
            // the driver's pooled socket is gone; client-v2 retries a request that got no response
            assertEquals(1, st.executeUpdate("INSERT INTO k VALUES (3)"));
            try (ResultSet rs = st.executeQuery("SELECT sum(id), count() FROM k")) {
                assertTrue(rs.next());
                assertEquals(6, rs.getLong(1));
                assertEquals(3, rs.getLong(2));
            }
        }
    }

    /** Six inserts (ten parts) into two monthly partitions (text and RowBinary paths), then one partition merged by OPTIMIZE. */
    private static void fill(StubServer server) throws Exception {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE r (id UInt64, d Date, s String, ts DateTime64(3, 'UTC'), n Nullable(Int32), a Array(String), "
                + "m Map(String, UInt64)) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY id");
            for (int i = 0; i < 4; i++) {
                assertEquals(2, st.executeUpdate("INSERT INTO r VALUES (" + (i * 2) + ", '2024-01-0" + (i + 1) + "', 'jan " + i
                    + "', '2024-01-01 00:00:00.123', NULL, ['x', 'it\\'s'], {'k': " + i + "}), (" + (i * 2 + 1) + ", '2024-02-0" + (i + 1)
                    + "', 'feb\\t" + i + "', '2024-02-01 12:34:56.789', " + i + ", [], {})"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO r (id, d, s, ts, n, a, m) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < 7; i++) {
                    ps.setLong(1, 50 + i);
                    ps.setObject(2, java.time.LocalDate.of(2024, 2, 10 + i));
                    ps.setString(3, "batch " + i);
                    ps.setObject(4, Instant.parse("2024-02-10T00:00:00Z").plusSeconds(i));
                    ps.setObject(5, i % 2 == 0 ? null : i);
                    ps.setObject(6, java.util.List.of("b" + i));
                    ps.setObject(7, java.util.Map.of("b", i));
                    ps.addBatch();
                }
                assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1, 1}, ps.executeBatch());
            }
            st.execute("OPTIMIZE TABLE r PARTITION 202402 FINAL");
            try (Connection rb = DriverManager.getConnection(server.jdbcUrl() + "?beta.row_binary_for_simple_insert=true");
                 PreparedStatement ps = rb.prepareStatement("INSERT INTO r VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                ps.setLong(1, 60);
                ps.setObject(2, java.time.LocalDate.of(2024, 2, 29));
                ps.setString(3, "row binary");
                ps.setObject(4, Instant.parse("2024-02-29T23:59:59.999Z"));
                ps.setObject(5, -1);
                ps.setObject(6, java.util.List.of("rb"));
                ps.setObject(7, java.util.Map.of("rb", 1L));
                ps.addBatch();
                assertArrayEquals(new int[] {1}, ps.executeBatch());
            }
        }
    }

    private static long count(Statement st) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT count() FROM r")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
