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

/** CSV output, byte for byte as ClickHouse writes it. */
class CsvWriterTest {

    @Test
    void quotingRules() throws IOException {
        List<Column> c = cols("i UInt64", "s String", "n Nullable(String)", "d Date", "b Bool", "f Float32",
            "dec Decimal(9, 3)", "e Enum8('a' = 1)", "u UUID", "a Array(String)", "m Map(String, UInt8)",
            "t Tuple(Int8, String)");
        Object[] row = {1L, "a\"b,\nc", null, 19000L, false, Float.NaN, new BigDecimal("-2.500"), 1L,
            new UUID(0, 2), list("x'y"), map("k", 1L), list(-1L, "q")};
        assertEquals("1,\"a\"\"b,\nc\",\\N,\"2022-01-08\",false,nan,-2.5,\"a\",\"00000000-0000-0000-0000-000000000002\","
            + "\"['x\\'y']\",\"{'k':1}\",-1,\"q\"\n", writeText("CSV", c, List.<Object[]>of(row)));
    }

    @Test
    void headers() throws IOException {
        List<Column> c = cols("a UInt8", "say\"hi String");
        List<Object[]> rows = List.<Object[]>of(new Object[] {1L, "x"});
        assertEquals("\"a\",\"say\"\"hi\"\n1,\"x\"\n", writeText("CSVWithNames", c, rows));
        assertEquals("\"a\",\"say\"\"hi\"\n\"UInt8\",\"String\"\n1,\"x\"\n", writeText("CSVWithNamesAndTypes", c, rows));
    }

    @Test
    void delimiterAndLineEndSettings() throws IOException {
        FormatSettings s = FormatSettings.of(Map.of("format_csv_delimiter", ";", "output_format_csv_crlf_end_of_line",
            "1", "format_csv_null_representation", "NULL"));
        byte[] out = FormatFixtures.write("CSV", cols("a UInt8", "n Nullable(UInt8)"),
            List.<Object[]>of(new Object[] {1L, null}), s);
        assertEquals("1;NULL\r\n", new String(out, StandardCharsets.UTF_8));
    }
}
