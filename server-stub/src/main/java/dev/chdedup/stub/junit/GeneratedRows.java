package dev.chdedup.stub.junit;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongFunction;

/**
 * Insert bodies of any size made as they are read, so a test or a benchmark can send millions of rows without
 * holding them: line {@code i} (0-based) of {@code rows} is what {@code line} returns for it, a line feed added.
 */
public final class GeneratedRows {
    private GeneratedRows() {
    }

    public static InputStream lines(long rows, LongFunction<String> line) {
        return new InputStream() {
            private long next;
            private byte[] current = new byte[0];
            private int pos;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                int n = 0;
                while (n < len) {
                    if (pos == current.length) {
                        if (next == rows) {
                            return n == 0 ? -1 : n;
                        }
                        current = (line.apply(next++) + "\n").getBytes(StandardCharsets.UTF_8);
                        pos = 0;
                    }
                    int k = Math.min(len - n, current.length - pos);
                    System.arraycopy(current, pos, b, off + n, k);
                    pos += k;
                    n += k;
                }
                return n;
            }
        };
    }
}
