package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Legacy block ids (the 18.16 and 22.1 emulation: one id per part): the data hash depends on the values only (not on a column's representation), is the SipHash of each
 * column's canonical binary form in turn, and the ids are per partition (token ids share the hash and differ by
 * the partition prefix; the same rows in two partitions are two blocks).
 */
class BlockIdsTest {
    private static List<Column> cols(String... types) {
        List<Column> l = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            l.add(new Column("c" + i, DataTypes.parse(types[i])));
        }
        return l;
    }

    private static List<Object[]> rows(Object[]... r) {
        return new ArrayList<>(List.of(r));
    }

    /** The definition: column after column, each value's RowBinary form, then the row count as a UInt64. */
    /** The definition, written plainly: SipHash-128 of each column's RowBinary bytes, then of those hashes and the row count. */
    private static long[] reference(List<Column> columns, List<Object[]> rows) {
        SipHash block = new SipHash();
        for (int c = 0; c < columns.size(); c++) {
            BinaryOut out = new BinaryOut(1024);
            for (Object[] r : rows) {
                columns.get(c).type().writeBinary(r[c], out);
            }
            long[] h = new SipHash().update(out.array(), 0, out.size()).get128();
            block.update(h[0]).update(h[1]);
        }
        return block.update((long) rows.size()).get128();
    }

    @Test
    void dataHashIsTheHashOfEachColumnsBinaryForm() {
        List<Column> c = cols("Int8", "UInt16", "Int32", "UInt64", "Date", "Date32", "DateTime", "DateTime64(3)",
            "Enum8('a' = 1, 'b' = 2)", "String", "FixedString(3)", "Nullable(String)", "LowCardinality(String)",
            "LowCardinality(UInt32)", "Array(UInt8)", "Float64", "UUID");
        List<Object[]> r = rows(
            new Object[] {-3L, 65535L, -70000L, -1L, 19000L, -5L, 1700000000L, 1700000000123L, 1L, "hé", "ab", null, "x", 7L,
                List.of(1L, 2L), 1.5, new UUID(1, 2)},
            new Object[] {127L, 0L, 5L, 42L, 0L, 40000L, 0L, 0L, 2L, "", "abc", "n", "", 0L, List.of(), -0.0, new UUID(0, 0)});
        assertArrayEquals(reference(c, r), BlockIds.hashData(c, r));
        // and over the internal buffer size, where the hash is fed in chunks
        List<Object[]> many = new ArrayList<>();
        for (long i = 0; i < 30_000; i++) {
            many.add(new Object[] {i % 100, i, "row " + i});
        }
        List<Column> c2 = cols("Int8", "UInt64", "String");
        assertArrayEquals(reference(c2, many), BlockIds.hashData(c2, many));
    }

    @Test
    void dataHashDependsOnValuesNotRepresentation() {
        List<Object[]> r = rows(new Object[] {"a"}, new Object[] {"bb"});
        assertArrayEquals(BlockIds.hashData(cols("String"), r), BlockIds.hashData(cols("LowCardinality(String)"), r));
        List<Object[]> n = rows(new Object[] {"a"}, new Object[] {null});
        assertArrayEquals(BlockIds.hashData(cols("Nullable(String)"), n),
            BlockIds.hashData(cols("LowCardinality(Nullable(String))"), n));
        List<Object[]> i = rows(new Object[] {5L}, new Object[] {6L});
        assertArrayEquals(BlockIds.hashData(cols("UInt32"), i), BlockIds.hashData(cols("LowCardinality(UInt32)"), i));
    }

    @Test
    void dataHashSeesEveryValueOrderAndNull() {
        List<Column> c = cols("Nullable(String)", "UInt8");
        long[] base = BlockIds.hashData(c, rows(new Object[] {"a", 1L}, new Object[] {"b", 2L}));
        assertFalse(java.util.Arrays.equals(base, BlockIds.hashData(c, rows(new Object[] {"b", 2L}, new Object[] {"a", 1L}))));
        assertFalse(java.util.Arrays.equals(base, BlockIds.hashData(c, rows(new Object[] {"a", 1L}, new Object[] {"b", 3L}))));
        assertFalse(java.util.Arrays.equals(BlockIds.hashData(c, rows(new Object[] {null, 1L})),
            BlockIds.hashData(c, rows(new Object[] {"", 1L}))));
        assertFalse(java.util.Arrays.equals(BlockIds.hashData(c, rows()), BlockIds.hashData(c, rows(new Object[] {"", 0L}))));
    }

    @Test
    void hashIdsDifferAcrossPartitions() {
        List<Column> c = cols("String");
        List<Object[]> same = rows(new Object[] {"x"});
        String a = BlockIds.pieceId("202401", c, same);
        String b = BlockIds.pieceId("202402", c, same);
        assertNotEquals(a, b);
        assertTrue(Pattern.matches("202401_\\d+_\\d+", a), a);
        long[] h = BlockIds.hashData(c, same);
        assertEquals("202401_" + Long.toUnsignedString(h[1]) + "_" + Long.toUnsignedString(h[0]), a);
    }

    /**
     * Ids of blocks stored before String values became byte strings stay the same: the UTF-8 text the old code
     * hashed (figures computed by it) is the byte string now, so a retry after an upgrade still deduplicates.
     */
    @Test
    void utf8DataKeepsTheBlockIdsItHadWhenStringsWereText() {
        List<Column> c = List.of(new Column("s", DataTypes.parse("String")), new Column("f", DataTypes.parse("FixedString(8)")),
            new Column("l", DataTypes.parse("LowCardinality(String)")), new Column("a", DataTypes.parse("Array(String)")));
        List<Object[]> rows = rows(new Object[] {"ascii", "ab\0\0\0\0\0\0", "x", List.of("p", "q")},
            new Object[] {ByteStrings.fromText("\u00fc\u20ac\ud83d\ude00 " + "long".repeat(50)),
                ByteStrings.fromText("\u00fc\u20ac\0\0\0"), ByteStrings.fromText("\u00e9"),
                List.of(ByteStrings.fromText("\u00fc"), "")});
        assertEquals("all_4968691665908734994_16506661530673739437", BlockIds.blockId("all", BlockIds.hashData(c, rows)));
        assertEquals("all_16826614875413399013_11203956731959777018",
            BlockIds.blockId("all", BlockIds.hashToken("t\u00fck_0")), "tokens are text, hashed as UTF-8");
    }

    /** The hash sees the bytes: a string with a byte that is not UTF-8 differs from its U+FFFD-replaced form. */
    @Test
    void invalidUtf8BytesAreHashedAsTheyAre() {
        List<Column> c = cols("String");
        assertNotEquals(BlockIds.hashData(c, rows(new Object[] {"\u00ff\u00fe"}))[0],
            BlockIds.hashData(c, rows(new Object[] {ByteStrings.fromText("\ufffd\ufffd")}))[0]);
        BinaryOut b = new BinaryOut(8);
        b.writeString("\u00ff\u00fe");
        assertArrayEquals(new byte[] {2, (byte) 0xFF, (byte) 0xFE}, b.toByteArray());
    }
}
