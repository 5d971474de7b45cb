package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RowBinary output bytes, header layouts and buffering of large results. */
class RowBinaryWriterTest {
    private static final List<Column> C = cols("id UInt64", "s Nullable(String)");

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void plainRows() throws IOException {
        byte[] out = FormatFixtures.write("RowBinary", C, List.of(new Object[] {258L, "ab"}, new Object[] {-1L, null}),
            null);
        assertArrayEquals(bytes(2, 1, 0, 0, 0, 0, 0, 0, 0, 2, 'a', 'b',
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1), out);
    }

    @Test
    void headers() throws IOException {
        List<Object[]> one = List.<Object[]>of(new Object[] {1L, null});
        byte[] names = FormatFixtures.write("RowBinaryWithNames", C, one, null);
        assertArrayEquals(bytes(2, 2, 'i', 'd', 1, 's', 1, 0, 0, 0, 0, 0, 0, 0, 1), names);
        byte[] types = FormatFixtures.write("RowBinaryWithNamesAndTypes", C, List.of(), null);
        byte[] expected = new byte[3 + 2 + 2 + 7 + 17];
        int k = 0;
        for (byte b : bytes(2, 2, 'i', 'd', 1, 's', 6)) {
            expected[k++] = b;
        }
        for (char ch : "UInt64".toCharArray()) {
            expected[k++] = (byte) ch;
        }
        expected[k++] = 16;
        for (char ch : "Nullable(String)".toCharArray()) {
            expected[k++] = (byte) ch;
        }
        assertArrayEquals(java.util.Arrays.copyOf(expected, k), types);
    }

    @Test
    void largeResultsAreWrittenWhole() throws IOException {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            rows.add(new Object[] {(long) i, "value-" + i});
        }
        byte[] out = FormatFixtures.write("RowBinary", C, rows, null);
        List<Object[]> back = FormatFixtures.read("RowBinary", out, C, null, null);
        assertEquals(50_000, back.size());
        assertEquals("value-49999", back.get(49_999)[1]);
    }
}
