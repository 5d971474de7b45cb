package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every text input format, with and without a final line feed, with fields shorter and longer than the read
 * buffer and fields that straddle buffer refills, over streams that hand out the input whole, one byte per
 * read or in odd chunks: the rows read must be exactly the rows written (the last field of an input without a
 * trailing newline used to come back garbled, because a refill at the end moved the buffer under the reader).
 */
class TextInputRefillTest {
    private static final List<Column> NUM_LAST = cols("a Int32", "s String", "b Int32");
    private static final List<Column> STR_LAST = cols("a Int32", "b Int32", "s String");
    private static final String[] FORMATS = {"TSV", "TSVRaw", "TSVWithNames", "TSVWithNamesAndTypes",
        "TSVRawWithNames", "CSV", "CSVWithNames", "CSVWithNamesAndTypes", "TSKV", "JSONEachRow", "Values"};
    private static final int[] LENGTHS = {0, 11, 8180, 8192, 8200, 20000};
    private static final int[] CHUNKS = {Integer.MAX_VALUE, 1, 7, 8191};

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String f : FORMATS) {
            for (boolean newline : new boolean[] {false, true}) {
                for (boolean strLast : new boolean[] {false, true}) {
                    out.add(Arguments.of(f, newline, strLast));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} trailing newline {1} string last {2}")
    @MethodSource("cases")
    void lastFieldSurvivesEveryRefill(String format, boolean newline, boolean strLast) throws IOException {
        List<Column> c = strLast ? STR_LAST : NUM_LAST;
        Random rnd = new Random(format.hashCode() * 31L + (newline ? 1 : 0) + (strLast ? 2 : 0));
        for (int len : LENGTHS) {
            for (int n = 1; n <= 3; n += 2) {
                check(format, c, newline, len, rows(c, rnd, len, n));
            }
        }
    }

    /** {@code n} rows; the last one's last field is the longest, so a refill that moves it garbles it. */
    private static List<Object[]> rows(List<Column> c, Random rnd, int len, int n) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            rows.add(row(c, -i, text(rnd, 5), 7));
        }
        rows.add(row(c, 1, text(rnd, len), 123456));
        return rows;
    }

    private static void check(String format, List<Column> c, boolean newline, int len, List<Object[]> rows)
        throws IOException {
        byte[] data = encode(format, c, rows, newline);
        for (int chunk : CHUNKS) {
            RowReader r = Formats.openInput(format, new Chunked(data, chunk), c, FormatSettings.DEFAULTS, null);
            String where = format + " rows " + rows.size() + " len " + len + " chunk " + chunk;
            for (Object[] expected : rows) {
                assertArrayEquals(expected, r.next(), where);
            }
            assertEquals(null, r.next(), where);
        }
    }

    private static Object[] row(List<Column> c, long a, String s, long b) {
        return c == STR_LAST ? new Object[] {a, b, s} : new Object[] {a, s, b};
    }

    /** Letters, digits and spaces (inner spaces only: CSV trims unquoted fields); no byte any format escapes. */
    private static String text(Random rnd, int len) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            char ch = alphabet.charAt(rnd.nextInt(alphabet.length()));
            sb.append(ch == ' ' && (i == 0 || i == len - 1) ? 'q' : ch);
        }
        return sb.toString();
    }

    /** The rows as {@code format} writes them, with or without the line feed after the last row. */
    private static byte[] encode(String format, List<Column> c, List<Object[]> rows, boolean newline) throws IOException {
        byte[] data = FormatFixtures.write(format, c, rows, FormatSettings.DEFAULTS);
        String s = new String(data, StandardCharsets.UTF_8);
        if (format.equals("Values")) {
            s = s.replace("),(", "),\n(");
        }
        while (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1);
        }
        return (newline ? s + "\n" : s).getBytes(StandardCharsets.UTF_8);
    }

    /** An input stream that hands out at most {@code chunk} bytes per read, as a slow client does. */
    private static final class Chunked extends InputStream {
        private final ByteArrayInputStream in;
        private final int chunk;

        Chunked(byte[] data, int chunk) {
            this.in = new ByteArrayInputStream(data);
            this.chunk = chunk;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, Math.min(len, chunk));
        }
    }
}
