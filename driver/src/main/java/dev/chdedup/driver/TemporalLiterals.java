package dev.chdedup.driver;

import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders JDBC date and time values as literals every ClickHouse parses, for the column they go into. ClickHouse 18.16
 * knows no {@code fromUnixTimestamp64Nano} (the official driver's form), takes no fraction and no bare date for a
 * {@code DateTime} and no time for a {@code Date}, so a value bound for a known column is quoted text: {@code 'yyyy-MM-dd'}
 * for Date, {@code 'yyyy-MM-dd hh:mm:ss'} for DateTime, and with exactly p fraction digits (truncated) for DateTime64(p).
 * An instant is written as the wall-clock time of the zone the server reads the column in: the column's own, else the
 * server's. A value whose column is unknown (an expression, an INSERT SELECT) is text in the server's zone when that is
 * known, else the official driver's form.
 */
final class TemporalLiterals {
    private static final Pattern DATETIME64 = Pattern.compile("DateTime64\\(\\s*(\\d+)\\s*(?:,\\s*'([^']*)'\\s*)?\\)");
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);
    private static final Pattern DATETIME = Pattern.compile("DateTime(?:\\(\\s*'([^']*)'\\s*\\))?");

    private TemporalLiterals() {
    }

    /** What a value goes into: the kind of temporal column, its fraction digits, and the zone it is read in. */
    record Target(Kind kind, int precision, ZoneId zone) {
        enum Kind { DATE, DATETIME, DATETIME64, OTHER }

        /** A value of unknown column on a server whose zone is {@code serverZone} (null: unknown too). */
        static Target unknownColumn(ZoneId serverZone) {
            return serverZone == null ? null : new Target(Kind.OTHER, 9, serverZone);
        }

        /**
         * The target for a column of ClickHouse type {@code type} on a server in {@code serverZone}: wrappers
         * (Nullable, LowCardinality, Array) are looked through, since a temporal value inside them takes the inner type.
         * Null where the server zone is unknown or the column's zone is not one Java knows.
         */
        static Target of(String type, ZoneId serverZone) {
            if (serverZone == null || type == null) {
                return null;
            }
            String t = type.strip();
            while (true) {
                String inner = unwrap(t, "Nullable(", "LowCardinality(", "Array(");
                if (inner == null) {
                    break;
                }
                t = inner;
            }
            try {
                if (t.equals("Date") || t.equals("Date32")) {
                    return new Target(Kind.DATE, 0, serverZone);
                }
                Matcher m64 = DATETIME64.matcher(t);
                if (m64.matches()) {
                    return new Target(Kind.DATETIME64, Math.min(9, Integer.parseInt(m64.group(1))),
                        m64.group(2) == null ? serverZone : ZoneId.of(m64.group(2)));
                }
                Matcher m = DATETIME.matcher(t);
                if (m.matches()) {
                    return new Target(Kind.DATETIME, 0, m.group(1) == null ? serverZone : ZoneId.of(m.group(1)));
                }
            } catch (DateTimeException e) {
                return null;
            }
            return new Target(Kind.OTHER, 9, serverZone);
        }

        private static String unwrap(String t, String... prefixes) {
            for (String p : prefixes) {
                if (t.startsWith(p) && t.endsWith(")")) {
                    return t.substring(p.length(), t.length() - 1).strip();
                }
            }
            return null;
        }
    }

    /** Whether {@code v} is a date or time value this class renders. */
    static boolean handles(Object v) {
        return v instanceof java.util.Date || v instanceof Instant || v instanceof OffsetDateTime || v instanceof ZonedDateTime
            || v instanceof LocalDateTime || v instanceof LocalDate || v instanceof LocalTime;
    }

    /** Appends {@code v} (one of {@link #handles}) as a literal for {@code target} (null: column and server zone unknown). */
    static void render(Object v, Target target, StringBuilder sb) {
        Instant instant = instant(v);
        if (target == null) {
            if (instant != null) {
                nanos(instant, sb);
            } else {
                Literals.quote(text(local(v), 9, v instanceof LocalTime || v instanceof java.sql.Time, dateOnly(v)), sb);
            }
            return;
        }
        LocalDateTime local = instant != null ? LocalDateTime.ofInstant(instant, target.zone()) : local(v);
        boolean timeOnly = v instanceof LocalTime || v instanceof java.sql.Time;
        switch (target.kind()) {
            case DATE -> Literals.quote(local.toLocalDate().toString(), sb);
            case DATETIME -> Literals.quote(text(local, 0, false, false), sb);
            case DATETIME64 -> Literals.quote(text(local, target.precision(), false, false), sb);
            default -> Literals.quote(text(local, 9, timeOnly, instant == null && dateOnly(v)), sb);
        }
    }

    private static boolean dateOnly(Object v) {
        return v instanceof LocalDate || v instanceof java.sql.Date;
    }

    /** The instant of a value that names one (a Timestamp, Instant, OffsetDateTime, ZonedDateTime), else null. */
    static Instant instant(Object v) {
        if (v instanceof Timestamp) {
            return ((Timestamp) v).toInstant();
        }
        if (v instanceof Instant) {
            return (Instant) v;
        }
        if (v instanceof OffsetDateTime) {
            return ((OffsetDateTime) v).toInstant();
        }
        if (v instanceof ZonedDateTime) {
            return ((ZonedDateTime) v).toInstant();
        }
        if (v instanceof java.util.Date && !(v instanceof java.sql.Date) && !(v instanceof java.sql.Time)) {
            return ((java.util.Date) v).toInstant();
        }
        return null;
    }

    /** A local value as a date-time: a date at midnight, a time on 1970-01-01 (JDBC's epoch day for java.sql.Time). */
    static LocalDateTime local(Object v) {
        if (v instanceof LocalDateTime) {
            return (LocalDateTime) v;
        }
        if (v instanceof java.sql.Date) {
            return ((java.sql.Date) v).toLocalDate().atStartOfDay();
        }
        if (v instanceof LocalDate) {
            return ((LocalDate) v).atStartOfDay();
        }
        if (v instanceof java.sql.Time) {
            return LocalDate.EPOCH.atTime(((java.sql.Time) v).toLocalTime());
        }
        return LocalDate.EPOCH.atTime((LocalTime) v);
    }

    /**
     * {@code yyyy-MM-dd hh:mm:ss} with {@code digits} fraction digits (truncated); for {@code digits} 9 the fraction only
     * where it is not zero. {@code timeOnly} and {@code dateOnly} write just that half (into a column of another type).
     */
    static String text(LocalDateTime t, int digits, boolean timeOnly, boolean dateOnly) {
        if (dateOnly) {
            return t.toLocalDate().toString();
        }
        if (timeOnly) {
            // ISO_LOCAL_TIME always writes the seconds ('10:15:00'), LocalTime.toString drops them when zero ('10:15')
            return DateTimeFormatter.ISO_LOCAL_TIME.format(t.toLocalTime());
        }
        StringBuilder sb = new StringBuilder(29).append(SECONDS.format(t));
        int nano = t.getNano();
        if (digits > 0 && !(digits == 9 && nano == 0)) {
            String f = String.format(Locale.ROOT, "%09d", nano);
            sb.append('.').append(f, 0, digits);
        }
        return sb.toString();
    }

    /**
     * An instant as the official driver writes it, {@code fromUnixTimestamp64Nano(n)}; beyond Int64 nanoseconds (years
     * after 2262 or before 1677) as {@code fromUnixTimestamp64Micro(n)}, where the official driver's literal would overflow.
     */
    private static void nanos(Instant t, StringBuilder sb) {
        BigInteger n = BigInteger.valueOf(t.getEpochSecond()).multiply(BigInteger.valueOf(1_000_000_000L)).add(BigInteger.valueOf(t.getNano()));
        if (n.bitLength() < 64) {
            sb.append("fromUnixTimestamp64Nano(").append(n).append(')');
        } else {
            sb.append("fromUnixTimestamp64Micro(").append(n.divide(BigInteger.valueOf(1000))).append(')');
        }
    }
}
