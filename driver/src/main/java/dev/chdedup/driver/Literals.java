package dev.chdedup.driver;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Renders JDBC parameter values as ClickHouse SQL literals, the way the official driver inlines them, so that a
 * recorded batch can be re-sent byte for byte: strings quoted with backslash escapes, dates and times in a form
 * every server parses for their column ({@link TemporalLiterals}), bytes as {@code unhex('..')}, arrays and
 * collections as {@code [..]}, maps as {@code {k:v}}, a JDBC Struct as a tuple {@code (..)}.
 */
public final class Literals {

    private Literals() {
    }

    public static void render(Object v, StringBuilder sb) throws SQLException {
        render(v, null, sb);
    }

    /**
     * Appends {@code v} as a literal for a column read as {@code target} (null: column and server zone unknown); only date
     * and time values depend on it, see {@link TemporalLiterals}.
     */
    static void render(Object v, TemporalLiterals.Target target, StringBuilder sb) throws SQLException {
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
        } else if (TemporalLiterals.handles(v)) {
            TemporalLiterals.render(v, target, sb);
        } else if (v instanceof UUID) {
            quote(v.toString(), sb);
        } else if (v instanceof byte[]) {
            sb.append("unhex('").append(HexFormat.of().formatHex((byte[]) v)).append("')");
        } else if (v instanceof Array) {
            // getArray() may return a primitive array (long[], even byte[]): its elements, never unhex(..)
            renderArray(boxed(((Array) v).getArray()), target, sb);
        } else if (v instanceof java.sql.Struct) {
            // a tuple, as the official driver renders a Struct
            Object[] a = ((java.sql.Struct) v).getAttributes();
            sb.append('(');
            for (int i = 0; i < a.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                render(a[i], target, sb);
            }
            sb.append(')');
        } else if (v instanceof Object[]) {
            renderArray((Object[]) v, target, sb);
        } else if (v.getClass().isArray()) {
            renderArray(boxed(v), target, sb);
        } else if (v instanceof Collection) {
            renderArray(((Collection<?>) v).toArray(), target, sb);
        } else if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                render(e.getKey(), target, sb);
                sb.append(':');
                render(e.getValue(), target, sb);
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

    private static void renderArray(Object[] a, TemporalLiterals.Target target, StringBuilder sb) throws SQLException {
        sb.append('[');
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            render(a[i], target, sb);
        }
        sb.append(']');
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
