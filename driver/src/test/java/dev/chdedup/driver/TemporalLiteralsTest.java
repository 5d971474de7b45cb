package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Date and time parameters rendered for their column in forms ClickHouse 18.16 parses as well as current servers. */
class TemporalLiteralsTest {
    private static final ZoneId UTC = ZoneId.of("Etc/UTC");
    private static final Instant T = Instant.parse("2024-01-02T03:04:05.123456789Z");

    private static String render(Object v, String type, ZoneId server) throws SQLException {
        StringBuilder sb = new StringBuilder();
        Literals.render(v, TemporalLiterals.Target.of(type, server), sb);
        return sb.toString();
    }

    @Test
    void columnTypesAreReadThroughTheirWrappers() {
        assertEquals(new TemporalLiterals.Target(TemporalLiterals.Target.Kind.DATETIME, 0, ZoneId.of("Asia/Tokyo")),
            TemporalLiterals.Target.of("Nullable(DateTime('Asia/Tokyo'))", UTC));
        assertEquals(new TemporalLiterals.Target(TemporalLiterals.Target.Kind.DATETIME64, 6, ZoneId.of("America/New_York")),
            TemporalLiterals.Target.of("Array(LowCardinality(Nullable(DateTime64(6, 'America/New_York'))))", UTC));
        assertEquals(new TemporalLiterals.Target(TemporalLiterals.Target.Kind.DATETIME64, 3, UTC), TemporalLiterals.Target.of("DateTime64(3)", UTC));
        assertEquals(TemporalLiterals.Target.Kind.DATE, TemporalLiterals.Target.of("Date32", UTC).kind());
        assertEquals(TemporalLiterals.Target.Kind.OTHER, TemporalLiterals.Target.of("String", UTC).kind());
        assertNull(TemporalLiterals.Target.of("DateTime('No/SuchZone')", UTC), "a zone Java does not know: no column form");
        assertNull(TemporalLiterals.Target.of("DateTime", null), "no server zone: no column form");
    }

    @Test
    void instantsAreTheWallClockOfTheZoneTheColumnIsReadIn() throws SQLException {
        assertEquals("'2024-01-02 03:04:05'", render(T, "DateTime", UTC));
        assertEquals("'2024-01-02 12:04:05'", render(Timestamp.from(T), "DateTime('Asia/Tokyo')", UTC));
        assertEquals("'2024-01-02 12:04:05'", render(T, "DateTime", ZoneId.of("Asia/Tokyo")), "the server's zone");
        assertEquals("'2024-01-02 03:04:05.123'", render(T.atOffset(ZoneOffset.ofHours(5)), "DateTime64(3)", UTC));
        assertEquals("'2024-01-01 22:04:05.123456'", render(T.atZone(ZoneId.of("Europe/Paris")), "DateTime64(6, 'America/New_York')", UTC));
        assertEquals("'2024-01-02 03:04:05.123456789'", render(T, "DateTime64(9)", UTC));
        assertEquals("'2024-01-02 03:04:05'", render(T, "DateTime64(0)", UTC));
        assertEquals("'2024-01-02'", render(T, "Date", UTC));
        assertEquals("'2024-01-01'", render(T, "Date", ZoneId.of("America/New_York")), "the date where the server reads it");
        assertEquals("'1969-12-31 23:59:59.999'", render(Instant.ofEpochMilli(-1), "DateTime64(3)", UTC), "truncated toward the past");
    }

    @Test
    void localValuesKeepTheirFieldsAndFitTheColumn() throws SQLException {
        LocalDateTime l = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000);
        assertEquals("'2024-01-02 03:04:05'", render(l, "DateTime('Asia/Tokyo')", UTC), "18.16 refuses a fraction for DateTime");
        assertEquals("'2024-01-02 03:04:05.12'", render(l, "DateTime64(2)", UTC));
        assertEquals("'2024-01-02'", render(l, "Date", UTC), "18.16 refuses a time for Date");
        assertEquals("'2024-01-02 00:00:00'", render(LocalDate.of(2024, 1, 2), "DateTime", UTC), "18.16 refuses a bare date for DateTime");
        assertEquals("'2024-01-02 00:00:00.000'", render(java.sql.Date.valueOf("2024-01-02"), "DateTime64(3)", UTC));
        assertEquals("'2024-01-02'", render(java.sql.Date.valueOf("2024-01-02"), "Date", UTC));
        assertEquals("'1970-01-01 10:15:30'", render(Time.valueOf("10:15:30"), "DateTime", UTC));
        assertEquals("'10:15:30'", render(LocalTime.of(10, 15, 30), "String", UTC));
        assertEquals("'2024-01-02 03:04:05.120000000'", render(l, "String", UTC));
    }

    @Test
    void aColumnOfAnotherTypeOrUnknownOneTakesTextInTheServerZone() throws SQLException {
        StringBuilder sb = new StringBuilder();
        Literals.render(T, TemporalLiterals.Target.unknownColumn(ZoneId.of("Asia/Tokyo")), sb);
        assertEquals("'2024-01-02 12:04:05.123456789'", sb.toString());
        sb.setLength(0);
        Literals.render(Instant.ofEpochSecond(5), TemporalLiterals.Target.unknownColumn(UTC), sb);
        assertEquals("'1970-01-01 00:00:05'", sb.toString(), "no fraction where there is none");
        sb.setLength(0);
        Literals.render(T, TemporalLiterals.Target.unknownColumn(null), sb);
        assertEquals("fromUnixTimestamp64Nano(1704164645123456789)", sb.toString(), "no zone known: the official driver's form");
    }

    @Test
    void arrayElementsTakeTheElementType() throws SQLException {
        assertEquals("['2024-01-02 03:04:05',NULL]", render(new Object[] {T, null}, "Array(Nullable(DateTime))", UTC));
        assertEquals("['2024-01-02 12:04:05.123']", render(List.of(OffsetDateTime.ofInstant(T, UTC)), "Array(DateTime64(3, 'Asia/Tokyo'))", UTC));
    }
}
