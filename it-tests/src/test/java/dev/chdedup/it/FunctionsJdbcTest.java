package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Functions and table functions the official Java client's own test suites call, through its JDBC driver: intervals
 * and date arithmetic, xxHash64 and SHA256, randomString, the user's roles, a custom setting and remote() over this
 * same server. The answers are the engine's (the stub's unit tests hold them to answers recorded from ClickHouse 26.7).
 */
class FunctionsJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void theClientSuitesFunctionsAnswerAsTheEngine() throws Exception {
        STUB.scalar("CREATE TABLE fn_t (a UInt8) ENGINE = MergeTree ORDER BY a");
        STUB.scalar("INSERT INTO fn_t VALUES (1), (2)");
        String own = "'127.0.0.1:" + STUB.server().port() + "'";
        try (Connection c = STUB.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
            "SELECT toDate('2020-01-31') + toIntervalMonth(1), toTypeName(toDate('2020-01-01') + INTERVAL 1 HOUR),"
                + " toDateTime('2020-01-01 00:00:00', 'UTC') + toIntervalDay(1) + toIntervalHour(2), toInterval(5, 'second'),"
                + " xxHash64('abc'), xxHash32('abc'), hex(SHA256('abc')), length(randomString(7)), toTypeName(randomFixedString(4)),"
                + " length(currentRoles()), currentUser(), getSetting('custom_x'),"
                + " (SELECT sum(a) FROM remote(" + own + ", default.fn_t))"
                + " SETTINGS custom_x = 'v'")) {
            assertTrue(rs.next());
            assertEquals("2020-02-29", rs.getString(1));
            assertEquals("DateTime", rs.getString(2));
            assertEquals("2020-01-02 02:00:00", rs.getString(3).replace('T', ' '));
            assertEquals(java.time.Duration.ofSeconds(5), rs.getObject(4, java.time.Duration.class), "the driver reads an IntervalSecond as a Duration");
            assertEquals("4952883123889572249", rs.getString(5));
            assertEquals(852579327L, rs.getLong(6));
            assertEquals("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", rs.getString(7));
            assertEquals(7, rs.getInt(8));
            assertEquals("FixedString(4)", rs.getString(9));
            assertEquals(0, rs.getInt(10));
            assertEquals("default", rs.getString(11));
            assertEquals("v", rs.getString(12));
            assertEquals(3, rs.getLong(13));
        }
    }

    @Test
    void aLogicalOperatorOverABoolIsABool() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
            "SELECT FALSE OR 1, 1 AND 0, NOT true, xor(true, 0), toTypeName(FALSE OR 1), toTypeName(1 OR 0)")) {
            assertTrue(rs.next());
            assertEquals(Boolean.TRUE, rs.getObject(1), "FALSE OR 1 is a Bool the driver reads as a Boolean");
            assertEquals(0, rs.getInt(2), "1 AND 0 stays a UInt8");
            assertEquals(Boolean.FALSE, rs.getObject(3));
            assertEquals(Boolean.TRUE, rs.getObject(4));
            assertEquals("Bool", rs.getString(5));
            assertEquals("UInt8", rs.getString(6));
        }
    }

    @Test
    void anIntervalColumnRoundTrips() throws Exception {
        STUB.scalar("CREATE TABLE fn_iv (k UInt8, y IntervalYear, d IntervalDay) ENGINE = Memory");
        STUB.scalar("INSERT INTO fn_iv VALUES (1, 2, 30)");
        try (Connection c = STUB.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
            "SELECT y, d, toTypeName(y), toDate('2020-02-29') + y FROM fn_iv")) {
            assertTrue(rs.next());
            assertEquals(java.time.Period.ofYears(2), rs.getObject(1, java.time.Period.class), "the driver reads an IntervalYear as a Period");
            assertEquals(java.time.Period.ofDays(30), rs.getObject(2, java.time.Period.class));
            assertEquals("IntervalYear", rs.getString(3));
            assertEquals("2022-02-28", rs.getString(4));
        }
    }
}
