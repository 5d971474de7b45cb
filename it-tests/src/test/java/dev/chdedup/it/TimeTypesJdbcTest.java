package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Time and Time64 through the official clients, as their own suites use them: a table of both written through a
 * PreparedStatement and read back as text and as the client's values, RowBinary both ways.
 */
class TimeTypesJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void timeColumnsRoundTripThroughTheJdbcDriver() throws Exception {
        STUB.scalar("CREATE TABLE times (k UInt8, t Time, t3 Time64(3)) ENGINE = MergeTree ORDER BY k");
        try (Connection c = STUB.connect("clickhouse_setting_allow_experimental_time_time64_type", "1")) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO times VALUES (?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setString(2, "12:30:00");
                ps.setString(3, "-01:00:00.250");
                ps.addBatch();
                ps.setInt(1, 2);
                ps.setString(2, "999:59:59");
                ps.setString(3, "00:00:01.5");
                ps.addBatch();
                ps.executeBatch();
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT toString(t), toString(t3), toInt32(t), t3 + 1, t - toTime('12:00:00'), toTypeName(t3) FROM times ORDER BY k")) {
                assertTrue(rs.next());
                assertEquals("12:30:00", rs.getString(1));
                assertEquals("-01:00:00.250", rs.getString(2));
                assertEquals(45000, rs.getInt(3));
                assertEquals("Time64(3)", rs.getString(6));
                assertEquals(1800, rs.getInt(5));
                assertTrue(rs.next());
                assertEquals("999:59:59", rs.getString(1));
                assertEquals("00:00:01.500", rs.getString(2));
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT t, t3 FROM times ORDER BY k")) {
                assertTrue(rs.next());
                Object t = rs.getObject(1);
                Object t3 = rs.getObject(2);
                assertEquals(java.sql.Time.valueOf("12:30:00"), t, "the driver reads a Time from RowBinary as a java.sql.Time");
                assertTrue(t3 instanceof java.sql.Time, "and a Time64: " + t3.getClass());
            }
        }
        try (Client client = STUB.newClient()) {
            List<GenericRecord> rows = client.queryAll("SELECT t, t3, toString(t) AS s FROM times ORDER BY k");
            assertEquals(2, rows.size());
            assertEquals("12:30:00", rows.get(0).getString("s"));
        }
    }
}
