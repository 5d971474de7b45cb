package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryOut;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RowBinary input: clean and truncated ends, headers mapped to columns, the WithDefaults markers. */
class RowBinaryReaderTest {
    private static final List<Column> C = cols("id UInt64", "s String", "t DateTime");
    private static final Object D = RowReader.DEFAULT;

    private static RowReader open(String format, byte[] data, List<Column> c, Map<String, String> settings) {
        return Formats.openInput(format, new ByteArrayInputStream(data), c, FormatSettings.of(settings), null);
    }

    private static byte[] rows(int n) throws IOException {
        Object[][] rs = new Object[n][];
        for (int i = 0; i < n; i++) {
            rs[i] = new Object[] {(long) i, "row" + i, 1700000000L + i};
        }
        return FormatFixtures.write("RowBinary", C, Arrays.asList(rs), null);
    }

    @Test
    void endAtRowBoundaryIsTheEnd() throws IOException {
        RowReader r = open("RowBinary", rows(2), C, Map.of());
        assertArrayEquals(new Object[] {0L, "row0", 1700000000L}, r.next());
        assertArrayEquals(new Object[] {1L, "row1", 1700000001L}, r.next());
        assertNull(r.next());
        assertNull(r.next());
    }

    @Test
    void truncatedFixedWidthValue() throws IOException {
        byte[] full = rows(2);
        RowReader r = open("RowBinary", Arrays.copyOf(full, full.length / 2 + 3), C, Map.of());
        assertEquals(0L, r.next()[0]);
        ChException e = assertThrows(ChException.class, r::next);
        assertEquals(ErrorCode.CANNOT_READ_ALL_DATA, e.code());
        assertEquals("Cannot read all data. Bytes read: 3. Bytes expected: 8.: (while reading column id): (at row 2)",
            e.getMessage());
    }

    @Test
    void truncatedString() throws IOException {
        BinaryOut b = new BinaryOut(64);
        b.writeLongLE(7, 8);
        b.writeVarUInt(10);
        b.write("abcd".getBytes(), 0, 4);
        ChException e = assertThrows(ChException.class, () -> open("RowBinary", b.toByteArray(), C, Map.of()).next());
        assertEquals(ErrorCode.CANNOT_READ_ALL_DATA, e.code());
        assertTrue(e.getMessage().startsWith("Cannot read all data. Bytes read: 4. Bytes expected: 10."), e.getMessage());
        byte[] cut = Arrays.copyOf(rows(1), 8 + 1 + 4 + 2);
        ChException t = assertThrows(ChException.class, () -> open("RowBinary", cut, C, Map.of()).next());
        assertTrue(t.getMessage().startsWith("Cannot read all data. Bytes read: 2. Bytes expected: 4."), t.getMessage());
    }

    @Test
    void withNamesMapsColumns() throws IOException {
        List<Column> src = cols("t DateTime", "id UInt64");
        byte[] data = FormatFixtures.write("RowBinaryWithNames", src, List.<Object[]>of(new Object[] {5L, 9L}), null);
        assertArrayEquals(new Object[] {9L, D, 5L}, open("RowBinaryWithNames", data, C, Map.of()).next());
        List<Column> extra = cols("id UInt64", "zz String");
        byte[] unknown = FormatFixtures.write("RowBinaryWithNames", extra, List.<Object[]>of(new Object[] {1L, "q"}), null);
        ChException e = assertThrows(ChException.class, () -> open("RowBinaryWithNames", unknown, C, Map.of()).next());
        assertEquals(ErrorCode.INCORRECT_DATA, e.code());
        assertTrue(e.getMessage().contains("Cannot skip unknown field 'zz'"), e.getMessage());
    }

    @Test
    void withNamesAndTypesSkipsUnknownAndChecksTypes() throws IOException {
        List<Column> src = cols("zz Array(String)", "s String", "id UInt64");
        byte[] data = FormatFixtures.write("RowBinaryWithNamesAndTypes", src,
            List.<Object[]>of(new Object[] {List.of("a", "b"), "x", 3L}), null);
        assertArrayEquals(new Object[] {3L, "x", D}, open("RowBinaryWithNamesAndTypes", data, C, Map.of()).next());
        ChException strict = assertThrows(ChException.class, () -> open("RowBinaryWithNamesAndTypes", data, C,
            Map.of("input_format_skip_unknown_fields", "0")).next());
        assertEquals(ErrorCode.INCORRECT_DATA, strict.code());
        byte[] wrong = FormatFixtures.write("RowBinaryWithNamesAndTypes", cols("id UInt32"),
            List.<Object[]>of(new Object[] {3L}), null);
        ChException e = assertThrows(ChException.class, () -> open("RowBinaryWithNamesAndTypes", wrong, C, Map.of()).next());
        assertEquals("Type of 'id' must be UInt64, not UInt32", e.getMessage());
    }

    @Test
    void withDefaultsMarkers() throws IOException {
        BinaryOut b = new BinaryOut(64);
        b.write(0);
        b.writeLongLE(5, 8);
        b.write(1);
        b.write(0);
        b.writeLongLE(1700000000L, 4);
        RowReader r = open("RowBinaryWithDefaults", b.toByteArray(), C, Map.of());
        assertArrayEquals(new Object[] {5L, RowReader.DEFAULT_OR_ZERO, 1700000000L}, r.next());
        assertNull(r.next());
        ChException e = assertThrows(ChException.class,
            () -> open("RowBinaryWithDefaults", new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, C, Map.of()).next());
        assertTrue(e.getMessage().startsWith("Cannot read all data. Bytes read: 0. Bytes expected: 1."), e.getMessage());
    }

    @Test
    void enumCodeOutsideTheEnumIsKept() throws IOException {
        RowReader r = open("RowBinary", new byte[] {1, 9}, cols("e Enum8('a' = 1)"), Map.of());
        assertEquals(1L, r.next()[0]);
        assertEquals(9L, r.next()[0]);
        assertNull(r.next());
    }

    @Test
    void aVarintCutShortIsReadAfterEof() {
        ChException e = assertThrows(ChException.class, () -> open("RowBinary", new byte[] {7, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80}, C,
            Map.of()).next());
        assertEquals(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, e.code());
        assertEquals("Attempt to read after eof: (while reading column s): (at row 1)", e.getMessage());
    }
}
