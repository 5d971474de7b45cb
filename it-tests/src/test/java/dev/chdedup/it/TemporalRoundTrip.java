package dev.chdedup.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One scenario shared by the stub's profiles and a real 18.16: a PreparedStatement batch sets Date, DateTime (the
 * server's zone and Asia/Tokyo), Nullable(DateTime), Array(DateTime) and, where the server has the type, DateTime64(3)
 * and DateTime64(6, 'America/New_York') columns through every JDBC date and time setter (setTimestamp, setDate, setTime,
 * setObject with LocalDate, LocalDateTime, Instant, OffsetDateTime, ZonedDateTime, lists and arrays), and the rows read
 * back over plain HTTP (the official driver cannot SELECT from 18.16) must be what was set: the same instant, or the
 * same wall-clock fields read in the column's zone, truncated to the column's precision.
 */
public final class TemporalRoundTrip {
    /** Runs SQL over plain HTTP and returns the TabSeparated body. */
    public interface Sql {
        String run(String sql) throws Exception;
    }

    static final Instant T1 = Instant.parse("2024-01-02T03:04:05.123456789Z");
    static final Instant T2 = Instant.parse("2024-07-01T23:30:00Z");
    private static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private TemporalRoundTrip() {
    }

    /** The CREATE TABLE body (columns) of the scenario's table; {@code dateTime64}: whether the server has DateTime64. */
    public static String columns(boolean dateTime64) {
        return "row UInt32, d Date, dt DateTime, dtz DateTime('Asia/Tokyo'), n Nullable(DateTime), a Array(DateTime)"
            + (dateTime64 ? ", d64 DateTime64(3), d64z DateTime64(6, 'America/New_York')" : "");
    }

    /** Inserts the three rows through the driver at {@code jdbcUrl} into {@code table} as one batch. */
    public static void insert(String jdbcUrl, String table, boolean dateTime64) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            insert(c, table, dateTime64, 0);
        }
    }

    /** Inserts the three rows numbered from {@code base} through {@code c} (a driver connection) as one batch. */
    public static void insert(Connection c, String table, boolean dateTime64, int base) throws SQLException {
        String cols = dateTime64 ? "row, d, dt, dtz, n, a, d64, d64z" : "row, d, dt, dtz, n, a";
        String marks = dateTime64 ? "?, ?, ?, ?, ?, ?, ?, ?" : "?, ?, ?, ?, ?, ?";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (" + cols + ") VALUES (" + marks + ")")) {
            ps.setInt(1, base);
            ps.setDate(2, java.sql.Date.valueOf("2024-01-02"));
            ps.setTimestamp(3, Timestamp.from(T1));
            ps.setObject(4, T1.atOffset(ZoneOffset.ofHours(5)));
            ps.setNull(5, java.sql.Types.TIMESTAMP);
            ps.setObject(6, List.of(T1, T2));
            if (dateTime64) {
                ps.setObject(7, T1);
                ps.setObject(8, T1.atZone(ZoneId.of("Europe/Paris")));
            }
            ps.addBatch();
            ps.setInt(1, base + 1);
            ps.setObject(2, LocalDate.of(2024, 7, 1));
            ps.setObject(3, LocalDateTime.of(2024, 7, 1, 23, 30, 0, 500_000_000));
            ps.setTimestamp(4, Timestamp.from(T2));
            ps.setObject(5, T2);
            ps.setObject(6, new Timestamp[0]);
            if (dateTime64) {
                ps.setObject(7, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_789));
                ps.setTimestamp(8, Timestamp.from(T2));
            }
            ps.addBatch();
            ps.setInt(1, base + 2);
            ps.setTimestamp(2, Timestamp.from(T2));
            ps.setDate(3, java.sql.Date.valueOf("2024-01-02"));
            ps.setObject(4, LocalDateTime.of(2024, 1, 2, 3, 4, 5));
            ps.setTime(5, Time.valueOf("10:15:30"));
            ps.setObject(6, new Object[] {T1.atOffset(ZoneOffset.ofHours(-8))});
            if (dateTime64) {
                ps.setDate(7, java.sql.Date.valueOf("2024-01-02"));
                ps.setObject(8, T1.atOffset(ZoneOffset.ofHours(-8)));
            }
            ps.addBatch();
            ps.executeBatch();
        }
    }

    /** The SELECT that reads the rows back in a form every server prints the same way. */
    public static String select(String table, boolean dateTime64) {
        return "SELECT row, toString(d), toUnixTimestamp(dt), toUnixTimestamp(dtz), toUnixTimestamp(n), arrayMap(x -> toUnixTimestamp(x), a)"
            + (dateTime64 ? ", toString(d64), toString(d64z)" : "") + " FROM " + table + " ORDER BY row FORMAT TabSeparated";
    }

    /** What {@link #select} must print, for a server in {@code serverZone}. */
    public static String expected(ZoneId serverZone, boolean dateTime64) {
        return expected(serverZone, dateTime64, 0);
    }

    /** What {@link #select} prints for the three rows numbered from {@code base}. */
    public static String expected(ZoneId serverZone, boolean dateTime64, int base) {
        long t1 = T1.getEpochSecond();
        long t2 = T2.getEpochSecond();
        List<String> rows = new ArrayList<>();
        List<String> r0 = new ArrayList<>(List.of(Integer.toString(base), "2024-01-02", Long.toString(t1), Long.toString(t1), "\\N", "[" + t1 + "," + t2 + "]"));
        List<String> r1 = new ArrayList<>(List.of(Integer.toString(base + 1), "2024-07-01", epoch(LocalDateTime.of(2024, 7, 1, 23, 30), serverZone), Long.toString(t2),
            Long.toString(t2), "[]"));
        List<String> r2 = new ArrayList<>(List.of(Integer.toString(base + 2), T2.atZone(serverZone).toLocalDate().toString(),
            epoch(LocalDateTime.of(2024, 1, 2, 0, 0), serverZone), epoch(LocalDateTime.of(2024, 1, 2, 3, 4, 5), TOKYO),
            epoch(LocalDateTime.of(1970, 1, 1, 10, 15, 30), serverZone), "[" + t1 + "]"));
        if (dateTime64) {
            r0.addAll(List.of(MILLIS.format(T1.atZone(serverZone)), MICROS.format(T1.atZone(NEW_YORK))));
            r1.addAll(List.of("2024-01-02 03:04:05.123", MICROS.format(T2.atZone(NEW_YORK))));
            r2.addAll(List.of("2024-01-02 00:00:00.000", MICROS.format(T1.atZone(NEW_YORK))));
        }
        for (List<String> r : List.of(r0, r1, r2)) {
            rows.add(String.join("\t", r));
        }
        return rows.stream().collect(Collectors.joining("\n")) + "\n";
    }

    private static String epoch(LocalDateTime local, ZoneId zone) {
        return Long.toString(local.atZone(zone).toEpochSecond());
    }
}
