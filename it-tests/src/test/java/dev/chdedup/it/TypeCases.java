package dev.chdedup.it;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The type matrix of {@link TypeRoundTripTest}: for each column its ClickHouse type, the type name the server
 * reports back, the ResultSet getters to try, and three rows of (SQL literal, expected value for each getter).
 * Row 0 holds maxima, row 1 minima, row 2 zeros, NULLs and ordinary values.
 */
final class TypeCases {
    static final int ROWS = 3;

    private TypeCases() {
    }

    /** Reads one column of the current row in one way. */
    interface Getter {
        Object get(ResultSet rs, String column) throws SQLException;
    }

    record NamedGetter(String name, Getter getter) {
    }

    record Cell(String literal, List<Object> expected) {
    }

    record Column(String name, String type, String reportedType, List<NamedGetter> getters, List<Cell> cells) {
        /** Compares every getter's value in row {@code row}; returns the mismatches as readable lines. */
        List<String> check(ResultSet rs, int row) {
            List<String> failures = new ArrayList<>();
            Cell cell = cells.get(row);
            for (int g = 0; g < getters.size(); g++) {
                Object expected = cell.expected().get(g);
                Object actual;
                try {
                    actual = normalize(getters.get(g).getter().get(rs, name));
                } catch (SQLException | RuntimeException e) {
                    actual = e;
                }
                if (!Objects.equals(expected, actual)) {
                    failures.add(name + " " + type + " row " + row + " " + getters.get(g).name() + ": expected <" + show(expected)
                        + "> but was <" + show(actual) + ">");
                }
            }
            return failures;
        }
    }

    static final NamedGetter OBJECT = g("getObject", ResultSet::getObject);
    static final NamedGetter STRING = g("getString", ResultSet::getString);
    static final NamedGetter LONG = g("getLong", ResultSet::getLong);
    static final NamedGetter INT = g("getInt", ResultSet::getInt);
    static final NamedGetter DOUBLE = g("getDouble", ResultSet::getDouble);
    static final NamedGetter BOOLEAN = g("getBoolean", ResultSet::getBoolean);
    static final NamedGetter BIG_DECIMAL = g("getBigDecimal", ResultSet::getBigDecimal);
    static final NamedGetter TIMESTAMP = g("getTimestamp", ResultSet::getTimestamp);
    static final NamedGetter DATE = g("getDate", ResultSet::getDate);
    static final NamedGetter LOCAL_DATE = g("getObject(LocalDate)", (rs, c) -> rs.getObject(c, LocalDate.class));
    static final NamedGetter LOCAL_DATE_TIME = g("getObject(LocalDateTime)", (rs, c) -> rs.getObject(c, LocalDateTime.class));
    static final NamedGetter INSTANT = g("getObject(Instant)", (rs, c) -> rs.getObject(c, Instant.class));
    static final NamedGetter ZONED = g("getObject(ZonedDateTime)", (rs, c) -> rs.getObject(c, ZonedDateTime.class));
    static final NamedGetter ARRAY = g("getArray", (rs, c) -> rs.getArray(c) == null ? null : rs.getArray(c).getArray());
    static final NamedGetter WAS_NULL = g("wasNull", (rs, c) -> {
        rs.getObject(c);
        return rs.wasNull();
    });

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final String TRICKY = "it's \"quoted\" back\\slash tab\there nl\nhere cr\rhere nul\0here ünïcødé ✓ 😀";

