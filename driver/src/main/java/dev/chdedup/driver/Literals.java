package dev.chdedup.driver;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Renders JDBC parameter values as ClickHouse SQL literals, the way the official driver inlines them, so that a
 * recorded batch can be re-sent byte for byte: strings quoted with backslash escapes, instants as
 * {@code fromUnixTimestamp64Nano(n)}, dates and local date-times as quoted text, bytes as {@code unhex('..')},
 * arrays and collections as {@code [..]}, maps as {@code {k:v}}.
 */
public final class Literals {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private Literals() {
    }

    public static void render(Object v, StringBuilder sb) throws SQLException {
        if (v == null) {
            sb.append("NULL");
        } else if (v instanceof String || v instanceof Character) {
            quote(v.toString(), sb);
        } else if (v instanceof Boolean) {
            sb.append((Boolean) v ? '1' : '0');
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) {
                sb.append("nan");
            } else if (Double.isInfinite(d)) {
                sb.append(d > 0 ? "inf" : "-inf");
            } else {
                sb.append(v);
            }
        } else if (v instanceof BigDecimal) {
            sb.append(((BigDecimal) v).toPlainString());
        } else if (v instanceof Number) {
            sb.append(v);
        } else if (v instanceof java.sql.Date) {
            quote(((java.sql.Date) v).toLocalDate().toString(), sb);
        } else if (v instanceof LocalDate) {
            quote(v.toString(), sb);
        } else if (v instanceof Timestamp) {
            nanos(((Timestamp) v).toInstant(), sb);
        } else if (v instanceof Instant) {
            nanos((Instant) v, sb);
        } else if (v instanceof OffsetDateTime) {
            nanos(((OffsetDateTime) v).toInstant(), sb);
        } else if (v instanceof ZonedDateTime) {
            nanos(((ZonedDateTime) v).toInstant(), sb);
        } else if (v instanceof LocalDateTime) {
            LocalDateTime t = (LocalDateTime) v;
            quote(SECONDS.format(t) + (t.getNano() > 0 ? String.format(".%09d", t.getNano()) : ""), sb);
        } else if (v instanceof java.sql.Time) {
            quote(DateTimeFormatter.ISO_LOCAL_TIME.format(((java.sql.Time) v).toLocalTime()), sb);
        } else if (v instanceof LocalTime) {
            // ISO_LOCAL_TIME always writes the seconds ('10:15:00'), LocalTime.toString drops them when zero ('10:15')
            quote(DateTimeFormatter.ISO_LOCAL_TIME.format((LocalTime) v), sb);
        } else if (v instanceof UUID) {
            quote(v.toString(), sb);
        } else if (v instanceof byte[]) {
            sb.append("unhex('").append(HexFormat.of().formatHex((byte[]) v)).append("')");
        } else if (v instanceof Array) {
            // getArray() may return a primitive array (long[], even byte[]): its elements, never unhex(..)
            renderArray(boxed(((Array) v).getArray()), sb);
        } else if (v instanceof Object[]) {
            renderArray((Object[]) v, sb);
        } else if (v.getClass().isArray()) {
            renderArray(boxed(v), sb);
        } else if (v instanceof Collection) {
            renderArray(((Collection<?>) v).toArray(), sb);
        } else if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                render(e.getKey(), sb);
                sb.append(':');
                render(e.getValue(), sb);
            }
            sb.append('}');
        } else if (v instanceof BigInteger) {
            sb.append(v);
        } else if (v instanceof java.net.InetAddress) {
            quote(((java.net.InetAddress) v).getHostAddress(), sb);
        } else if (v instanceof Enum) {
            quote(((Enum<?>) v).name(), sb);
        } else {
            throw new SQLFeatureNotSupportedException("Cannot send a parameter of type " + v.getClass().getName());
        }
    }

    /** The elements of an array of objects or of primitives. */
    private static Object[] boxed(Object array) {
        if (array instanceof Object[]) {
            return (Object[]) array;
        }
        int n = java.lang.reflect.Array.getLength(array);
        Object[] boxed = new Object[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = java.lang.reflect.Array.get(array, i);
        }
        return boxed;
    }

    private static void renderArray(Object[] a, StringBuilder sb) throws SQLException {
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            render(a[i], sb);
        }
        sb.append(']');
    }

    /**
     * An instant as {@code fromUnixTimestamp64Nano(n)}; beyond Int64 nanoseconds (years after 2262 or before 1677)
     * as {@code fromUnixTimestamp64Micro(n)}, where the official driver's literal would overflow.
     */
    private static void nanos(Instant t, StringBuilder sb) {
        BigInteger n = BigInteger.valueOf(t.getEpochSecond()).multiply(BigInteger.valueOf(1_000_000_000L)).add(BigInteger.valueOf(t.getNano()));
        if (n.bitLength() < 64) {
            sb.append("fromUnixTimestamp64Nano(").append(n).append(')');
        } else {
            BigInteger micros = n.divide(BigInteger.valueOf(1000));
            sb.append("fromUnixTimestamp64Micro(").append(micros).append(')');
        }
    }

    public static void quote(String s, StringBuilder sb) {
        sb.append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' || c == '\'') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('\'');
    }

    public static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        quote(s, sb);
        return sb.toString();
    }
}
