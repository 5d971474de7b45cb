package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.readText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JSONEachRow input: separators, leniencies, defaults, unknown and repeated keys, malformed objects. */
class JsonEachRowReaderTest {
    private static final List<Column> C = cols("id UInt64", "s String", "n Nullable(Int32)");
    private static final Object D = RowReader.DEFAULT;

    private static RowReader open(String data, List<Column> c, Map<String, String> settings) {
        return Formats.openInput("JSONEachRow", new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)), c,
            FormatSettings.of(settings), null);
    }

    @Test
    void objectsSeparatedAnyWay() throws IOException {
        String in = "{\"id\":1,\"s\":\"a\",\"n\":2}\n{\"id\":\"2\", \"s\" : \"b\"} ,\n\n {\"n\":null,\"id\":3}{\"id\":4}";
        List<Object[]> r = readText("JSONEachRow", in, C);
        assertEquals(4, r.size());
        assertArrayEquals(new Object[] {1L, "a", 2L}, r.get(0));
        assertArrayEquals(new Object[] {2L, "b", D}, r.get(1));
        assertArrayEquals(new Object[] {3L, D, null}, r.get(2));
    }

    @Test
    void topLevelArray() throws IOException {
        List<Object[]> r = readText("JSONEachRow", " [ {\"id\":1}, {\"id\":18446744073709551615} ] \n", C);
        assertEquals(-1L, r.get(1)[0]);
        assertThrows(ChException.class, () -> readText("JSONEachRow", "[{\"id\":1}", C));
    }

    @Test
    void lenientValues() throws IOException {
        List<Column> c = cols("i Int64", "f Float64", "b Bool", "s String", "d Decimal(38, 10)", "e Enum8('x' = 5)",
            "dt DateTime", "u8 UInt8", "fs FixedString(3)");
        String in = "{\"i\":\"-7\",\"f\":\"1e300\",\"b\":1,\"s\":{\"k\": [1, \"}\"]},\"d\":\"0.1234567890123\","
            + "\"e\":5,\"dt\":1700000000,\"u8\":true,\"fs\":\"ab\"}\n"
            + "{\"i\":1,\"f\":-0.5,\"b\":\"false\",\"s\":12.50,\"d\":1e2,\"e\":\"x\",\"dt\":\"2023-11-14 22:13:20\","
            + "\"u8\":false,\"fs\":\"\"}";
        List<Object[]> r = readText("JSONEachRow", in, c);
        assertArrayEquals(new Object[] {-7L, 1e300, true, "{\"k\": [1, \"}\"]}", new BigDecimal("0.1234567890"), 5L,
            1700000000L, 1L, "ab\0"}, r.get(0));
        assertArrayEquals(new Object[] {1L, -0.5, false, "12.50", new BigDecimal("100.0000000000"), 5L, 1700000000L,
            0L, "\0\0\0"}, r.get(1));
    }

    @Test
    void nestedValues() throws IOException {
        List<Column> c = cols("a Array(Nullable(String))", "m Map(String, UInt64)", "t Tuple(a Int8, b String)",
            "u Tuple(UInt8, Array(UInt8))", "z Array(UInt32)");
        String in = "{\"a\":[\"x\",null,\"\\u00fc\\ud83d\\ude00\\n\"],\"m\":{\"k\":\"5\",\"l\":6},\"t\":{\"b\":\"y\"},"
            + "\"u\":[1,[2,3]],\"z\":[1,null]}";
        Object[] row = readText("JSONEachRow", in, c).get(0);
        assertEquals(Arrays.asList("x", null, ByteStrings.fromText("\u00fc\ud83d\ude00\n")), row[0]);
        assertEquals(Map.of("k", 5L, "l", 6L), row[1]);
        assertEquals(List.of(0L, "y"), row[2]);
        assertEquals(List.of(1L, List.of(2L, 3L)), row[3]);
        assertEquals(List.of(1L, 0L), row[4]);
    }

    @Test
    void unknownAndRepeatedKeys() throws IOException {
        Object[] row = readText("JSONEachRow", "{\"x\":{\"deep\":[1,{}]},\"id\":1,\"y\":\"s\"}", C).get(0);
        assertArrayEquals(new Object[] {1L, D, D}, row);
        ChException unknown = assertThrows(ChException.class,
            () -> open("{\"x\":1}", C, Map.of("input_format_skip_unknown_fields", "0")).next());
        assertEquals(ErrorCode.INCORRECT_DATA, unknown.code());
        assertEquals("Unknown field found while parsing JSONEachRow format: x: (at row 1)", unknown.getMessage());
        ChException dup = assertThrows(ChException.class, () -> readText("JSONEachRow", "{\"id\":1,\"id\":2}", C));
        assertEquals(ErrorCode.INCORRECT_DATA, dup.code());
    }

    @Test
    void nullForNonNullable() throws IOException {
        assertEquals(D, readText("JSONEachRow", "{\"id\":null}", C).get(0)[0]);
        ChException e = assertThrows(ChException.class,
            () -> open("{\"id\":null}", C, Map.of("input_format_null_as_default", "0")).next());
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, e.code());
    }

    @Test
    void malformedInputFailsWithoutPartialRow() throws IOException {
        RowReader r = open("{\"id\":1}\n{\"id\":2,\"s\":\"x\" \"n\":3}\n", C, Map.of());
        assertEquals(1L, r.next()[0]);
        ChException e = assertThrows(ChException.class, r::next);
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, e.code());
        assertTrue(e.getMessage().contains("expected ',' or '}'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(at row 2)"), e.getMessage());
        ChException notObject = assertThrows(ChException.class, () -> readText("JSONEachRow", "42", C));
        assertEquals("Cannot parse input: expected '{' before: '42': (at row 1)", notObject.getMessage());
        ChException badValue = assertThrows(ChException.class, () -> readText("JSONEachRow", "{\"id\":\"abc\"}", C));
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, badValue.code());
        assertTrue(badValue.getMessage().contains("(while reading the value of key id)"), badValue.getMessage());
        assertThrows(ChException.class, () -> readText("JSONEachRow", "{\"s\":\"unterminated}", C));
        assertThrows(ChException.class, () -> readText("JSONEachRow", "{\"id\":1,}", C));
    }

    @Test
    void emptyObjectIsAllDefaults() throws IOException {
        assertArrayEquals(new Object[] {D, D, D}, readText("JSONEachRow", "{}", C).get(0));
        assertNull(open("  \n ", C, Map.of()).next());
    }
}
