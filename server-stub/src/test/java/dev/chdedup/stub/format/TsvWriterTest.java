package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.list;
import static dev.chdedup.stub.format.FormatFixtures.map;
import static dev.chdedup.stub.format.FormatFixtures.writeText;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** TabSeparated output, byte for byte as ClickHouse writes it. */
class TsvWriterTest {

    @Test
    void escapesLikeClickHouse() throws IOException {
        List<Column> c = cols("s String");
        assertEquals("a\\tb\\nc\\\\\n", writeText("TSV", c, List.<Object[]>of(new Object[] {"a\tb\nc\\"})));
        assertEquals("it\\'s \"q\" \\r\\b\\f\\0 / =\n",
            writeText("TSV", c, List.<Object[]>of(new Object[] {"it's \"q\" \r\b\f\0 / ="})));
    }

    @Test
    void valuesOfEveryKind() throws IOException {
        List<Column> c = cols("u UInt64", "n Nullable(Int8)", "a Array(Nullable(String))", "m Map(String, UInt64)",
            "t Tuple(UInt8, String)", "d Decimal(38, 10)", "dt DateTime64(3, 'UTC')", "e Enum8('x\\'y' = 1)",
            "b Bool", "id UUID", "f Float64");
        Object[] row = {-1L, null, list("a\tb", null, "it's"), map("k", 5L), list(1L, "z"),
            new BigDecimal("1.5000000000"), 1700000000123L, 1L, true, new UUID(0, 1), Double.NaN};
        assertEquals("18446744073709551615\t\\N\t['a\\tb',NULL,'it\\'s']\t{'k':5}\t(1,'z')\t1.5\t"
            + "2023-11-14 22:13:20.123\tx\\'y\ttrue\t00000000-0000-0000-0000-000000000001\tnan\n",
            writeText("TSV", c, List.<Object[]>of(row)));
    }

    @Test
    void headersWithNamesAndTypes() throws IOException {
        List<Column> c = cols("id UInt32", "when DateTime('UTC')", "tab\tname String");
        List<Object[]> rows = List.<Object[]>of(new Object[] {1L, 0L, "x"});
        assertEquals("id\twhen\ttab\\tname\n1\t1970-01-01 00:00:00\tx\n", writeText("TSVWithNames", c, rows));
        assertEquals("id\twhen\ttab\\tname\nUInt32\tDateTime(\\'UTC\\')\tString\n1\t1970-01-01 00:00:00\tx\n",
            writeText("TSVWithNamesAndTypes", c, rows));
        assertEquals("id\twhen\ttab\\tname\nUInt32\tDateTime(\\'UTC\\')\tString\n",
            writeText("TSVWithNamesAndTypes", c, List.of()));
    }

    @Test
    void rawWritesValuesAsTheyAre() throws IOException {
        List<Column> c = cols("s String", "n Nullable(String)");
        assertEquals("a\\b'c\t\\N\n", writeText("TSVRaw", c, List.<Object[]>of(new Object[] {"a\\b'c", null})));
    }

    @Test
    void crlfAndNullRepresentationSettings() throws IOException {
        List<Column> c = cols("n Nullable(String)");
        FormatSettings s = FormatSettings.of(Map.of("output_format_tsv_crlf_end_of_line", "1",
            "format_tsv_null_representation", "NULL"));
        byte[] out = FormatFixtures.write("TSV", c, List.<Object[]>of(new Object[] {null}), s);
        assertEquals("NULL\r\n", new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void numbersAsClickHousePrintsThem() throws IOException {
        List<Column> c = cols("f Float64", "g Float32", "d Decimal(38, 10)", "z Decimal(9, 4)");
        assertEquals("1700000000000000\t0.1\t-0.0000000001\t0\n", writeText("TSV", c,
            List.<Object[]>of(new Object[] {1.7e15, 0.1f, new BigDecimal("-0.0000000001"), new BigDecimal("0.0000")})));
    }

    @Test
    void emptyResultIsEmpty() throws IOException {
        assertEquals("", writeText("TSV", cols("s String"), List.of()));
    }
}
