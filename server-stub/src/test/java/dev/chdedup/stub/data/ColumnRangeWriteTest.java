package dev.chdedup.stub.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A range of a column written at once (as a part's column file is written) gives the bytes of its rows written one by
 * one, for every width of the fixed-size columns, strings of every length class of their size prefix, and any range.
 */
class ColumnRangeWriteTest {
    @Test
    void aRangeIsItsRowsOneAfterAnother() {
        Random rnd = new Random(7);
        List<String> types = List.of("UInt8", "Int16", "UInt32", "Int64", "UInt64", "Date", "DateTime", "Enum8('a' = -1, 'b' = 2)", "String",
            "Float32", "Float64", "Nullable(String)");
        for (String name : types) {
            DataType t = DataTypes.parse(name);
            for (int round = 0; round < 20; round++) {
                int n = rnd.nextInt(3000);
                IColumn.Mutable m = Columns.mutable(t, 4);
                for (int i = 0; i < n; i++) {
                    m.append(value(rnd, name));
                }
                IColumn c = m.finish();
                int from = n == 0 ? 0 : rnd.nextInt(n);
                int length = n - from == 0 ? 0 : rnd.nextInt(n - from + 1);
                BinaryOut one = new BinaryOut(16);
                for (int r = from; r < from + length; r++) {
                    c.writeBinary(r, one);
                }
                BinaryOut range = new BinaryOut(16);
                range.write(0x5A); // a range written after other bytes
                c.writeBinary(from, length, range);
                byte[] expected = new byte[one.size() + 1];
                expected[0] = 0x5A;
                System.arraycopy(one.array(), 0, expected, 1, one.size());
                assertArrayEquals(expected, range.toByteArray(), name + " rows " + from + ".." + (from + length) + " of " + n);
            }
        }
    }

    private static Object value(Random rnd, String type) {
        switch (type) {
            case "UInt8": return (long) rnd.nextInt(256);
            case "Int16": return (long) (short) rnd.nextInt();
            case "UInt32": return rnd.nextInt() & 0xFFFFFFFFL;
            case "Date": return (long) rnd.nextInt(65536);
            case "DateTime": return rnd.nextInt() & 0xFFFFFFFFL;
            case "Enum8('a' = -1, 'b' = 2)": return rnd.nextBoolean() ? -1L : 2L;
            case "Float32": return (double) rnd.nextFloat();
            case "Float64": return rnd.nextDouble();
            case "String":
            case "Nullable(String)":
                if (type.startsWith("Nullable") && rnd.nextInt(5) == 0) {
                    return null;
                }
                int len = new int[] {0, 1, 127, 128, 300, 20000}[rnd.nextInt(6)];
                return "x".repeat(len);
            default: return rnd.nextLong();
        }
    }
}