    static final List<Column> COLUMNS = List.of(
        col("i8", "Int8", getters(OBJECT, LONG, STRING),
            cell("127", (byte) 127, 127L, "127"), cell("-128", (byte) -128, -128L, "-128"), cell("0", (byte) 0, 0L, "0")),
        col("i16", "Int16", getters(OBJECT, INT),
            cell("32767", (short) 32767, 32767), cell("-32768", (short) -32768, -32768), cell("0", (short) 0, 0)),
        col("i32", "Int32", getters(OBJECT, INT, LONG),
            cell("2147483647", 2147483647, 2147483647, 2147483647L), cell("-2147483648", -2147483648, -2147483648, -2147483648L),
            cell("0", 0, 0, 0L)),
        col("i64", "Int64", getters(OBJECT, LONG, STRING),
            cell("9223372036854775807", Long.MAX_VALUE, Long.MAX_VALUE, "9223372036854775807"),
            cell("-9223372036854775808", Long.MIN_VALUE, Long.MIN_VALUE, "-9223372036854775808"), cell("0", 0L, 0L, "0")),
        col("u8", "UInt8", getters(OBJECT, INT), cell("255", (short) 255, 255), cell("0", (short) 0, 0), cell("1", (short) 1, 1)),
        col("u16", "UInt16", getters(OBJECT, INT), cell("65535", 65535, 65535), cell("0", 0, 0), cell("1", 1, 1)),
        col("u32", "UInt32", getters(OBJECT, LONG), cell("4294967295", 4294967295L, 4294967295L), cell("0", 0L, 0L), cell("1", 1L, 1L)),
        col("u64", "UInt64", getters(OBJECT, STRING, BIG_DECIMAL),
            cell("18446744073709551615", new BigInteger("18446744073709551615"), "18446744073709551615", new BigDecimal("18446744073709551615")),
            cell("0", BigInteger.ZERO, "0", BigDecimal.ZERO), cell("1", BigInteger.ONE, "1", BigDecimal.ONE)),
        col("i128", "Int128", getters(OBJECT, STRING),
            cell("170141183460469231731687303715884105727", new BigInteger("170141183460469231731687303715884105727"), "170141183460469231731687303715884105727"),
            cell("-170141183460469231731687303715884105728", new BigInteger("-170141183460469231731687303715884105728"), "-170141183460469231731687303715884105728"),
            cell("-1", BigInteger.ONE.negate(), "-1")),
        col("u128", "UInt128", getters(OBJECT, STRING),
            cell("340282366920938463463374607431768211455", new BigInteger("340282366920938463463374607431768211455"), "340282366920938463463374607431768211455"),
            cell("0", BigInteger.ZERO, "0"),
            cell("18446744073709551616", new BigInteger("18446744073709551616"), "18446744073709551616")),
        col("f32", "Float32", getters(OBJECT, DOUBLE),
            cell("3.4028235e38", Float.MAX_VALUE, (double) Float.MAX_VALUE), cell("-1.5", -1.5f, -1.5d), cell("-inf", Float.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY)),
        col("f64", "Float64", getters(OBJECT, DOUBLE),
            cell("1.7976931348623157e308", Double.MAX_VALUE, Double.MAX_VALUE), cell("0.1", 0.1d, 0.1d), cell("nan", Double.NaN, Double.NaN)),
        col("b", "Bool", getters(OBJECT, BOOLEAN, STRING),
            cell("true", true, true, "true"), cell("false", false, false, "false"), cell("1", true, true, "true")),
        col("s", "String", getters(OBJECT, STRING),
            cell(quote(TRICKY), TRICKY, TRICKY), cell("''", "", ""), cell("'plain'", "plain", "plain")),
        col("fs", "FixedString(5)", getters(STRING),
            cell("'hello'", "hello"), cell("''", "\0\0\0\0\0"), cell("'ab'", "ab\0\0\0")),
        col("d", "Date", getters(OBJECT, LOCAL_DATE, DATE, STRING),
            cell("'2149-06-06'", Date.valueOf("2149-06-06"), LocalDate.of(2149, 6, 6), Date.valueOf("2149-06-06"), "2149-06-06"),
            cell("'1970-01-01'", Date.valueOf("1970-01-01"), LocalDate.of(1970, 1, 1), Date.valueOf("1970-01-01"), "1970-01-01"),
            cell("'2024-02-29'", Date.valueOf("2024-02-29"), LocalDate.of(2024, 2, 29), Date.valueOf("2024-02-29"), "2024-02-29")),
        col("d32", "Date32", getters(LOCAL_DATE, DATE),
            cell("'2299-12-31'", LocalDate.of(2299, 12, 31), Date.valueOf("2299-12-31")),
            cell("'1900-01-01'", LocalDate.of(1900, 1, 1), Date.valueOf("1900-01-01")),
            cell("'1969-12-31'", LocalDate.of(1969, 12, 31), Date.valueOf("1969-12-31"))),
        col("dt", "DateTime", getters(TIMESTAMP, LOCAL_DATE_TIME, INSTANT, STRING),
            cell("'2106-02-07 06:28:15'", ts("2106-02-07 06:28:15"), ldt("2106-02-07T06:28:15"), Instant.ofEpochSecond(4294967295L), "2106-02-07 06:28:15"),
            cell("'1970-01-01 00:00:00'", ts("1970-01-01 00:00:00"), ldt("1970-01-01T00:00:00"), Instant.EPOCH, "1970-01-01 00:00:00"),
            cell("'2024-01-02 03:04:05'", ts("2024-01-02 03:04:05"), ldt("2024-01-02T03:04:05"), Instant.parse("2024-01-02T03:04:05Z"), "2024-01-02 03:04:05")),
        col("dtb", "DateTime('Europe/Berlin')", getters(LOCAL_DATE_TIME, ZONED, INSTANT),
            cell("'2024-07-01 12:00:00'", ldt("2024-07-01T12:00:00"), zdt("2024-07-01T12:00:00", BERLIN), Instant.parse("2024-07-01T10:00:00Z")),
            cell("'2024-01-15 08:30:00'", ldt("2024-01-15T08:30:00"), zdt("2024-01-15T08:30:00", BERLIN), Instant.parse("2024-01-15T07:30:00Z")),
            cell("'2024-03-31 03:30:00'", ldt("2024-03-31T03:30:00"), zdt("2024-03-31T03:30:00", BERLIN), Instant.parse("2024-03-31T01:30:00Z"))),
        col("dt64", "DateTime64(3)", getters(TIMESTAMP, LOCAL_DATE_TIME, INSTANT, STRING),
            cell("'2024-01-02 03:04:05.678'", ts("2024-01-02 03:04:05.678"), ldt("2024-01-02T03:04:05.678"), Instant.parse("2024-01-02T03:04:05.678Z"), "2024-01-02 03:04:05.678"),
            cell("'1969-12-31 23:59:59.999'", ts("1969-12-31 23:59:59.999"), ldt("1969-12-31T23:59:59.999"), Instant.parse("1969-12-31T23:59:59.999Z"), "1969-12-31 23:59:59.999"),
            cell("'2299-12-31 23:59:59.999'", ts("2299-12-31 23:59:59.999"), ldt("2299-12-31T23:59:59.999"), Instant.parse("2299-12-31T23:59:59.999Z"), "2299-12-31 23:59:59.999")),
        col("dt6", "DateTime64(6, 'UTC')", getters(LOCAL_DATE_TIME, ZONED, INSTANT),
            cell("'2024-01-02 03:04:05.123456'", ldt("2024-01-02T03:04:05.123456"), zdt("2024-01-02T03:04:05.123456", UTC), Instant.parse("2024-01-02T03:04:05.123456Z")),
            cell("'1970-01-01 00:00:00.000001'", ldt("1970-01-01T00:00:00.000001"), zdt("1970-01-01T00:00:00.000001", UTC), Instant.parse("1970-01-01T00:00:00.000001Z")),
            cell("'1969-12-31 23:59:59.999999'", ldt("1969-12-31T23:59:59.999999"), zdt("1969-12-31T23:59:59.999999", UTC), Instant.parse("1969-12-31T23:59:59.999999Z"))),
        col("u", "UUID", getters(OBJECT, STRING),
            cell("'123e4567-e89b-12d3-a456-426614174000'", UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), "123e4567-e89b-12d3-a456-426614174000"),
            cell("'00000000-0000-0000-0000-000000000000'", new UUID(0, 0), "00000000-0000-0000-0000-000000000000"),
            cell("'ffffffff-ffff-ffff-8000-000000000001'", new UUID(-1L, 0x8000000000000001L), "ffffffff-ffff-ffff-8000-000000000001")),
        col("dec", "Decimal(18, 4)", getters(BIG_DECIMAL, STRING),
            cell("99999999999999.9999", bd("99999999999999.9999"), "99999999999999.9999"),
            cell("-99999999999999.9999", bd("-99999999999999.9999"), "-99999999999999.9999"),
            cell("0", bd("0.0000"), "0.0000")),
        col("dec38", "Decimal(38, 10)", getters(BIG_DECIMAL),
            cell("9999999999999999999999999999.9999999999", bd("9999999999999999999999999999.9999999999")),
            cell("-9999999999999999999999999999.9999999999", bd("-9999999999999999999999999999.9999999999")),
            cell("0.0000000001", bd("0.0000000001"))),
        col("dec32", "Decimal32(2)", "Decimal(9, 2)", getters(BIG_DECIMAL, OBJECT),
            cell("9999999.99", bd("9999999.99"), bd("9999999.99")), cell("-9999999.99", bd("-9999999.99"), bd("-9999999.99")),
            cell("0.01", bd("0.01"), bd("0.01"))),
        col("dec64", "Decimal64(6)", "Decimal(18, 6)", getters(BIG_DECIMAL),
            cell("123456789012.345678", bd("123456789012.345678")), cell("-0.000001", bd("-0.000001")), cell("0", bd("0.000000"))),
        col("dec128", "Decimal128(20)", "Decimal(38, 20)", getters(BIG_DECIMAL),
            cell("123456789012345678.12345678901234567890", bd("123456789012345678.12345678901234567890")),
            cell("-0.00000000000000000001", bd("-0.00000000000000000001")), cell("1", bd("1.00000000000000000000"))),
        col("e8", "Enum8('neg' = -128, 'a' = 1, 'b' = 2)", getters(STRING, INT),
            cell("'a'", "a", 1), cell("'neg'", "neg", -128), cell("2", "b", 2)),
        col("e16", "Enum16('x' = -1000, 'y' = 1000)", getters(STRING, INT),
            cell("'y'", "y", 1000), cell("'x'", "x", -1000), cell("'y'", "y", 1000)),
        col("n", "Nullable(Int32)", getters(OBJECT, WAS_NULL, LONG),
            cell("42", 42, false, 42L), cell("NULL", null, true, 0L), cell("-1", -1, false, -1L)),
        col("ns", "Nullable(String)", getters(STRING, WAS_NULL),
            cell("NULL", null, true), cell("''", "", false), cell("'v'", "v", false)),
        col("nd", "Nullable(DateTime)", getters(TIMESTAMP, WAS_NULL),
            cell("'2024-05-06 07:08:09'", ts("2024-05-06 07:08:09"), false), cell("NULL", null, true), cell("NULL", null, true)),
        col("lc", "LowCardinality(String)", getters(OBJECT, STRING),
            cell("'lc-value'", "lc-value", "lc-value"), cell("''", "", ""), cell("'lc-value'", "lc-value", "lc-value")),
        col("lcn", "LowCardinality(Nullable(String))", getters(STRING, WAS_NULL),
            cell("NULL", null, true), cell("'x'", "x", false), cell("''", "", false)),
        col("ai", "Array(Int32)", getters(ARRAY, STRING),
            cell("[1, -2, 2147483647]", list(1, -2, 2147483647), "[1, -2, 2147483647]"),
            cell("[]", list(), "[]"), cell("[0]", list(0), "[0]")),
        col("an", "Array(Nullable(String))", getters(ARRAY),
            cell("['a', NULL, 'it\\'s']", list("a", null, "it's")), cell("[]", list()), cell("[NULL]", list((Object) null))),
        col("m", "Map(String, UInt64)", getters(OBJECT),
            cell("{'k1': 1, 'k2': 18446744073709551615}", map("k1", BigInteger.ONE, "k2", new BigInteger("18446744073709551615"))),
            cell("{}", map()), cell("{'': 0}", map("", BigInteger.ZERO))),
        col("tp", "Tuple(Int32, String)", getters(OBJECT),
            cell("(7, 'seven')", list(7, "seven")), cell("(-2147483648, '')", list(-2147483648, "")),
            cell("(0, 'it\\'s')", list(0, "it's"))));

    private static NamedGetter g(String name, Getter getter) {
        return new NamedGetter(name, getter);
    }

    private static List<NamedGetter> getters(NamedGetter... g) {
        return List.of(g);
    }

    private static Cell cell(String literal, Object... expected) {
        List<Object> values = new ArrayList<>();
        for (Object e : expected) {
            values.add(normalize(e));
        }
        return new Cell(literal, values);
    }

    private static Column col(String name, String type, List<NamedGetter> getters, Cell... cells) {
        return col(name, type, type, getters, cells);
    }

    private static Column col(String name, String type, String reported, List<NamedGetter> getters, Cell... cells) {
        for (Cell c : cells) {
            if (c.expected().size() != getters.size()) {
                throw new IllegalArgumentException(name + ": " + c.expected().size() + " values for " + getters.size() + " getters");
            }
        }
        return new Column(name, type, reported, getters, List.of(cells));
    }

    /** Arrays become lists (element by element) so that equals compares contents. */
    private static Object normalize(Object o) {
        if (o instanceof Object[] a) {
            List<Object> list = new ArrayList<>();
            for (Object e : a) {
                list.add(normalize(e));
            }
            return list;
        }
        return o;
    }

    private static String show(Object o) {
        if (o == null) {
            return "null";
        }
        if (o instanceof Throwable t) {
            return t.toString();
        }
        String s = o instanceof Object[] a ? Arrays.deepToString(a) : o.toString();
        return s.replace("\0", "\\0").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + " (" + o.getClass().getSimpleName() + ")";
    }

    /** A ClickHouse string literal for {@code s}. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("'");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '\\' -> b.append("\\\\");
                case '\'' -> b.append("\\'");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case '\0' -> b.append("\\0");
                default -> b.append(ch);
            }
        }
        return b.append('\'').toString();
    }

    private static Timestamp ts(String s) {
        return Timestamp.valueOf(s);
    }

    private static LocalDateTime ldt(String s) {
        return LocalDateTime.parse(s);
    }

    private static ZonedDateTime zdt(String s, ZoneId zone) {
        return LocalDateTime.parse(s).atZone(zone);
    }

    private static BigDecimal bd(String s) {
        return new BigDecimal(s);
    }

    /** An expected array or tuple (as the list {@link #normalize} turns the driver's array into). */
    private static List<Object> list(Object... elements) {
        return Arrays.asList(elements);
    }

    private static Map<Object, Object> map(Object... kv) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
