package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.types.ByteStrings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The writer's fast paths against its plain ones: escaping a value's bytes eight at a time must give what escaping it
 * char by char gives, wherever in the value (and in its eight-byte words) the bytes to escape fall; numbers written two
 * digits at a time must read as {@link Long#toString} and {@link Long#toUnsignedString}.
 */
class ByteSinkTest {
    /** Every byte TabSeparated escapes, the quotes, their neighbours, and bytes above 0x7F that look like them. */
    private static final byte[] EDGES = {0, 1, 7, 8, 9, 10, 12, 13, 0x1F, 0x20, 0x21, '\'', '"', '=', '[', '\\', ']', 0x7F,
        (byte) 0x80, (byte) 0x9C, (byte) 0xA0, (byte) 0xA7, (byte) 0xDC, (byte) 0xFF, 'a', '0'};

    @Test
    void escapingBytesEightAtATimeGivesWhatEscapingCharsGives() throws IOException {
        Random rnd = new Random(20261203);
        for (int round = 0; round < 20_000; round++) {
            int n = rnd.nextInt(40);
            byte[] value = new byte[n];
            for (int i = 0; i < n; i++) {
                // mostly plain letters, as values are, with an edge byte here and there
                value[i] = rnd.nextInt(6) == 0 ? EDGES[rnd.nextInt(EDGES.length)] : (byte) ('a' + rnd.nextInt(26));
            }
            int pad = rnd.nextInt(9);
            byte[] inArray = new byte[pad + n + rnd.nextInt(9)];
            rnd.nextBytes(inArray);
            System.arraycopy(value, 0, inArray, pad, n);
            for (char quote : new char[] {'\'', '"', '='}) {
                ByteArrayOutputStream fast = new ByteArrayOutputStream();
                ByteSink f = new ByteSink(fast);
                f.writeEscaped(inArray, pad, n, quote);
                f.flush();
                ByteArrayOutputStream plain = new ByteArrayOutputStream();
                ByteSink p = new ByteSink(plain);
                p.writeEscaped(ByteStrings.of(value), quote);
                p.flush();
                assertArrayEquals(plain.toByteArray(), fast.toByteArray(), "quote " + quote + ", value " + java.util.Arrays.toString(value));
            }
        }
    }

    @Test
    void numbersAreWrittenAsJavaWritesThem() throws IOException {
        Random rnd = new Random(20261204);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteSink s = new ByteSink(out);
        StringBuilder expected = new StringBuilder();
        long[] edges = {0, 9, 10, 99, 100, 101, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE,
            Long.MIN_VALUE + 1, -1, -10, -100};
        for (long v : edges) {
            s.writeLong(v);
            s.write(' ');
            s.writeUnsignedLong(v);
            s.write('\n');
            expected.append(v).append(' ').append(Long.toUnsignedString(v)).append('\n');
        }
        for (int i = 0; i < 100_000; i++) {
            long v = rnd.nextLong() >> rnd.nextInt(64);
            s.writeLong(v);
            s.write(' ');
            s.writeUnsignedLong(v);
            s.write('\n');
            expected.append(v).append(' ').append(Long.toUnsignedString(v)).append('\n');
        }
        s.flush();
        assertEquals(expected.toString(), out.toString(StandardCharsets.US_ASCII));
    }
}
