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

/** TSKV input: pairs in any order, escapes, defaults, the tskv marker, unknown and repeated names. */
class TskvReaderTest {
    private static final List<Column> C = cols("a UInt8", "b=c String", "n Nullable(String)");
    private static final Object D = RowReader.DEFAULT;

    @Test
    void pairsInAnyOrder() throws IOException {
        List<Object[]> r = readText("TSKV", "tskv\tn=\\N\tb\\=c=x=y\\tz\ta=1\n\nb\\=c=\tzz=9\n", C);
        assertEquals(3, r.size());
        assertArrayEquals(new Object[] {1L, "x=y\tz", null}, r.get(0));
        assertArrayEquals(new Object[] {D, D, D}, r.get(1));
        assertArrayEquals(new Object[] {D, "", D}, r.get(2));
    }

    @Test
    void errors() throws IOException {
        RowReader strict = Formats.openInput("TSKV", new ByteArrayInputStream("a=1\nzz=2\n".getBytes(StandardCharsets.UTF_8)),
            C, FormatSettings.of(Map.of("input_format_skip_unknown_fields", "0")), null);
        assertEquals(1L, strict.next()[0]);
        ChException unknown = assertThrows(ChException.class, strict::next);
        assertEquals(ErrorCode.INCORRECT_DATA, unknown.code());
        assertEquals("Unknown field found while parsing TSKV format: zz: (at row 2)", unknown.getMessage());
        ChException dup = assertThrows(ChException.class, () -> readText("TSKV", "a=1\ta=2\n", C));
        assertEquals(ErrorCode.INCORRECT_DATA, dup.code());
        ChException noValue = assertThrows(ChException.class, () -> readText("TSKV", "a\n", C));
        assertTrue(noValue.getMessage().startsWith("Found field without value"), noValue.getMessage());
        ChException bad = assertThrows(ChException.class, () -> readText("TSKV", "a=300\n", C));
        assertEquals(ErrorCode.CANNOT_PARSE_TEXT, bad.code());
    }
}
