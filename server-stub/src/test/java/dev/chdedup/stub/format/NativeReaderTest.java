package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Native input: what the writer writes reads back unchanged, columns match by name with conversion and DEFAULT,
 * and hostile input (cut short, huge counts and lengths, unknown types) fails with the engine's code and message
 * without allocating what the header claims. The messages were taken from ClickHouse 26.7 fed the same bytes.
 */
class NativeReaderTest {
    private static final List<Column> AB = cols("a UInt8", "b String");

    /** A Native block: column count, row count, then per column name, type and the data bytes given. */
    static byte[] block(long rows, Object... nameTypeData) {
        BinaryOut o = new BinaryOut(64);
        o.writeVarUInt(nameTypeData.length / 3);
        o.writeVarUInt(rows);
        for (int i = 0; i < nameTypeData.length; i += 3) {
            o.writeString(ByteStrings.fromText((String) nameTypeData[i]));
            o.writeString(ByteStrings.fromText((String) nameTypeData[i + 1]));
            byte[] d = (byte[]) nameTypeData[i + 2];
            o.write(d, 0, d.length);
        }
        return o.toByteArray();
    }

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    static byte[] le64(long v) {
        BinaryOut o = new BinaryOut(8);
        o.writeLongLE(v, 8);
        return o.toByteArray();
    }

    static byte[] cat(byte[]... parts) {
        BinaryOut o = new BinaryOut(64);
        for (byte[] p : parts) {
            o.write(p, 0, p.length);
        }
        return o.toByteArray();
    }

    private static List<Object[]> read(byte[] data, List<Column> c) throws IOException {
        return FormatFixtures.read("Native", data, c, null, null);
    }

    private static ChException fails(byte[] data, List<Column> c) {
        return assertThrows(ChException.class, () -> read(data, c));
    }

    @Test
    void everyTypeRoundTrips() throws IOException {
        FormatFixtures.assertRoundTrip("Native", FormatFixtures.ALL, FormatFixtures.rows());
        FormatFixtures.assertRoundTrip("Native", FormatFixtures.ALL, FormatFixtures.specialFloatRows());
    }

    @Test
    void writesTheEnginesBytes() throws IOException {
        // SELECT toUInt8(1) a, 'x' b FORMAT Native on ClickHouse 26.7
        byte[] out = FormatFixtures.write("Native", AB, List.<Object[]>of(new Object[] {1L, "x"}), null);
        assertArrayEquals(bytes(2, 1, 1, 'a', 5, 'U', 'I', 'n', 't', '8', 1, 1, 'b', 6, 'S', 't', 'r', 'i', 'n', 'g', 1, 'x'), out);
        assertEquals(0, FormatFixtures.write("Native", AB, List.of(), null).length, "an empty result is no block at all");
    }

    @Test
    void columnsMatchByNameWithConversionAndDefaults() throws IOException {
        byte[] data = block(2, "c", "UInt8", bytes(9, 9), "b", "Nullable(String)", cat(bytes(0, 1), new byte[] {1, 'x', 0}),
            "a", "Int64", cat(le64(300), le64(7)));
        List<Object[]> rows = read(data, cols("a UInt8", "b String", "z UInt32"));
        assertEquals(2, rows.size());
        assertArrayEquals(new Object[] {44L, "x", RowReader.DEFAULT}, rows.get(0)); // 300 wraps as CAST does
        assertArrayEquals(new Object[] {7L, RowReader.DEFAULT, RowReader.DEFAULT}, rows.get(1)); // NULL: the DEFAULT
        FormatSettings strict = FormatSettings.of(Map.of("input_format_skip_unknown_fields", "0"));
        ChException e = assertThrows(ChException.class, () -> FormatFixtures.read("Native", data, AB, strict, null));
        assertEquals(ErrorCode.INCORRECT_DATA, e.code());
        assertEquals("Unknown column with name c found while reading data in Native format", e.getMessage());
        ChException notNull = assertThrows(ChException.class, () -> FormatFixtures.read("Native", data, AB,
            FormatSettings.of(Map.of("input_format_null_as_default", "0")), null));
        assertEquals(ErrorCode.CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, notNull.code());
        assertTrue(notNull.getMessage().endsWith("while converting column \"b\" from type Nullable(String) to type String"));
    }

