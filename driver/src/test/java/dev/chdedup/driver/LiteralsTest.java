package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.sql.Array;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Parameter values rendered as ClickHouse literals, as the official driver inlines them (PROTOCOL.md section 8). */
class LiteralsTest {

    private static String render(Object v) throws SQLException {
        StringBuilder sb = new StringBuilder();
        Literals.render(v, sb);
        return sb.toString();
    }

    @Test
    void stringsAreQuotedWithBackslashEscapes() throws SQLException {
        assertEquals("'plain'", render("plain"));
        assertEquals("''", render(""));
        assertEquals("'it\\'s'", render("it's"));
        assertEquals("'back\\\\slash'", render("back\\slash"));
        assertEquals("'\\\\\\''", render("\\'"));
        assertEquals("'line\nbreak\ttab'", render("line\nbreak\ttab"));
        assertEquals("'ünïcødé ✓ 😀 中文'", render("ünïcødé ✓ 😀 中文"));
        assertEquals("'x'", render('x'));
        assertEquals("'\\''", render('\''));
        assertEquals("'a\\'b'", Literals.quote("a'b"));
    }

    @Test
    void nullAndBooleans() throws SQLException {
        assertEquals("NULL", render(null));
        assertEquals("1", render(true));
        assertEquals("0", render(Boolean.FALSE));
    }

    @Test
    void numbers() throws SQLException {
        assertEquals("42", render(42));
        assertEquals("-7", render((byte) -7));
        assertEquals("123", render((short) 123));
        assertEquals("9223372036854775807", render(Long.MAX_VALUE));
        assertEquals("1.5", render(1.5));
        assertEquals("0.25", render(0.25f));
        assertEquals("-0.0", render(-0.0));
        assertEquals("1.0E300", render(1e300));
        assertEquals("340282366920938463463374607431768211455", render(new BigInteger("340282366920938463463374607431768211455")));
    }

    @Test
    void nanAndInfinity() throws SQLException {
        assertEquals("nan", render(Double.NaN));
        assertEquals("inf", render(Double.POSITIVE_INFINITY));
        assertEquals("-inf", render(Double.NEGATIVE_INFINITY));
        assertEquals("nan", render(Float.NaN));
        assertEquals("-inf", render(Float.NEGATIVE_INFINITY));
    }

    @Test
    void bigDecimalsArePlain() throws SQLException {
        assertEquals("12.3400", render(new BigDecimal("12.3400")));
        assertEquals("1000", render(new BigDecimal("1E+3")));
        assertEquals("0.000000001", render(new BigDecimal("1E-9")));
        assertEquals("-123456789012345678901234567890.123456789", render(new BigDecimal("-123456789012345678901234567890.123456789")));
    }

    @Test
    void datesAndTimes() throws SQLException {
        assertEquals("'2024-01-02'", render(LocalDate.of(2024, 1, 2)));
        assertEquals("'2024-01-02'", render(java.sql.Date.valueOf("2024-01-02")));
        assertEquals("'1970-01-01'", render(LocalDate.EPOCH));
        assertEquals("'10:15:30'", render(LocalTime.of(10, 15, 30)));
        assertEquals("'10:15:00'", render(LocalTime.of(10, 15)));
        assertEquals("'10:15:00'", render(Time.valueOf("10:15:00")));
        assertEquals("'23:59:59'", render(Time.valueOf("23:59:59")));
    }

