package dev.chdedup.driver;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;

/**
 * Date, Date32, DateTime and DateTime64 columns in RowBinary, converting a Java value to the same instant or day the text
 * path's literal names ({@link TemporalLiterals}): a value that names an instant (Timestamp, Instant, OffsetDateTime,
 * ZonedDateTime, java.util.Date) is that instant; a local value (LocalDateTime, LocalDate at midnight, LocalTime and
 * java.sql.Time on 1970-01-01, java.sql.Date) is a wall-clock time of the column's zone (else the server's); a Date takes
 * the day of that wall-clock time; DateTime64(p) keeps p fraction digits, the rest cut. Text of the forms the server parses
 * ({@code yyyy-MM-dd[ hh:mm:ss[.f]]}) is taken as a local value.
 */
final class RowBinaryTemporal extends RowBinaryEncoder {
    private static final DateTimeFormatter TEXT = new DateTimeFormatterBuilder().appendPattern("uuuu-MM-dd")
        .optionalStart().appendLiteral(' ').appendPattern("HH:mm:ss").optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
        .optionalEnd().optionalEnd().parseDefaulting(ChronoField.HOUR_OF_DAY, 0).toFormatter();
    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L};
    private static final long DATE_MAX_DAY = 65_535;

    private enum Kind { DATE, DATE32, DATETIME, DATETIME64 }

    private final Kind kind;
    private final int precision;
    private final ZoneId zone;

    private RowBinaryTemporal(String type, Kind kind, int precision, ZoneId zone) {
        super(type);
        this.kind = kind;
        this.precision = precision;
        this.zone = zone;
    }

    /** The encoder of {@code name(args)}; null for a zone Java does not know or a precision beyond 9. */
    static RowBinaryTemporal of(String type, String name, List<String> args, ZoneId serverZone) {
        try {
            switch (name) {
                case "Date":
                    return new RowBinaryTemporal(type, Kind.DATE, 0, serverZone);
                case "Date32":
                    return new RowBinaryTemporal(type, Kind.DATE32, 0, serverZone);
                case "DateTime":
                    return new RowBinaryTemporal(type, Kind.DATETIME, 0, args.isEmpty() ? serverZone : ZoneId.of(RowBinaryTypes.unquote(args.get(0))));
                default: {
                    int p = Integer.parseInt(args.get(0).strip());
                    if (p < 0 || p > 9) {
                        return null;
                    }
                    return new RowBinaryTemporal(type, Kind.DATETIME64, p, args.size() < 2 ? serverZone : ZoneId.of(RowBinaryTypes.unquote(args.get(1))));
                }
            }
        } catch (DateTimeException e) {
            return null;
        }
    }

    @Override
    void encode(Object v, RowBinaryBatch out) throws Unencodable {
        Instant instant;
        LocalDateTime local;
        if (TemporalLiterals.handles(v)) {
            instant = TemporalLiterals.instant(v);
            local = instant == null ? TemporalLiterals.local(v) : null;
        } else if (v instanceof CharSequence) {
            try {
                local = LocalDateTime.parse(v.toString().strip(), TEXT);
            } catch (DateTimeException e) {
                throw cannot(v);
            }
            instant = null;
        } else {
            throw cannot(v);
        }
        try {
            switch (kind) {
                case DATE, DATE32 -> {
                    LocalDate day = instant != null ? LocalDateTime.ofInstant(instant, zone).toLocalDate() : local.toLocalDate();
                    long n = day.toEpochDay();
                    if (kind == Kind.DATE) {
                        if (n < 0 || n > DATE_MAX_DAY) {
                            throw cannot(v);
                        }
                        out.writeShort((int) n);
                    } else {
                        out.writeInt(Math.toIntExact(n));
                    }
                }
                case DATETIME -> {
                    long s = instant != null ? instant.getEpochSecond() : local.atZone(zone).toEpochSecond();
                    if (s < 0 || s > 0xFFFF_FFFFL) {
                        throw cannot(v);
                    }
                    out.writeInt((int) s);
                }
                default -> {
                    Instant i = instant != null ? instant : local.atZone(zone).toInstant();
                    long ticks = Math.addExact(Math.multiplyExact(i.getEpochSecond(), POW10[precision]), i.getNano() / POW10[9 - precision]);
                    out.writeLong(ticks);
                }
            }
        } catch (ArithmeticException | DateTimeException e) {
            throw cannot(v);
        }
    }
}
