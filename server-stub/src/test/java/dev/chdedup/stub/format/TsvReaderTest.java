package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.readText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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

/** TabSeparated input: escapes, NULLs, headers, line ends and the errors for malformed rows. */
class TsvReaderTest {
    private static final List<Column> US = cols("u UInt64", "s String");
    private static final Object D = RowReader.DEFAULT;

    private static RowReader open(String format, String data, List<Column> c, Map<String, String> settings) {
        return Formats.openInput(format, new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)), c,
            FormatSettings.of(settings), null);
    }

    @Test
    void finalLineFeedIsOptional() throws IOException {
        assertEquals(2, readText("TSV", "1\ta\n2\tb\n", US).size());
        List<Object[]> r = readText("TSV", "1\ta\n2\tb", US);
        assertArrayEquals(new Object[] {2L, "b"}, r.get(1));
    }

    @Test
    void unescapesAsClickHouse() throws IOException {
        List<Column> c = cols("s String");
        String in = "a\\tb\\nc\\\\\\'\\\"\\0\\x41\n100\\%\n\\N\n\\\\N\nx\\\ty\n";
        List<Object[]> r = readText("TSV", in, c);
        assertEquals("a\tb\nc\\'\"\0A", r.get(0)[0]);
        assertEquals("100\\%", r.get(1)[0]);
        assertSame(D, r.get(2)[0]);
        assertEquals("\\N", r.get(3)[0]);
        assertEquals("x\ty", r.get(4)[0]);
    }

    @Test
    void nullsAndEmptyFields() throws IOException {
        List<Column> c = cols("n Nullable(String)", "i Int32", "lcn LowCardinality(Nullable(String))");
        List<Object[]> r = readText("TSV", "\\N\t\\N\t\\N\nNULL\t\t\n", c);
        assertArrayEquals(new Object[] {null, D, null}, r.get(0));
        assertArrayEquals(new Object[] {"NULL", 0L, ""}, r.get(1));
        RowReader e = open("TSV", "x\t\t\n", c, Map.of("input_format_tsv_empty_as_default", "1"));
        assertArrayEquals(new Object[] {"x", D, D}, e.next());
    }

    @Test
    void nestedValuesAreReadUnescaped() throws IOException {
        List<Column> c = cols("a Array(Nullable(String))", "m Map(String, UInt64)", "t Tuple(Int8, String)");
        List<Object[]> r = readText("TSV", "['a\\tb',NULL,'it\\'s']\t{'k':18446744073709551615}\t(-1,'x')\n", c);
        assertEquals(List.of("a\tb", "it's"), List.of(((List<?>) r.get(0)[0]).get(0), ((List<?>) r.get(0)[0]).get(2)));
        assertNull(((List<?>) r.get(0)[0]).get(1));
        assertEquals(Map.of("k", -1L), r.get(0)[1]);
        assertEquals(List.of(-1L, "x"), r.get(0)[2]);
    }

    @Test
    void headerMapsNamesToColumns() throws IOException {
        List<Column> c = cols("a UInt8", "b String", "c Date");
        List<Object[]> r = readText("TSVWithNames", "b\textra\ta\nx\tignored\t7\n", c);
        assertArrayEquals(new Object[] {7L, "x", D}, r.get(0));
        ChException e = assertThrows(ChException.class,
            () -> open("TSVWithNames", "b\textra\n", c, Map.of("input_format_skip_unknown_fields", "0")).next());
        assertEquals(ErrorCode.INCORRECT_DATA, e.code());
        assertTrue(e.getMessage().contains("Unknown field found in TSV header: 'extra'"), e.getMessage());
        ChException dup = assertThrows(ChException.class, () -> readText("TSVWithNames", "a\ta\n1\t2\n", c));
        assertEquals(ErrorCode.INCORRECT_DATA, dup.code());
        List<Object[]> noHeader = FormatFixtures.read("TSVWithNames", "z\ty\tq\n1\tb\t2024-01-02\n"
            .getBytes(StandardCharsets.UTF_8), c, FormatSettings.of(Map.of("input_format_with_names_use_header", "0")),
            null);
        assertArrayEquals(new Object[] {1L, "b", 19724L}, noHeader.get(0));
    }

    @Test
    void typesLineIsChecked() throws IOException {
        List<Column> c = cols("a UInt8", "t DateTime64(3, 'UTC')");
        assertEquals(1, readText("TSVWithNamesAndTypes", "a\tt\nUInt8\tDateTime64(3,'UTC')\n1\t0\n", c).size());
        ChException e = assertThrows(ChException.class,
            () -> readText("TSVWithNamesAndTypes", "a\tt\nString\tDateTime64(3, 'UTC')\n1\t0\n", c));
        assertEquals(ErrorCode.INCORRECT_DATA, e.code());
        assertEquals("Type of 'a' must be UInt8, not String", e.getMessage());
    }

    @Test
    void tooFewFieldsFailsWithRowNumberAndNoPartialRow() throws IOException {
        RowReader r = open("TSV", "1\ta\n2\n3\tc\n", US, Map.of());
        assertArrayEquals(new Object[] {1L, "a"}, r.next());
        ChException e = assertThrows(ChException.class, r::next);
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, e.code());
        assertTrue(e.getMessage().startsWith("Cannot parse input: expected '\\t' before: '\n3\tc\n'"), e.getMessage());
        assertTrue(e.getMessage().contains("column s of type String"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(at row 2)"), e.getMessage());
    }

    @Test
    void tooManyFieldsFails() {
        ChException e = assertThrows(ChException.class, () -> readText("TSV", "1\ta\tb\n", US));
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, e.code());
        assertTrue(e.getMessage().startsWith("Cannot parse input: expected '\\n' before: '\tb\n'"), e.getMessage());
        assertTrue(e.getMessage().contains("more columns than expected"), e.getMessage());
    }

    @Test
    void unparsableValueNamesColumnAndRow() throws IOException {
        RowReader r = open("TSV", "1\ta\nx1\tb\n", US, Map.of());
        r.next();
        ChException e = assertThrows(ChException.class, r::next);
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, e.code());
        assertTrue(e.getMessage().contains("column u of type UInt64"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(at row 2)"), e.getMessage());
        ChException range = assertThrows(ChException.class, () -> readText("TSV", "256\n", cols("u UInt8")));
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, range.code());
        ChException date = assertThrows(ChException.class, () -> readText("TSV", "2024-13-01 00:00:00\n",
            cols("d DateTime")));
        assertEquals(ErrorCode.CANNOT_PARSE_DATETIME, date.code());
    }

    @Test
    void lineEndsAndEmptyLines() throws IOException {
        ChException cr = assertThrows(ChException.class, () -> readText("TSV", "1\ta\r\n", cols("u UInt64", "v UInt8")));
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, cr.code());
        RowReader crlf = open("TSV", "1\t2\r\n", cols("u UInt64", "v UInt8"),
            Map.of("input_format_tsv_crlf_end_of_line", "1"));
        assertArrayEquals(new Object[] {1L, 2L}, crlf.next());
        assertThrows(ChException.class, () -> readText("TSV", "1\ta\n\n", US));
        RowReader skip = open("TSV", "1\ta\n\n\n", US, Map.of("input_format_tsv_skip_trailing_empty_lines", "1"));
        assertEquals(1L, skip.next()[0]);
        assertNull(skip.next());
        assertEquals(2, readText("TSV", "a\n\n", cols("s String")).size());
    }

    @Test
    void bomAndLongFieldsAcrossBuffers() throws IOException {
        assertEquals(5L, readText("TSV", "\ufeff5\tx\n", US).get(0)[0]);
        String big = "x".repeat(300_000) + "\\t" + "y".repeat(70_000);
        List<Object[]> r = readText("TSV", "1\t" + big + "\n2\tz", US);
        assertEquals("x".repeat(300_000) + "\t" + "y".repeat(70_000), r.get(0)[1]);
        assertEquals("z", r.get(1)[1]);
    }

    @Test
    void rawDoesNotUnescape() throws IOException {
        List<Object[]> r = readText("TSVRaw", "1\ta\\tb\n2\t\\N\n", cols("u UInt64", "s Nullable(String)"));
        assertEquals("a\\tb", r.get(0)[1]);
        assertNull(r.get(1)[1]);
    }

    @Test
    void bestEffortDateTime() throws IOException {
        List<Column> c = cols("t DateTime", "t3 DateTime64(3, 'UTC')");
        RowReader r = open("TSV", "2024-01-02T03:04:05+01:00\t2024-01-02 03:04:05.5Z\n", c,
            Map.of("date_time_input_format", "best_effort"));
        assertArrayEquals(new Object[] {1704161045L, 1704164645500L}, r.next());
    }
}
