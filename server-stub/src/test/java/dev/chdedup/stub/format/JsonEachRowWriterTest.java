package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.list;
import static dev.chdedup.stub.format.FormatFixtures.map;
import static dev.chdedup.stub.format.FormatFixtures.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** JSONEachRow output, byte for byte as ClickHouse writes it, and the JSON output settings. */
class JsonEachRowWriterTest {

    private static String write(List<Column> c, Object[] row, Map<String, String> settings) throws IOException {
        byte[] b = FormatFixtures.write("JSONEachRow", c, List.<Object[]>of(row), FormatSettings.of(settings));
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void uint64IsQuotedWhenAskedOrForAReleaseBefore25_8() throws IOException {
        assertEquals("{\"x\":42}\n", writeText("JSONEachRow", cols("x UInt64"), List.<Object[]>of(new Object[] {42L})));
        assertEquals("{\"x\":\"42\"}\n", write(cols("x UInt64"), new Object[] {42L},
            Map.of("output_format_json_quote_64bit_integers", "1")));
        assertEquals("{\"x\":\"42\"}\n", write(cols("x UInt64"), new Object[] {42L}, Map.of("compatibility", "25.3")));
        assertEquals("{\"x\":42}\n", write(cols("x UInt64"), new Object[] {42L}, Map.of("compatibility", "25.8")));
    }

    @Test
    void everyKindOfValue() throws IOException {
        List<Column> c = cols("i8 Int8", "u32 UInt32", "i64 Int64", "i128 Int128", "f Float64", "g Float32",
            "dec Decimal(38, 10)", "b Bool", "s String", "fs FixedString(2)", "d Date", "dt DateTime",
            "dt64 DateTime64(3, 'UTC')", "u UUID", "e Enum8('on' = 1)", "n Nullable(String)",
            "a Array(Nullable(UInt64))", "m Map(String, Array(Int8))", "t Tuple(Int8, String)",
            "nt Tuple(x Int8, y Nullable(String))", "lc LowCardinality(String)");
        Object[] row = {-1L, 4000000000L, -5L, BigInteger.TEN, Double.NaN, Float.NEGATIVE_INFINITY,
            new BigDecimal("1.5000000000"), true, ByteStrings.fromText("q\"\\/\t\u0001\u2028\u00fc"), "a\0", 0L, 1L, 1500L, new UUID(0, 0),
            1L, null, list(1L, null), map("k", list(-1L)), list(1L, "s"), list(2L, null), "lc"};
        assertEquals("{\"i8\":-1,\"u32\":4000000000,\"i64\":-5,\"i128\":10,\"f\":null,\"g\":null,\"dec\":1.5,"
            + "\"b\":true,\"s\":\"q\\\"\\\\\\/\\t\\u0001\\u2028\u00fc\",\"fs\":\"a\\u0000\",\"d\":\"1970-01-01\","
            + "\"dt\":\"1970-01-01 00:00:01\",\"dt64\":\"1970-01-01 00:00:01.500\","
            + "\"u\":\"00000000-0000-0000-0000-000000000000\",\"e\":\"on\",\"n\":null,\"a\":[1,null],"
            + "\"m\":{\"k\":[-1]},\"t\":[1,\"s\"],\"nt\":{\"x\":2,\"y\":null},\"lc\":\"lc\"}\n", write(c, row, Map.of()));
    }

    @Test
    void jsonOutputSettings() throws IOException {
        List<Column> c = cols("f Float64", "d Decimal(9, 1)", "s String", "nt Tuple(x Int8)");
        Object[] row = {Double.NEGATIVE_INFINITY, new BigDecimal("2.0"), "a/b", list(1L)};
        assertEquals("{\"f\":\"-inf\",\"d\":\"2\",\"s\":\"a/b\",\"nt\":[1]}\n", write(c, row, Map.of(
            "output_format_json_quote_denormals", "1", "output_format_json_quote_decimals", "1",
            "output_format_json_escape_forward_slashes", "0", "output_format_json_named_tuples_as_objects", "0")));
        assertEquals("{\"f\":\"0.5\",\"d\":2,\"s\":\"a\\/b\",\"nt\":{\"x\":1}}\n", write(c,
            new Object[] {0.5, new BigDecimal("2.0"), "a/b", list(1L)}, Map.of("output_format_json_quote_64bit_floats", "1")));
    }

    @Test
    void arrayOfRows() throws IOException {
        FormatSettings s = FormatSettings.of(Map.of("output_format_json_array_of_rows", "1"));
        List<Column> c = cols("x UInt8");
        assertEquals("[\n{\"x\":1},\n{\"x\":2}\n]\n", new String(FormatFixtures.write("JSONEachRow", c,
            List.of(new Object[] {1L}, new Object[] {2L}), s), StandardCharsets.UTF_8));
        assertEquals("[\n\n]\n", new String(FormatFixtures.write("JSONEachRow", c, List.of(), s), StandardCharsets.UTF_8));
    }

    @Test
    void emptyResultIsEmpty() throws IOException {
        assertEquals("", writeText("JSONEachRow", cols("x UInt8"), List.of()));
    }
}