    @Test
    void blocksFollowOneAnotherAndAnEmptyBodyHasNoRows() throws IOException {
        byte[] one = block(1, "a", "UInt8", bytes(1), "b", "String", bytes(1, 'x'));
        byte[] two = block(2, "b", "String", bytes(1, 'y', 0), "a", "UInt8", bytes(2, 3));
        List<Object[]> rows = read(cat(one, two), AB);
        assertEquals(3, rows.size());
        assertArrayEquals(new Object[] {3L, ""}, rows.get(2));
        assertTrue(read(new byte[0], AB).isEmpty());
        List<Object[]> noColumns = read(bytes(0, 3), AB); // 26.7 inserts three rows of defaults
        assertEquals(3, noColumns.size());
        assertSame(RowReader.DEFAULT, noColumns.get(0)[0]);
    }

    @Test
    void cutShortFailsAsTheEngine() {
        byte[] whole = block(1, "a", "UInt8", bytes(1), "b", "String", bytes(1, 'x'));
        ChException e = fails(Arrays.copyOf(whole, whole.length - 1), AB);
        assertEquals(ErrorCode.CANNOT_READ_ALL_DATA, e.code());
        assertEquals("Cannot read all data. Bytes read: 0. Bytes expected: 1.", e.getMessage());
        ChException header = fails(Arrays.copyOf(whole, 8), AB); // inside the type name "UInt8"
        assertEquals("Cannot read all data. Bytes read: 3. Bytes expected: 5.", header.getMessage());
        assertEquals(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, fails(bytes(1), AB).code());
        ChException rows = fails(block(3, "a", "UInt64", new byte[12]), cols("a UInt64"));
        assertEquals("Cannot read all data in NativeReader. Rows read: 1. Rows expected: 3", rows.getMessage());
        ChException strings = fails(block(3, "b", "String", bytes(1, 'x')), AB);
        assertEquals("Cannot read all data in NativeReader. Rows read: 1. Rows expected: 3", strings.getMessage());
        ChException nulls = fails(block(3, "c", "Nullable(UInt8)", new byte[4]), cols("c Nullable(UInt8)"));
        assertEquals("Sizes of nested column and null map of Nullable column are not equal after deserialization "
            + "(null map size = 3, nested column size = 1)", nulls.getMessage());
        ChException arrays = fails(block(2, "d", "Array(UInt8)", cat(le64(1), le64(3), new byte[2])), cols("d Array(UInt8)"));
        assertEquals("Cannot read all array values: read just 2 of 3", arrays.getMessage());
        ChException order = fails(block(2, "d", "Array(UInt8)", cat(le64(3), le64(1), new byte[3])), cols("d Array(UInt8)"));
        assertEquals(ErrorCode.INCORRECT_DATA, order.code());
        ChException tuple = fails(block(3, "t", "Tuple(UInt8, UInt8)", new byte[4]), cols("t Tuple(UInt8, UInt8)"));
        assertEquals("Unexpected size of tuple element 1: 1. Expected size: 3", tuple.getMessage());
    }

