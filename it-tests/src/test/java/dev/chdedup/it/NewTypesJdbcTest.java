package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The types of issue 13 through the official JDBC driver: IPv4, IPv6, DateTime32, DateTime64 without precision,
 * the geo types, SimpleAggregateFunction, Array(Map) with empty maps and flattened Nested columns are written as
 * VALUES or as PreparedStatement batches, and read back from the RowBinaryWithNamesAndTypes header and rows the
 * driver asks for (natively compressed or not); aggregate states are built with -State and finished with -Merge;
 * a result cut by an error after the body started fails the read instead of looking complete; session_timezone is
 * the zone the driver is told (X-ClickHouse-Timezone) and shows DateTime values in; JSON, Variant and Dynamic values
 * come back as the driver decodes their binary type encoding.
 */
class NewTypesJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {false, true})
    void valuesOfTheNewTypesReadBackThroughTheDriver(boolean compress) throws Exception {
        String t = "nt_" + compress;
        try (Connection c = STUB.connect("compress", Boolean.toString(compress)); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + t + " (k UInt8, a IPv4, b IPv6, d DateTime32, e DateTime64, p Point, r Ring, pg Polygon,"
                + " mp MultiPolygon, l LineString, ml MultiLineString, s SimpleAggregateFunction(sum, UInt64), am Array(Map(String, UInt8)),"
                + " n Nested(x UInt8, y String)) ENGINE = MergeTree ORDER BY k");
            assertEquals(2, st.executeUpdate("INSERT INTO " + t + " VALUES (1, '1.2.3.4', '2001:db8::1', '2024-01-02 03:04:05',"
                + " '2024-01-02 03:04:05.123456', (1, 2), [(0, 0), (1, 1)], [[(0, 0), (1, 1)]], [[[(0, 0)]]], [(1, 2)], [[(3, 4)]], 7,"
                + " [{}, {'a': 1}, {}], [1, 2], ['u', 'v']), (2, '0.0.0.0', '::ffff:10.0.0.1', 0, 0, (0, 0), [], [], [], [], [], 0, [], [], [])"));
            try (ResultSet rs = st.executeQuery("SELECT * FROM " + t + " ORDER BY k")) {
                ResultSetMetaData md = rs.getMetaData();
                String[] types = new String[md.getColumnCount()];
                for (int i = 0; i < types.length; i++) {
                    types[i] = md.getColumnName(i + 1) + " " + md.getColumnTypeName(i + 1);
                }
                assertArrayEquals(new String[] {"k UInt8", "a IPv4", "b IPv6", "d DateTime", "e DateTime64(3)", "p Point", "r Ring",
                    "pg Polygon", "mp MultiPolygon", "l LineString", "ml MultiLineString", "s SimpleAggregateFunction(sum, UInt64)",
                    "am Array(Map(String, UInt8))", "n.x Array(UInt8)", "n.y Array(String)"}, types);
                assertTrue(rs.next());
                assertEquals(InetAddress.getByName("1.2.3.4"), rs.getObject("a"));
                assertEquals(InetAddress.getByName("2001:db8::1"), rs.getObject("b"));
                assertEquals(Timestamp.valueOf("2024-01-02 03:04:05"), rs.getTimestamp("d"));
                assertEquals(Timestamp.valueOf("2024-01-02 03:04:05.123"), rs.getTimestamp("e"));
                assertArrayEquals(new double[] {1, 2}, (double[]) rs.getObject("p"));
                assertArrayEquals(new double[][] {{0, 0}, {1, 1}}, (double[][]) rs.getObject("r"));
                assertArrayEquals(new double[][][] {{{0, 0}, {1, 1}}}, (double[][][]) rs.getObject("pg"));
                assertArrayEquals(new double[][][][] {{{{0, 0}}}}, (double[][][][]) rs.getObject("mp"));
                assertArrayEquals(new double[][] {{1, 2}}, (double[][]) rs.getObject("l"));
                assertArrayEquals(new double[][][] {{{3, 4}}}, (double[][][]) rs.getObject("ml"));
                assertEquals(7L, rs.getLong("s"));
                Object[] maps = (Object[]) rs.getArray("am").getArray();
                assertEquals(List.of(Map.of(), Map.of("a", (short) 1), Map.of()), List.of(maps));
                assertEquals("[1, 2]", rs.getString("n.x"));
                assertEquals("['u', 'v']", rs.getString("n.y"));
                assertTrue(rs.next());
                assertEquals(InetAddress.getByName("0.0.0.0"), rs.getObject("a"));
                assertEquals("::ffff:10.0.0.1", STUB.scalar("SELECT b FROM " + t + " WHERE k = 2"));
                assertEquals(0, ((Object[]) rs.getArray("am").getArray()).length);
                assertEquals(0, ((double[][]) rs.getObject("r")).length);
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void preparedStatementBatchesWriteTheNewTypes() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE nt_ps (k UInt8, a IPv4, b IPv6, e DateTime64, am Array(Map(String, UInt8))) ENGINE = MergeTree ORDER BY k");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO nt_ps VALUES (?, ?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setObject(2, InetAddress.getByName("10.1.2.3"));
                ps.setObject(3, InetAddress.getByName("2001:db8::7"));
                ps.setTimestamp(4, Timestamp.valueOf("2024-05-06 07:08:09.456"));
                ps.setObject(5, List.of(Map.of(), Map.of("a", 1)));
                ps.addBatch();
                ps.setInt(1, 2);
                ps.setObject(2, InetAddress.getByName("10.1.2.4"));
                ps.setObject(3, InetAddress.getByName("::1"));
                ps.setTimestamp(4, Timestamp.valueOf("2024-05-06 07:08:09.5"));
                ps.setObject(5, List.of());
                ps.addBatch();
                assertArrayEquals(new int[] {1, 1}, ps.executeBatch());
            }
        }
        assertEquals("1\t10.1.2.3\t2001:db8::7\t2024-05-06 07:08:09.456\t[{},{'a':1}]\n2\t10.1.2.4\t::1\t2024-05-06 07:08:09.500\t[]",
            STUB.scalar("SELECT * FROM nt_ps ORDER BY k"));
    }

    @Test
    void aggregateStatesMergeThroughTheDriver() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE src (g UInt8, x UInt32) ENGINE = MergeTree ORDER BY g");
            st.execute("CREATE TABLE agg (g UInt8, n AggregateFunction(count), s AggregateFunction(sum, UInt32), u AggregateFunction(uniq, UInt32),"
                + " a AggregateFunction(avg, UInt32)) ENGINE = MergeTree ORDER BY g");
            st.executeUpdate("INSERT INTO src VALUES (1, 10), (1, 20), (2, 20)");
            st.executeUpdate("INSERT INTO agg SELECT g, countState(), sumState(x), uniqState(x), avgState(x) FROM src GROUP BY g");
            st.executeUpdate("INSERT INTO src VALUES (1, 30), (1, 10)");
            st.executeUpdate("INSERT INTO agg SELECT g, countState(), sumState(x), uniqState(x), avgState(x) FROM src WHERE x != 20 GROUP BY g");
            try (ResultSet rs = st.executeQuery("SELECT countMerge(n), sumMerge(s), uniqMerge(u), avgMerge(a) FROM agg WHERE g = 1")) {
                assertTrue(rs.next());
                assertEquals(5, rs.getLong(1));
                assertEquals(80, rs.getLong(2));
                assertEquals(3, rs.getLong(3));
                assertEquals(16.0, rs.getDouble(4), 1e-9);
            }
        }
    }

    @Test
    void aResultCutByAnErrorFailsTheReadInsteadOfLookingComplete() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            long[] rows = {0};
            SQLException e = assertThrows(SQLException.class, () -> {
                try (ResultSet rs = st.executeQuery("SELECT number, throwIf(number = 250000) FROM numbers(300000) SETTINGS max_block_size = 1000")) {
                    while (rs.next()) {
                        rows[0]++;
                    }
                }
            });
            assertTrue(rows[0] > 0 && rows[0] < 250000, "rows before the error: " + rows[0] + " (" + e + ")");
            assertEquals("1", STUB.scalar("SELECT 1"), "the server keeps answering");
        }
    }

    @Test
    void sessionTimezoneAppliesToResultsReadThroughTheDriver() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tz (d DateTime, u DateTime('UTC')) ENGINE = MergeTree ORDER BY d");
            st.executeUpdate("INSERT INTO tz VALUES ('2024-01-01 00:00:00', '2024-01-01 00:00:00')");
            try (ResultSet rs = st.executeQuery("SELECT d, u, toString(d), timezone() FROM tz SETTINGS session_timezone = 'Asia/Tokyo'")) {
                assertTrue(rs.next());
                assertEquals("2024-01-01 09:00:00", rs.getString(1), "shown in the session zone");
                assertEquals("2024-01-01 00:00:00", rs.getString(2), "a type with its own zone keeps it");
                assertEquals("2024-01-01 09:00:00", rs.getString(3));
                assertEquals("Asia/Tokyo", rs.getString(4));
                assertEquals(java.time.Instant.parse("2024-01-01T00:00:00Z"), rs.getObject(1, java.time.ZonedDateTime.class).toInstant());
            }
        }
    }

    @Test
    void jsonVariantAndDynamicReadBackThroughTheDriver() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE sd (k UInt8, v Variant(UInt64, String), d Dynamic, j JSON) ENGINE = MergeTree ORDER BY k");
            st.executeUpdate("INSERT INTO sd VALUES (1, 42, 'abc', '{\"a\": {\"b\": 7}, \"s\": \"x\"}'), (2, 'text', 1.5, '{}'), (3, NULL, NULL, '{\"c\": [1, 2]}')");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO sd VALUES (?, ?, ?, ?)")) {
                ps.setInt(1, 4);
                ps.setLong(2, 9);
                ps.setString(3, "from a batch");
                ps.setString(4, "{\"p\": {\"q\": \"r\"}}");
                ps.addBatch();
                assertArrayEquals(new int[] {1}, ps.executeBatch());
            }
            try (ResultSet rs = st.executeQuery("SELECT * FROM sd ORDER BY k")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals("Variant(String, UInt64)", md.getColumnTypeName(2));
                assertEquals("Dynamic", md.getColumnTypeName(3));
                assertEquals("JSON", md.getColumnTypeName(4));
                assertTrue(rs.next());
                assertEquals(42L, ((Number) rs.getObject("v")).longValue());
                assertEquals("abc", rs.getObject("d"));
                assertEquals(Map.of("a.b", 7L, "s", "x"), rs.getObject("j"));
                assertTrue(rs.next());
                assertEquals("text", rs.getObject("v"));
                assertEquals(1.5, rs.getObject("d"));
                assertEquals(Map.of(), rs.getObject("j"));
                assertTrue(rs.next());
                assertEquals(null, rs.getObject("v"));
                assertEquals(null, rs.getObject("d"));
                assertEquals("{c=[1, 2]}", String.valueOf(rs.getObject("j")));
                assertTrue(rs.next());
                assertEquals(9L, ((Number) rs.getObject("v")).longValue());
                assertEquals("from a batch", rs.getObject("d"));
                assertEquals(Map.of("p.q", "r"), rs.getObject("j"));
                assertFalse(rs.next());
            }
        }
    }

    /** The driver's HTTP compression sends {@code Content-Encoding: lz4} bodies and asks for {@code Accept-Encoding: lz4}. */
    @Test
    void theDriversHttpLz4CompressionWorksBothWays() throws Exception {
        try (Connection c = STUB.connect("client.use_http_compression", "true", "compress", "true", "decompress", "true");
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE hc (k UInt32, s String) ENGINE = MergeTree ORDER BY k");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO hc VALUES (?, ?)")) {
                for (int i = 0; i < 1000; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "row " + i);
                    ps.addBatch();
                }
                assertEquals(1000, ps.executeBatch().length);
            }
            try (ResultSet rs = st.executeQuery("SELECT count(), sum(k), max(s) FROM hc")) {
                assertTrue(rs.next());
                assertEquals(1000, rs.getLong(1));
                assertEquals(499500, rs.getLong(2));
                assertEquals("row 999", rs.getString(3));
            }
        }
    }
}
