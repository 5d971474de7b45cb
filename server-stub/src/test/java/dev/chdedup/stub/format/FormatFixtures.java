package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Test fixtures for the format tests: a header with a column of every type the stub supports, rows with the
 * awkward values (escapes, NULLs, extremes, empty containers), and helpers to write and read a whole stream.
 */
final class FormatFixtures {
    private FormatFixtures() {
    }

    static final List<Column> ALL = cols(
        "u64 UInt64", "i8 Int8", "i16 Int16", "i32 Int32", "i64 Int64", "u8 UInt8", "u32 UInt32",
        "f32 Float32", "f64 Float64", "b Bool", "s String", "fs FixedString(4)", "d Date", "d32 Date32",
        "dt DateTime", "dt64 DateTime64(3, 'UTC')", "uuid UUID", "dec Decimal(38, 10)", "dec9 Decimal(9, 2)",
        "e Enum8('a' = 1, 'b' = 2)", "i128 Int128", "u256 UInt256", "ns Nullable(String)", "ni Nullable(Int32)",
        "lc LowCardinality(String)", "lcn LowCardinality(Nullable(String))", "arr Array(Nullable(String))",
        "ai Array(UInt64)", "m Map(String, UInt64)", "t Tuple(UInt8, String)", "nt Tuple(a Int32, b String)",
        "nested Array(Array(Int32))");

    /** Builds columns from "name Type" strings. */
    static List<Column> cols(String... defs) {
        List<Column> out = new ArrayList<>();
        for (String d : defs) {
            int sp = d.indexOf(' ');
            out.add(new Column(d.substring(0, sp), DataTypes.parse(d.substring(sp + 1))));
        }
        return out;
    }

    static Map<Object, Object> map(Object... kv) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static List<Object> list(Object... xs) {
        return Arrays.asList(xs);
    }

    /** Rows every format must carry through unchanged (no NaN/inf: JSON writes those as null). */
    static List<Object[]> rows() {
        List<Object[]> r = new ArrayList<>();
        for (Object[] row : textRows()) {
            Object[] b = new Object[row.length];
            for (int i = 0; i < row.length; i++) {
                b[i] = byteStrings(row[i]);
            }
            r.add(b);
        }
        return r;
    }

    /** {@code v} with every String in it (in lists and maps too) as the byte string of its UTF-8 encoding. */
    static Object byteStrings(Object v) {
        if (v instanceof String) {
            return ByteStrings.fromText((String) v);
        }
        if (v instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) v) {
                out.add(byteStrings(o));
            }
            return out;
        }
        if (v instanceof Map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            ((Map<?, ?>) v).forEach((k, x) -> out.put(byteStrings(k), byteStrings(x)));
            return out;
        }
        return v;
    }

    /** The rows of {@link #rows()} with their strings written as Java text. */
    private static List<Object[]> textRows() {
        List<Object[]> r = new ArrayList<>();
        r.add(new Object[] {42L, -8L, -300L, 123456L, Long.MIN_VALUE, 255L, 4000000000L, 1.5f, -2.25e-7, true,
            "a\tb\nc\\ 'q' \"dq\" / \u00fc \u20ac \ud83d\ude00 = x", "ab\0\0", 19000L, -100L, 1700000000L,
            1700000000123L, UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
            new BigDecimal("12345.6789000000"), new BigDecimal("-1.50"), 2L,
            BigInteger.TWO.pow(100).negate(), BigInteger.TWO.pow(255).add(BigInteger.valueOf(7)), "x,y", -5L,
            "lc", null, list("x", null, "it's", "tab\there"), list(1L, -1L), map("a", 1L, "b\t", Long.MIN_VALUE),
            list(7L, "s,\"q\""), list(1L, "x"), list(list(1L, 2L), list())});
        r.add(new Object[] {-1L, 127L, 0L, 0L, Long.MAX_VALUE, 0L, 0L, 0.0f, 1e300, false, "", "abcd", 0L, 0L,
            0L, 0L, new UUID(0, 0), BigDecimal.ZERO.setScale(10), new BigDecimal("0.00"), 1L, BigInteger.ZERO,
            BigInteger.ZERO, null, null, "", "v", list(), list(), map(), list(0L, ""), list(0L, ""), list()});
        r.add(new Object[] {1L, -128L, 32767L, -1L, -1L, 1L, 1L, -0.25f, 123456.789, true, "\\N", "\0\0\0\0",
            1L, 1L, 1L, -1L, UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"), new BigDecimal("-0.0000000001"),
            new BigDecimal("9999999.99"), 2L, BigInteger.ONE, BigInteger.TWO.pow(256).subtract(BigInteger.ONE),
            "\\N", 2147483647L, "NULL", "NULL", list((Object) null), list(-1L), map("", 0L), list(255L, "(x)"),
            list(-7L, "{}"), list(list(), list(-1L))});
        return r;
    }

    /** Rows with NaN and infinities, for the formats that can carry them. */
    static List<Object[]> specialFloatRows() {
        List<Column> c = ALL;
        List<Object[]> out = new ArrayList<>();
        for (Object[] base : rows().subList(0, 2)) {
            Object[] r = base.clone();
            r[indexOf(c, "f32")] = Float.NaN;
            r[indexOf(c, "f64")] = out.isEmpty() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            out.add(r);
        }
        return out;
    }

    static int indexOf(List<Column> c, String name) {
        for (int i = 0; i < c.size(); i++) {
            if (c.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    static byte[] write(String format, List<Column> cols, List<Object[]> rows, FormatSettings s) throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        RowWriter w = Formats.openOutput(format, bo, cols, s);
        for (Object[] r : rows) {
            w.writeRow(r);
        }
        w.finish();
        return bo.toByteArray();
    }

    static String writeText(String format, List<Column> cols, List<Object[]> rows) throws IOException {
        return new String(write(format, cols, rows, FormatSettings.DEFAULTS), StandardCharsets.UTF_8);
    }

    static List<Object[]> read(String format, byte[] data, List<Column> cols, FormatSettings s, ValueExpressions e)
        throws IOException {
        RowReader r = Formats.openInput(format, new ByteArrayInputStream(data), cols, s, e);
        List<Object[]> out = new ArrayList<>();
        for (Object[] row = r.next(); row != null; row = r.next()) {
            out.add(row);
        }
        return out;
    }

    static List<Object[]> readText(String format, String data, List<Column> cols) throws IOException {
        return read(format, data.getBytes(StandardCharsets.UTF_8), cols, FormatSettings.DEFAULTS, null);
    }

    /** Writes {@code rows} in {@code format} and reads them back, asserting nothing changed. */
    static void assertRoundTrip(String format, List<Column> cols, List<Object[]> rows) throws IOException {
        byte[] data = write(format, cols, rows, FormatSettings.DEFAULTS);
        List<Object[]> back = read(format, data, cols, FormatSettings.DEFAULTS, null);
        assertRows(rows, back, format + " of:\n" + new String(data, StandardCharsets.UTF_8));
    }

    static void assertRows(List<Object[]> expected, List<Object[]> actual, String context) {
        assertEquals(expected.size(), actual.size(), "row count; " + context);
        for (int i = 0; i < expected.size(); i++) {
            for (int j = 0; j < expected.get(i).length; j++) {
                assertEquals(expected.get(i)[j], actual.get(i)[j], "row " + i + " column " + j + "; " + context);
            }
        }
    }
}