    @Test
    void hugeCountsAndLengthsFailWithoutAllocating() {
        long huge = 1L << 62;
        BinaryOut manyRows = new BinaryOut(32);
        manyRows.writeVarUInt(1);
        manyRows.writeVarUInt(huge);
        ChException rows = fails(manyRows.toByteArray(), AB);
        assertEquals(ErrorCode.TOO_LARGE_ARRAY_SIZE, rows.code());
        assertEquals("Suspiciously many rows in Native format: 4611686018427387904", rows.getMessage());
        BinaryOut manyColumns = new BinaryOut(32);
        manyColumns.writeVarUInt(huge);
        assertEquals("Suspiciously many columns in Native format: 4611686018427387904", fails(manyColumns.toByteArray(), AB).getMessage());
        // a trillion rows is allowed by the header, but only the values that arrive are held
        ChException trillion = fails(block(1_000_000_000_000L, "a", "UInt8", bytes(1)), AB);
        assertEquals("Cannot read all data in NativeReader. Rows read: 1. Rows expected: 1000000000000", trillion.getMessage());
        BinaryOut longString = new BinaryOut(16);
        longString.writeVarUInt(huge);
        assertEquals(ErrorCode.TOO_LARGE_STRING_SIZE, fails(block(1, "b", "String", longString.toByteArray()), AB).code());
        BinaryOut gigabyte = new BinaryOut(16);
        gigabyte.writeVarUInt((1 << 30) - 1);
        ChException cut = fails(block(1, "b", "String", cat(gigabyte.toByteArray(), bytes('x'))), AB);
        assertEquals("Cannot read all data. Bytes read: 1. Bytes expected: 1073741823.", cut.getMessage());
        ChException array = fails(block(1, "d", "Array(UInt8)", cat(le64(huge), bytes(1))), cols("d Array(UInt8)"));
        assertEquals("Array sizes are too large: 4611686018427387904", array.getMessage());
        ChException bigArray = fails(block(1, "d", "Array(UInt8)", cat(le64(1L << 40), bytes(1))), cols("d Array(UInt8)"));
        assertEquals("Cannot read all array values: read just 1 of 1099511627776", bigArray.getMessage());
        byte[] lc = cat(le64(1), le64(0x600), le64(huge), bytes(0));
        assertEquals(ErrorCode.CANNOT_READ_ALL_DATA, fails(block(1, "b", "LowCardinality(String)", lc), AB).code());
    }

    @Test
    void unknownTypesAreRefused() {
        ChException e = fails(block(1, "a", "Fooba", bytes(1)), AB);
        assertEquals(ErrorCode.UNKNOWN_TYPE, e.code());
        assertEquals("Unknown data type family: Fooba", e.getMessage());
        ChException skipped = fails(block(1, "a", "UInt8", bytes(1), "zz", "Foo", bytes(1)), AB);
        assertEquals(ErrorCode.UNKNOWN_TYPE, skipped.code());
    }

    @Test
    void lowCardinalityReadsTheEnginesLayout() throws IOException {
        // SELECT CAST(if(number = 1, NULL, toString(number)) AS LowCardinality(Nullable(String))) a FROM numbers(3)
        byte[] data = cat(block(3, "a", "LowCardinality(Nullable(String))", cat(le64(1), le64(0x600), le64(4),
            bytes(0, 0, 1, '0', 1, '2'), le64(3), bytes(2, 0, 3))));
        List<Object[]> rows = read(data, cols("a LowCardinality(Nullable(String))"));
        List<Object> values = new ArrayList<>();
        for (Object[] r : rows) {
            values.add(r[0]);
        }
        assertEquals(Arrays.asList("0", null, "2"), values);
        assertArrayEquals(data, FormatFixtures.write("Native", cols("a LowCardinality(Nullable(String))"), rows, null));
        // a LowCardinality inside a Map or Array: its keys version comes before the offsets (the state prefix)
        byte[] nested = java.util.HexFormat.of().parseHex("0201016D2C4D6170284C6F7743617264696E616C69747928537472696E67292C204E756C6C61626C652855496E7438292901000000000000000200000000000000000600000000000003000000000000000001610162020000000000000001020100000101741B4172726179285475706C652855496E74382C20537472696E6729290200000000000000010201610162");
        List<Column> mt = cols("m Map(LowCardinality(String), Nullable(UInt8))", "t Array(Tuple(UInt8, String))");
        List<Object[]> back = read(nested, mt);
        assertEquals(FormatFixtures.map("a", null, "b", 1L), back.get(0)[0]);
        assertArrayEquals(nested, FormatFixtures.write("Native", mt, back, null));
    }
}
