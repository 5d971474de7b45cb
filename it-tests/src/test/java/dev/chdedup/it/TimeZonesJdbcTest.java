package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fixed-offset time zone ({@code Fixed/UTC+05:30:00}, ClickHouse's name for a zone known only by its offset) in a
 * column's type, a function and {@code session_timezone}, through the official JDBC driver; and a name ClickHouse does
 * not load refused as it refuses it.
 */
class TimeZonesJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void aFixedOffsetZoneWorksInATypeAFunctionAndTheSession() throws Exception {
        STUB.scalar("CREATE TABLE tz_fixed (k UInt8, d DateTime('Fixed/UTC+05:30:00'), d3 DateTime64(3, 'Fixed/UTC-03:00:00'))"
            + " ENGINE = MergeTree ORDER BY k");
        try (Connection c = STUB.connect()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tz_fixed VALUES (?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setString(2, "2020-01-01 05:30:00");
                ps.setString(3, "2020-01-01 00:00:00.250");
                ps.executeUpdate();
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT toUnixTimestamp(d), toString(d), toTypeName(d), toUnixTimestamp64Milli(d3), toString(d3),"
                    + " toString(toDateTime(0, 'Fixed/UTC+05:30:00')), toHour(toDateTime(0)) FROM tz_fixed"
                    + " SETTINGS session_timezone = 'Fixed/UTC+05:30:00'")) {
                assertTrue(rs.next());
                assertEquals(1577836800L, rs.getLong(1));
                assertEquals("2020-01-01 05:30:00", rs.getString(2));
                assertEquals("DateTime('Fixed/UTC+05:30:00')", rs.getString(3));
                assertEquals(1577847600250L, rs.getLong(4));
                assertEquals("2020-01-01 00:00:00.250", rs.getString(5));
                assertEquals("1970-01-01 05:30:00", rs.getString(6));
                assertEquals(5, rs.getInt(7));
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT d FROM tz_fixed")) {
                assertTrue(rs.next());
                assertEquals(OffsetDateTime.of(2020, 1, 1, 5, 30, 0, 0, ZoneOffset.ofHoursMinutes(5, 30)).toInstant(),
                    rs.getObject(1, ZonedDateTime.class).toInstant());
            }
        }
    }

    @Test
    void aZoneClickHouseDoesNotLoadIsRefused() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            for (String zone : new String[] {"Z", "+05:30", "UTC+5", "Fixed/UTC+05:30", "Fixed/UTC+25:00:00"}) {
                SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> st.executeQuery("SELECT toDateTime(0, '" + zone + "')").next(), zone);
                assertTrue(e.getMessage().contains("Code: 36") && e.getMessage().contains("BAD_ARGUMENTS"), e.getMessage());
            }
        }
    }
}
