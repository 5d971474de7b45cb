package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A columnar block is the same block as its rows: the same values, the same RowBinary bytes, the same estimated size
 * and, above all, the same block ids (the 26.x data hash over any range of rows, and the legacy hash), over random
 * RowBinary data of every column kind (primitive, byte string, value objects).
 */
class ColumnarBlockHashTest {
    private static final String[] TYPES = {"UInt8", "Int8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Date", "Date32",
        "DateTime", "DateTime('Asia/Tokyo')", "DateTime64(3)", "Enum8('a' = 1, 'b' = -2)", "String", "FixedString(3)", "Nullable(String)",
        "Array(UInt16)", "LowCardinality(String)", "Nullable(Int32)", "Float64"};

    @Test
    void aColumnarBlockHashesWritesAndSizesAsItsRows() throws Exception {
        Random rnd = new Random(20261202);
        List<Column> header = new ArrayList<>();
        for (int i = 0; i < TYPES.length; i++) {
            header.add(new Column("c" + i, DataTypes.parse(TYPES[i])));
        }
        for (int round = 0; round < 20; round++) {
            int n = round == 0 ? 0 : round == 1 ? 1 : rnd.nextInt(3000);
            byte[] data = rowBinary(header, n, rnd);
            List<Object[]> rows = new ArrayList<>();
            BinaryIn in = new BinaryIn(data);
            for (int r = 0; r < n; r++) {
                Object[] row = new Object[header.size()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = header.get(c).type().readBinary(in);
                }
                rows.add(row);
            }
            IColumn.Mutable[] m = Columns.mutable(header, 4);
            in = new BinaryIn(data);
            for (int r = 0; r < n; r++) {
                for (IColumn.Mutable c : m) {
                    c.readBinary(in);
                }
            }
            Block columnar = Block.ofColumns(header, Columns.finish(m), n, null);
            Block byRows = new Block(header, rows);
            assertEquals(n, columnar.rowCount());
            for (int r = 0; r < n; r++) {
                assertEquals(java.util.Arrays.deepToString(rows.get(r)), java.util.Arrays.deepToString(columnar.rows().get(r)), "row " + r);
            }
            assertEquals(byRows.bytes(), columnar.bytes(), "estimated bytes, round " + round);
            assertArrayEquals(BlockIds.hashData(header, rows), BlockIds.hashData(header, columnar.rows()), "legacy hash, round " + round);
            int from = n == 0 ? 0 : rnd.nextInt(n);
            int to = n == 0 ? 0 : from + rnd.nextInt(n - from + 1);
            int[] sent = {3, 0, 14, 17, 16, 11};
            assertArrayEquals(BlockIds.dataHash(header, null, rows, 0, n), BlockIds.dataHash(header, null, columnar.rows(), 0, n));
            assertArrayEquals(BlockIds.dataHash(header, sent, rows, from, to), BlockIds.dataHash(header, sent, columnar.rows(), from, to),
                "rows " + from + ".." + to);
            BinaryOut a = new BinaryOut(64);
            BinaryOut b = new BinaryOut(64);
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < header.size(); c++) {
                    header.get(c).type().writeBinary(rows.get(r)[c], a);
                    columnar.data()[c].writeBinary(r, b);
                }
            }
            assertArrayEquals(a.toByteArray(), b.toByteArray(), "RowBinary of round " + round);
            assertArrayEquals(data, b.toByteArray());
        }
    }

    @Test
    void permutingAndCuttingAColumnMovesItsValues() {
        DataType s = DataTypes.parse("String");
        IColumn c = Columns.of(s, List.of("a", "", "ccc", "\u00e9t\u00e9 \u4e2d", "dd"));
        IColumn p = c.permute(new int[] {4, 2, 0, 3, 1});
        assertEquals(List.of("dd", "ccc", "a", c.get(3), ""), values(p));
        assertEquals(List.of("", "ccc"), values(c.cut(1, 2)));
        BinaryOut text = new BinaryOut(16);
        s.writeBinary("\u00e9t\u00e9 \u4e2d", text); // a text value keeps its UTF-8 bytes
        BinaryOut col = new BinaryOut(16);
        c.writeBinary(3, col);
        assertArrayEquals(text.toByteArray(), col.toByteArray());
        IColumn v = Columns.of(DataTypes.parse("UInt64"), List.of(5L, -1L, 0L));
        assertEquals(List.of(0L, 5L, -1L), values(v.permute(new int[] {2, 0, 1})));
        assertTrue(new ColumnRows(new IColumn[] {c, c}, 5).get(2)[1].equals("ccc"));
    }

    private static List<Object> values(IColumn c) {
        List<Object> l = new ArrayList<>();
        for (int i = 0; i < c.size(); i++) {
            l.add(c.get(i));
        }
        return l;
    }

    /** Random rows in RowBinary: every value valid for its type. */
    private static byte[] rowBinary(List<Column> header, int n, Random rnd) {
        BinaryOut out = new BinaryOut(1024);
        for (int r = 0; r < n; r++) {
            for (Column c : header) {
                value(c.type().name(), out, rnd);
            }
        }
        return out.toByteArray();
    }

    private static void value(String type, BinaryOut out, Random rnd) {
        switch (type) {
            case "UInt8", "Int8" -> out.writeLongLE(rnd.nextLong(), 1);
            case "Int16", "UInt16", "Date" -> out.writeLongLE(rnd.nextLong(), 2);
            case "Int32", "UInt32", "DateTime", "DateTime('Asia/Tokyo')" -> out.writeLongLE(rnd.nextLong(), 4);
            case "Date32" -> out.writeLongLE(rnd.nextInt(100_000) - 30_000, 4);
            case "Int64", "UInt64", "DateTime64(3)" -> out.writeLongLE(rnd.nextLong(), 8);
            case "Float64" -> out.writeLongLE(Double.doubleToLongBits(rnd.nextGaussian()), 8);
            case "Enum8('b' = -2, 'a' = 1)" -> out.writeLongLE(rnd.nextBoolean() ? 1 : -2, 1);
            case "FixedString(3)" -> {
                for (int i = 0; i < 3; i++) {
                    out.write(rnd.nextInt(256));
                }
            }
            case "String", "LowCardinality(String)" -> {
                int len = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(rnd.nextInt(10) == 0 ? 300 : 12);
                out.writeVarUInt(len);
                for (int i = 0; i < len; i++) {
                    out.write(rnd.nextInt(256));
                }
            }
            case "Nullable(String)" -> {
                boolean isNull = rnd.nextInt(3) == 0;
                out.write(isNull ? 1 : 0);
                if (!isNull) {
                    value("String", out, rnd);
                }
            }
            case "Nullable(Int32)" -> {
                boolean isNull = rnd.nextInt(3) == 0;
                out.write(isNull ? 1 : 0);
                if (!isNull) {
                    out.writeLongLE(rnd.nextLong(), 4);
                }
            }
            case "Array(UInt16)" -> {
                int len = rnd.nextInt(5);
                out.writeVarUInt(len);
                for (int i = 0; i < len; i++) {
                    out.writeLongLE(rnd.nextLong(), 2);
                }
            }
            default -> throw new IllegalArgumentException(type);
        }
    }
}