    @Test
    void localDateTimesAreQuotedText() throws SQLException {
        assertEquals("'2024-01-02 03:04:05'", render(LocalDateTime.of(2024, 1, 2, 3, 4, 5)));
        assertEquals("'2024-01-02 03:04:05.123000000'", render(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000)));
        assertEquals("'2024-01-02 03:04:05.000000001'", render(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 1)));
    }

    @Test
    void instantsAreEpochNanoseconds() throws SQLException {
        Instant t = Instant.parse("2024-01-02T03:04:05.123456789Z");
        String expected = "fromUnixTimestamp64Nano(1704164645123456789)";
        assertEquals(expected, render(t));
        assertEquals(expected, render(Timestamp.from(t)));
        assertEquals(expected, render(t.atOffset(ZoneOffset.ofHours(5))));
        assertEquals(expected, render(t.atZone(ZoneId.of("America/New_York"))));
        assertEquals("fromUnixTimestamp64Nano(0)", render(Instant.EPOCH));
        assertEquals("fromUnixTimestamp64Nano(-999999999)", render(Instant.ofEpochSecond(-1, 1)));
        assertEquals("fromUnixTimestamp64Nano(1000)", render(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 1000, ZoneOffset.UTC)));
        assertEquals("fromUnixTimestamp64Nano(3600000000000)", render(ZonedDateTime.of(1970, 1, 1, 2, 0, 0, 0, ZoneOffset.ofHours(1))));
    }

    @Test
    void timestampKeepsItsNanoseconds() throws SQLException {
        Timestamp ts = new Timestamp(1_704_164_645_000L);
        ts.setNanos(987_654_321);
        assertEquals("fromUnixTimestamp64Nano(1704164645987654321)", render(ts));
    }

    @Test
    void uuidBytesAndInetAddresses() throws Exception {
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertEquals("'123e4567-e89b-12d3-a456-426614174000'", render(u));
        assertEquals("unhex('00ff10a5')", render(new byte[] {0, (byte) 0xff, 0x10, (byte) 0xa5}));
        assertEquals("unhex('')", render(new byte[0]));
        assertEquals("'10.1.2.3'", render(InetAddress.getByName("10.1.2.3")));
    }

    @Test
    void arraysAndLists() throws SQLException {
        assertEquals("[1,2,3]", render(new int[] {1, 2, 3}));
        assertEquals("[1.5,nan]", render(new double[] {1.5, Double.NaN}));
        assertEquals("['a','b\\'c',NULL]", render(new String[] {"a", "b'c", null}));
        assertEquals("[]", render(new Object[0]));
        assertEquals("[[1,2],[]]", render(new int[][] {{1, 2}, {}}));
        assertEquals("['x','y']", render(List.of("x", "y")));
        assertEquals("[[1],[2,3]]", render(List.of(List.of(1), List.of(2, 3))));
        assertEquals("[1,2]", render(new TreeSet<>(Set.of(2, 1))));
        assertEquals("[1,0]", render(new boolean[] {true, false}));
        assertEquals("['2024-01-02']", render(List.of(LocalDate.of(2024, 1, 2))));
    }

    @Test
    void sqlArraysOfObjectsAndOfPrimitives() throws SQLException {
        assertEquals("['a','b']", render(sqlArray(new String[] {"a", "b"})));
        assertEquals("[1,2]", render(sqlArray(new long[] {1, 2})));
        assertEquals("[1,-1]", render(sqlArray(new byte[] {1, -1})));
        assertEquals("[[1],[]]", render(sqlArray(new Integer[][] {{1}, {}})));
    }

    @Test
    void maps() throws SQLException {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put("k1", 1);
        m.put("it's", List.of(2, 3));
        assertEquals("{'k1':1,'it\\'s':[2,3]}", render(m));
        assertEquals("{}", render(Map.of()));
        assertEquals("{1:{'a':NULL}}", render(Map.of(1, singletonNullMap("a"))));
    }

    private enum Color { RED }

    @Test
    void enumsAreTheirNames() throws SQLException {
        assertEquals("'RED'", render(Color.RED));
    }

    @Test
    void unknownTypesAreRefused() {
        SQLFeatureNotSupportedException e = assertThrows(SQLFeatureNotSupportedException.class, () -> render(new Object()));
        assertEquals("Cannot send a parameter of type java.lang.Object", e.getMessage());
    }

    @Test
    void renderingAppends() throws SQLException {
        StringBuilder sb = new StringBuilder("(");
        Literals.render(1, sb);
        sb.append(',');
        Literals.render("a", sb);
        assertEquals("(1,'a'", sb.toString());
    }

    private static Map<Object, Object> singletonNullMap(String key) {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(key, null);
        return m;
    }

    /** A java.sql.Array whose getArray() returns {@code content} as is. */
    private static Array sqlArray(Object content) {
        return (Array) Proxy.newProxyInstance(LiteralsTest.class.getClassLoader(), new Class<?>[] {Array.class}, (p, m, a) -> {
            switch (m.getName()) {
                case "getArray":
                    return content;
                case "toString":
                    return "Array" + Arrays.deepToString(new Object[] {content});
                default:
                    throw new UnsupportedOperationException(m.getName());
            }
        });
    }
}
