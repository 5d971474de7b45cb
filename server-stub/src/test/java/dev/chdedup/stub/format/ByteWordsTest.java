package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The text readers' eight-bytes-at-a-time scans against loops over the bytes: digits must count and read as the loop
 * does, for every byte after them, and the search for a TabSeparated field's end must stop where the loop stops.
 */
class ByteWordsTest {
    @Test
    void countsAndReadsAsALoopOverTheBytes() {
        Random rnd = new Random(20261205);
        byte[] b = new byte[8];
        for (int round = 0; round < 2_000_000; round++) {
            int digits = rnd.nextInt(9);
            for (int i = 0; i < 8; i++) {
                // digits, then any byte: the ones next to '0' and '9', tab, newline, bytes above 0x7F, random ones
                b[i] = i < digits ? (byte) ('0' + rnd.nextInt(10))
                    : switch (rnd.nextInt(6)) {
                        case 0 -> (byte) '/';
                        case 1 -> (byte) ':';
                        case 2 -> (byte) '\t';
                        case 3 -> (byte) (0xB0 + rnd.nextInt(10)); // '0'..'9' with the high bit set
                        case 4 -> (byte) ('0' + rnd.nextInt(10));
                        default -> (byte) rnd.nextInt(256);
                    };
            }
            int n = 0;
            long x = 0;
            while (n < 8 && b[n] >= '0' && b[n] <= '9') {
                x = x * 10 + (b[n] - '0');
                n++;
            }
            long w = ByteWords.word(b, 0);
            assertEquals(n, ByteWords.leadingDigits(w), java.util.Arrays.toString(b));
            if (n > 0) {
                assertEquals(x, ByteWords.digits(w, n), java.util.Arrays.toString(b));
            }
        }
    }

    @Test
    void theEndOfAFieldIsFoundWhereALoopFindsIt() {
        Random rnd = new Random(20261206);
        byte[] pool = {'a', 'z', '0', '\t', '\n', '\\', 0x08, (byte) 0x8A, (byte) 0x89, (byte) 0xDC, 0x5D, 0x0B, 0x1D};
        for (int round = 0; round < 300_000; round++) {
            byte[] b = new byte[rnd.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                b[i] = rnd.nextInt(4) == 0 ? pool[rnd.nextInt(pool.length)] : (byte) ('a' + rnd.nextInt(26));
            }
            int from = b.length == 0 ? 0 : rnd.nextInt(b.length);
            int lim = from + (b.length == from ? 0 : rnd.nextInt(b.length - from + 1));
            int i = from;
            while (i < lim && b[i] != '\t' && b[i] != '\n' && b[i] != '\\') {
                i++;
            }
            assertEquals(i, TsvReader.skipPlain(b, from, lim), java.util.Arrays.toString(b) + " from " + from + " to " + lim);
        }
    }
}
