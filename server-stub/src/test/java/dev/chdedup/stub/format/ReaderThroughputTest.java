package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Prints how fast the RowBinary and TabSeparated readers parse 1M rows of (UInt64, String, DateTime) from
 * memory. Informational only: the figures are printed, not asserted, so a slow CI machine cannot fail it.
 */
class ReaderThroughputTest {
    private static final int ROWS = 1_000_000;
    private static final List<Column> C = FormatFixtures.cols("id UInt64", "name String", "ts DateTime");

    private static byte[] data(String format) throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream(ROWS * 40);
        RowWriter w = Formats.openOutput(format, bo, C, null);
        Object[] row = new Object[3];
        for (int i = 0; i < ROWS; i++) {
            row[0] = (long) i * 7919;
            row[1] = "user-" + i;
            row[2] = 1700000000L + i;
            w.writeRow(row);
        }
        w.finish();
        return bo.toByteArray();
    }

    private static double readRowsPerSecond(String format, byte[] data) throws IOException {
        double best = 0;
        for (int round = 0; round < 4; round++) {
            long t0 = System.nanoTime();
            RowReader r = Formats.openInput(format, new ByteArrayInputStream(data), C, null, null);
            int n = 0;
            long check = 0;
            for (Object[] row = r.next(); row != null; row = r.next()) {
                n++;
                check += (Long) row[2];
            }
            long dt = System.nanoTime() - t0;
            assertEquals(ROWS, n);
            assertEquals(1700000000L * ROWS + (long) ROWS * (ROWS - 1) / 2, check);
            best = Math.max(best, ROWS / (dt / 1e9));
        }
        return best;
    }

    @Test
    void printThroughput() throws IOException {
        for (String f : List.of("RowBinary", "TabSeparated")) {
            byte[] d = data(f);
            double rps = readRowsPerSecond(f, d);
            System.out.printf("[throughput] %s reader: %.2f M rows/s (%d bytes for %d rows of UInt64, String, "
                + "DateTime)%n", f, rps / 1e6, d.length, ROWS);
        }
    }
}
