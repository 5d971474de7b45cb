package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The extra DateTime text shapes accepted under {@code date_time_input_format = 'best_effort'}: what the
 * type's own parser takes, plus ISO 8601 with a zone offset ({@code 2024-01-02T03:04:05+03:00}, a space
 * instead of {@code T} allowed) and RFC 1123 ({@code Tue, 02 Jan 2024 03:04:05 GMT}). A subset of
 * ClickHouse's {@code parseDateTimeBestEffort}.
 */
final class BestEffortDateTime {
    private BestEffortDateTime() {
    }

    /** Parses {@code text} for a DateTime or DateTime64 type {@code t} (already unwrapped). */
    static Object parse(DataType t, String text) {
        try {
            return t.parseText(text);
        } catch (ChException first) {
            Instant i = instant(text.trim());
            if (i == null) {
                throw first;
            }
            if (t instanceof DateTime64Type) {
                DateTime64Type d = (DateTime64Type) t;
                long frac = i.getNano();
                for (int k = 9; k > d.precision; k--) {
                    frac /= 10;
                }
                return i.getEpochSecond() * d.scale() + frac;
            }
            long sec = i.getEpochSecond();
            if (sec < 0 || sec > 0xFFFFFFFFL) {
                throw new ChException(ErrorCode.CANNOT_PARSE_DATETIME, "Cannot parse DateTime: value '" + text
                    + "' is out of range of " + t.name());
            }
            return sec;
        }
    }

    private static Instant instant(String s) {
        String iso = s.length() > 10 && s.charAt(10) == ' ' ? s.substring(0, 10) + 'T' + s.substring(11) : s;
        try {
            return OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException ignored) {
            // try the next shape
        }
        try {
            return ZonedDateTime.parse(iso, DateTimeFormatter.ISO_ZONED_DATE_TIME).toInstant();
        } catch (DateTimeParseException ignored) {
            // try the next shape
        }
        try {
            return ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException ignored) {
            return null;
        }
    }
}
