package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.readText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CSV input: quoting, NULLs, defaults, delimiters, line ends, headers and malformed rows. */
class CsvReaderTest {
    private static final List<Column> C = cols("i Int32", "s String", "n Nullable(String)");
    private static final Object D = RowReader.DEFAULT;

    private static RowReader open(String format, String data, List<Column> c, Map<String, String> settings) {
        return Formats.openInput(format, new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)), c,
            FormatSettings.of(settings), null);
    }

    @Test
    void quotedAndBareFields() throws IOException {
        List<Object[]> r = readText("CSV", "1,\"a,\"\"b\"\"\nc\",x\n-2, bare text ,\"\\N\"\n3,,\\N\n4,\"\",", C);
        assertArrayEquals(new Object[] {1L, "a,\"b\"\nc", "x"}, r.get(0));
        assertArrayEquals(new Object[] {-2L, "bare text", "\\N"}, r.get(1));
        assertArrayEquals(new Object[] {3L, D, null}, r.get(2));
        assertArrayEquals(new Object[] {4L, "", D}, r.get(3));
    }

    @Test
    void lineEndsAndBom() throws IOException {
        List<Object[]> r = readText("CSV", "\ufeff1,a,b\r\n2,c,d\r3,e,f", C);
        assertEquals(3, r.size());
        assertArrayEquals(new Object[] {3L, "e", "f"}, r.get(2));
    }

    @Test
    void settingsChangeTheDialect() throws IOException {
        RowReader semi = open("CSV", "1;'x;y';NULL\n", C, Map.of("format_csv_delimiter", ";",
            "format_csv_allow_single_quotes", "1", "input_format_csv_unquoted_null_literal_as_null", "1"));
        assertArrayEquals(new Object[] {1L, "x;y", null}, semi.next());
        RowReader noDefault = open("CSV", "1,,\n", C, Map.of("input_format_csv_empty_as_default", "0"));
        assertArrayEquals(new Object[] {1L, "", ""}, noDefault.next());
        assertArrayEquals(new Object[] {1L, "'q'", "x"}, readText("CSV", "1,'q',x\n", C).get(0));
    }

    @Test
    void tuplesSpanOneFieldPerElement() throws IOException {
        List<Column> c = cols("t Tuple(UInt8, String)", "a Array(UInt8)", "m Map(String, Int8)");
        List<Object[]> r = readText("CSV", "7,\"x\",\"[1,2]\",\"{'k':-1}\"\n\"(8,'y')\",\"[]\",\"{}\"\n", c);
        assertEquals(List.of(7L, "x"), r.get(0)[0]);
        assertEquals(List.of(1L, 2L), r.get(0)[1]);
        assertEquals(Map.of("k", -1L), r.get(0)[2]);
        assertEquals(List.of(8L, "y"), r.get(1)[0]);
    }

    @Test
    void headerMapsNamesAndChecksTypes() throws IOException {
        List<Object[]> r = readText("CSVWithNames", "\"n\",\"i\",\"zz\"\nq,5,ignored\n", C);
        assertArrayEquals(new Object[] {5L, D, "q"}, r.get(0));
        ChException e = assertThrows(ChException.class,
            () -> readText("CSVWithNamesAndTypes", "i,s\nInt64,String\n1,a\n", C));
        assertEquals(ErrorCode.INCORRECT_DATA, e.code());
        assertEquals("Type of 'i' must be Int32, not Int64", e.getMessage());
        assertEquals(1, readText("CSVWithNamesAndTypes", "i,s\nInt32,String\n1,a\n", C).size());
    }

    @Test
    void wrongFieldCountsFailWithoutPartialRows() throws IOException {
        RowReader r = open("CSV", "1,a,b\n2,c\n", C, Map.of());
        assertArrayEquals(new Object[] {1L, "a", "b"}, r.next());
        ChException fewer = assertThrows(ChException.class, r::next);
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, fewer.code());
        assertTrue(fewer.getMessage().startsWith("Cannot parse input: expected ',' before: '\n'"), fewer.getMessage());
        assertTrue(fewer.getMessage().endsWith("(at row 2)"), fewer.getMessage());
        ChException more = assertThrows(ChException.class, () -> readText("CSV", "1,a,b,c\n", C));
        assertTrue(more.getMessage().contains("more columns than expected"), more.getMessage());
    }

    @Test
    void badValuesAndQuotes() {
        ChException bad = assertThrows(ChException.class, () -> readText("CSV", "x,a,b\n", C));
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, bad.code());
        assertTrue(bad.getMessage().contains("column i of type Int32"), bad.getMessage());
        ChException open = assertThrows(ChException.class, () -> readText("CSV", "1,\"abc\n", C));
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, open.code());
        ChException garbage = assertThrows(ChException.class, () -> readText("CSV", "1,\"a\"b,c\n", C));
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, garbage.code());
    }
}
