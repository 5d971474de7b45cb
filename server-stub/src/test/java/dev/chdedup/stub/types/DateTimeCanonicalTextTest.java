package dev.chdedup.stub.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The text formats' fast path for DateTime ({@link DateTimeType#parseCanonicalLocal}) gives what the type's parser
 * gives for every canonical date and time it takes, in UTC and in a zone with daylight saving, and leaves every other
 * text (a bad day, month or hour, another shape, a year out of range) to the parser.
 */
class DateTimeCanonicalTextTest {
    @Test
    void itAgreesWithTheParser() {
        Random rnd = new Random(11);
        DateTimeType utc = (DateTimeType) DataTypes.parse("DateTime('UTC')");
        DateTimeType berlin = (DateTimeType) DataTypes.parse("DateTime('Europe/Berlin')");
        for (int i = 0; i < 200_000; i++) {
            String text = String.format("%04d-%02d-%02d %02d:%02d:%02d", 1970 + rnd.nextInt(136), 1 + rnd.nextInt(12), 1 + rnd.nextInt(31),
                rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60));
            byte[] b = text.getBytes(StandardCharsets.US_ASCII);
            long local = DateTimeType.parseCanonicalLocal(b, 0, b.length);
            java.time.LocalDate date;
            try {
                date = java.time.LocalDate.parse(text.substring(0, 10));
            } catch (java.time.format.DateTimeParseException e) {
                assertEquals(Long.MIN_VALUE, local, text + " is no date");
                continue;
            }
            assertEquals(utc.parseText(text), utc.toEpoch(local), text);
            assertEquals(berlin.parseText(text), berlin.toEpoch(local), text + " in Berlin");
            assertEquals(date.toEpochDay(), Math.floorDiv(local, 86400L), text);
        }
        for (String other : new String[] {"1969-12-31 23:59:59", "2106-01-01 00:00:00", "2024-13-01 00:00:00", "2024-01-01 24:00:00",
            "2024-01-01 00:60:00", "2024-01-01T00:00:00", "2024-01-01 00:00:0x", "2024-01-01", "1700000000", "2023-02-29 00:00:00"}) {
            byte[] b = other.getBytes(StandardCharsets.US_ASCII);
            assertEquals(Long.MIN_VALUE, DateTimeType.parseCanonicalLocal(b, 0, b.length), other);
        }
        byte[] leap = "2024-02-29 12:00:00".getBytes(StandardCharsets.US_ASCII);
        assertEquals(utc.parseText("2024-02-29 12:00:00"), DateTimeType.parseCanonicalLocal(leap, 0, leap.length));
    }
}
