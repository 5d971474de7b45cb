package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A columnar block written by a format's column path comes out byte for byte as its rows written one by one (the
 * row path, which the format's own tests hold to ClickHouse's bytes): integers at their extremes, UInt64 above 2^63,
 * DateTime in zones with daylight saving and before 1970, strings of every byte, NULLs.
 */
class ColumnOutputTest {
    private static final List<Column> HEADER = cols("i8 Int8", "i64 Int64", "u64 UInt64", "u32 UInt32", "t DateTime('UTC')",
        "tz DateTime('America/New_York')", "ist DateTime('Asia/Kolkata')", "s String", "n Nullable(Int32)", "d Date", "e Enum8('a' = 1, 'b' = -2)");

    @Test
    void textFormatsWriteColumnsAsTheyWriteRows() throws IOException {
        Random rnd = new Random(20261202);
        for (int round = 0; round < 20; round++) {
            int n = 1 + rnd.nextInt(300);
            List<Object[]> rows = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                rows.add(randomRow(rnd));
            }
            IColumn[] columns = new IColumn[HEADER.size()];
            for (int c = 0; c < columns.length; c++) {
                List<Object> values = new ArrayList<>();
                for (Object[] row : rows) {
                    values.add(row[c]);
                }
                columns[c] = Columns.of(HEADER.get(c).type(), values);
            }
            for (String format : List.of("TabSeparated", "TabSeparatedRaw", "TabSeparatedWithNamesAndTypes", "RowBinary")) {
                assertArrayEquals(write(format, rows, null), write(format, null, columns), format + ", round " + round);
            }
        }
    }

    private static byte[] write(String format, List<Object[]> rows, IColumn[] columns) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = Formats.openOutput(format, out, HEADER, null);
        if (rows != null) {
            for (Object[] r : rows) {
                w.writeRow(r);
            }
        } else {
            w.writeColumns(columns, columns[0].size());
        }
        w.finish();
        return out.toByteArray();
    }

    private static Object[] randomRow(Random rnd) {
        long[] longs = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 9, 10, -10, 99, 100, 1L << 40, -(1L << 40)};
        long time = switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextInt(Integer.MAX_VALUE) & 0xFFFFFFFFL;
            case 1 -> 1710054000L + rnd.nextInt(7200) - 3600; // New York's spring forward of 2024
            case 2 -> 1730613600L + rnd.nextInt(7200) - 3600; // and its fall back
            default -> rnd.nextInt(86400 * 3);
        };
        StringBuilder s = new StringBuilder();
        for (int k = rnd.nextInt(12); k > 0; k--) {
            s.append((char) (rnd.nextBoolean() ? rnd.nextInt(256) : "\t\n\\'\r\b\f\0ab".charAt(rnd.nextInt(10))));
        }
        return new Object[] {
            (long) (byte) rnd.nextInt(),
            longs[rnd.nextInt(longs.length)],
            rnd.nextBoolean() ? rnd.nextLong() : longs[rnd.nextInt(longs.length)],
            rnd.nextInt() & 0xFFFFFFFFL,
            time, time, time,
            s.toString(),
            rnd.nextInt(4) == 0 ? null : (Object) (long) rnd.nextInt(),
            (long) rnd.nextInt(65536),
            rnd.nextBoolean() ? 1L : -2L,
        };
    }

    @Test
    void aColumnRowsViewIsTheRows() {
        IColumn[] c = {Columns.of(HEADER.get(0).type(), List.of(1L, 2L))};
        assertArrayEquals(new Object[] {2L}, new ColumnRows(c, 2).get(1));
    }
}
