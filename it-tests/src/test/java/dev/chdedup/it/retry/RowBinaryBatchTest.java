package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A PreparedStatement batch of the simple form goes as RowBinary ({@code INSERT ... FORMAT RowBinary} in the server's
 * query log) and lands exactly what the official driver's text path lands for the same Java values, over every column
 * type the RowBinary writer takes: the tables' {@code SELECT * ORDER BY} answers are compared as text.
 */
class RowBinaryBatchTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    static final String COLUMNS = "(id UInt32, i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64,"
        + " i128 Int128, i256 Int256, u128 UInt128, u256 UInt256, f32 Float32, f64 Float64,"
        + " d32 Decimal(9, 2), d64 Decimal(18, 6), d128 Decimal(38, 10), d256 Decimal(76, 20), s String, fs FixedString(8), b Bool,"
        + " d Date, d32x Date32, dt DateTime, dtz DateTime('Asia/Tokyo'), dtl DateTime('Asia/Tokyo'), dt64 DateTime64(3), dt64z DateTime64(6, 'America/New_York'),"
        + " uuid UUID, ip4 IPv4, ip6 IPv6, e8 Enum8('a' = 1, 'b' = 2), e16 Enum16('x' = 1000, 'y' = -5),"
        + " n Nullable(Int32), ns Nullable(String), lc LowCardinality(String), lcn LowCardinality(Nullable(String)),"
        + " arr Array(Int32), arrs Array(Nullable(String)), arr2 Array(Array(UInt8)), m Map(String, UInt64), t Tuple(String, Int32))";

    private static StubServer stub() {
        return STUB.server();
    }

    private static String create(String prefix) throws SQLException {
        String t = "default." + prefix + "_" + System.nanoTime();
        RetryFixtures.exec(stub(), "CREATE TABLE " + t + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id"
            + " SETTINGS non_replicated_deduplication_window = 100");
        return t;
    }

    /** Binds row {@code i} with the Java values a JDBC user passes for each column. */
    static void bind(Connection c, PreparedStatement ps, int i, boolean tupleAsList) throws Exception {
        int p = 1;
        ps.setInt(p++, i);
        ps.setByte(p++, (byte) (i % 2 == 0 ? -128 : 127));
        ps.setShort(p++, (short) (-30000 + i));
        ps.setInt(p++, Integer.MIN_VALUE + i);
        ps.setLong(p++, Long.MAX_VALUE - i);
        ps.setInt(p++, 255 - i);
        ps.setInt(p++, 65535 - i);
        ps.setLong(p++, 4_294_967_295L - i);
        ps.setObject(p++, BigInteger.TWO.pow(64).subtract(BigInteger.valueOf(1 + i)));
        ps.setObject(p++, BigInteger.TWO.pow(120).negate().add(BigInteger.valueOf(i)));
        ps.setObject(p++, BigInteger.TWO.pow(250).subtract(BigInteger.valueOf(i)));
        ps.setObject(p++, BigInteger.TWO.pow(128).subtract(BigInteger.ONE));
        ps.setObject(p++, BigInteger.valueOf(i).shiftLeft(200));
        ps.setFloat(p++, 1.5f + i);
        ps.setDouble(p++, -0.1 * i);
        ps.setBigDecimal(p++, new BigDecimal("-1234567.89").add(BigDecimal.valueOf(i)));
        ps.setBigDecimal(p++, new BigDecimal("123456789012.123456"));
        ps.setBigDecimal(p++, new BigDecimal("-1234567890123456789012345678.0123456789"));
        ps.setBigDecimal(p++, new BigDecimal("12345678901234567890123456789012345678901234567890.12345678901234567890").negate());
        ps.setString(p++, "it's ünïcødé ✓ \\ row " + i);
        ps.setString(p++, "fs" + i);
        ps.setBoolean(p++, i % 2 == 1);
        ps.setObject(p++, LocalDate.of(2024, 2, 29).plusDays(i));
        ps.setObject(p++, LocalDate.of(1950, 1, 1).plusDays(i));
        ps.setTimestamp(p++, Timestamp.from(Instant.parse("2024-03-10T01:59:58Z").plusSeconds(i)));
        ps.setObject(p++, Instant.parse("2024-01-02T03:04:05Z").plusSeconds(i * 3600L));
        ps.setObject(p++, LocalDateTime.of(2024, 1, 2, 3, 4, 5).plusHours(i));
        ps.setTimestamp(p++, new Timestamp(1_700_000_000_123L + i));
        ps.setObject(p++, OffsetDateTime.of(2024, 11, 3, 5, 30, 0, 123_456_789, ZoneOffset.UTC).plusMinutes(i * 20L));
        ps.setObject(p++, new UUID(0x0123456789abcdefL + i, 0xfedcba9876543210L));
        ps.setObject(p++, InetAddress.getByName("192.168.1." + (i % 250)));
        ps.setObject(p++, InetAddress.getByName("2001:db8::" + Integer.toHexString(i + 1)));
        ps.setString(p++, i % 2 == 0 ? "a" : "b");
        ps.setString(p++, i % 2 == 0 ? "x" : "y");
        if (i % 3 == 0) {
            ps.setNull(p++, java.sql.Types.INTEGER);
            ps.setNull(p++, java.sql.Types.VARCHAR);
        } else {
            ps.setInt(p++, -i);
            ps.setString(p++, "n" + i);
        }
        ps.setString(p++, "lc" + (i % 3));
        ps.setString(p++, i % 2 == 0 ? null : "lcn");
        ps.setObject(p++, new int[] {i, -i, 7});
        ps.setObject(p++, Arrays.asList("a", null, "c" + i));
        ps.setObject(p++, new Object[] {List.of(1, 2), List.of(), List.of(i % 256)});
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("k" + i, (long) i);
        m.put("z", 99L);
        ps.setObject(p++, m);
        // the official RowBinary writer takes a tuple as a List, its text path as a Struct; ours takes both
        ps.setObject(p++, tupleAsList ? List.of("t" + i, i) : c.createStruct("Tuple(String, Int32)", new Object[] {"t" + i, i}));
    }

    static void insert(String url, String table, int rows, boolean tupleAsList) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, i8, i16, i32, i64, u8, u16, u32, u64, i128, i256,"
                 + " u128, u256, f32, f64, d32, d64, d128, d256, s, fs, b, d, d32x, dt, dtz, dtl, dt64, dt64z, uuid, ip4, ip6, e8, e16, n, ns,"
                 + " lc, lcn, arr, arrs, arr2, m, t) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                 + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                bind(c, ps, i, tupleAsList);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static String select(String sql) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(stub().httpUrl() + "/?query=" + java.net.URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .GET().build();
        HttpResponse<String> resp = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(200, resp.statusCode(), resp.body());
        return resp.body();
    }

    /** The INSERT statements the server logged for {@code table}. */
    static List<String> insertsInto(String table) throws Exception {
        String log = select("SELECT query FROM system.query_log WHERE type = 'QueryFinish' AND query LIKE 'INSERT%' FORMAT TabSeparated");
        List<String> out = new ArrayList<>();
        String bare = table.substring(table.indexOf('.') + 1);
        for (String line : log.split("\n")) {
            if (line.contains(bare)) {
                out.add(line);
            }
        }
        return out;
    }

    /**
     * The same text, or an error naming the first row and columns that differ; {@code except} are columns left out of the
     * comparison.
     */
    static void assertSameRows(String expected, String actual, String... except) {
        String[] e = expected.split("\n");
        String[] a = actual.split("\n");
        String[] names = COLUMNS.substring(1).split(",\\s*(?=[a-z0-9]+ [A-Z])");
        for (int r = 0; r < Math.min(e.length, a.length); r++) {
            String[] ec = e[r].split("\t", -1);
            String[] ac = a[r].split("\t", -1);
            StringBuilder diff = new StringBuilder();
            for (int c = 0; c < Math.max(ec.length, ac.length); c++) {
                String x = c < ec.length ? ec[c] : "<none>";
                String y = c < ac.length ? ac[c] : "<none>";
                if (!x.equals(y) && !(c < names.length && List.of(except).contains(names[c].split(" ")[0]))) {
                    diff.append("\n  ").append(c < names.length ? names[c] : "#" + c).append(": expected ").append(x).append(", got ").append(y);
                }
            }
            assertTrue(diff.length() == 0, "row " + r + " differs:" + diff);
        }
        assertEquals(e.length, a.length, "rows");
    }

    @Test
    void everyTypeLandsAsTheOfficialDriverLandsIt() throws Exception {
        String official = create("rb_official");
        String ours = create("rb_ours");
        insert(RetryFixtures.rawUrl(stub()), official, 30, false);
        insert(RetryFixtures.oursUrl(stub()), ours, 30, false);
        String expected = select("SELECT * FROM " + official + " ORDER BY id FORMAT TabSeparated");
        assertEquals(30, expected.split("\n").length);
        // dtl: a LocalDateTime is a wall-clock time of the column's zone on both our paths and the official RowBinary path;
        // the official text path sends it as an instant of the JVM's zone (docs/driver.md), compared in the tests below
        assertSameRows(expected, select("SELECT * FROM " + ours + " ORDER BY id FORMAT TabSeparated"), "dtl");
        List<String> sent = insertsInto(ours);
        assertEquals(1, sent.size(), sent.toString());
        assertTrue(sent.get(0).contains("FORMAT RowBinary"), "our batch went as RowBinary: " + sent);
    }

    @Test
    void ourTextPathLandsTheSameRowsAsOurRowBinaryPath() throws Exception {
        String text = create("rb_text");
        String ours = create("rb_ours3");
        insert(RetryFixtures.oursUrl(stub(), "dedup.rowBinary=false"), text, 30, false);
        insert(RetryFixtures.oursUrl(stub()), ours, 30, false);
        assertSameRows(select("SELECT * FROM " + text + " ORDER BY id FORMAT TabSeparated"),
            select("SELECT * FROM " + ours + " ORDER BY id FORMAT TabSeparated"));
        assertTrue(insertsInto(text).get(0).contains("VALUES"), insertsInto(text).toString());
        assertTrue(insertsInto(ours).get(0).contains("FORMAT RowBinary"), insertsInto(ours).toString());
    }

    @Test
    void theOfficialRowBinaryPathLandsTheSameRows() throws Exception {
        String official = create("rb_official_rb");
        String ours = create("rb_ours2");
        insert(RetryFixtures.rawUrl(stub(), "beta.row_binary_for_simple_insert=true"), official, 10, true);
        insert(RetryFixtures.oursUrl(stub()), ours, 10, true);
        assertSameRows(select("SELECT * FROM " + official + " ORDER BY id FORMAT TabSeparated"),
            select("SELECT * FROM " + ours + " ORDER BY id FORMAT TabSeparated"));
    }
}
