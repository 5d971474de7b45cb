package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The contract of {@link ByteInput#more(int)}: a shift is reported, and the end of input moves nothing. */
class ByteInputTest {
    @Test
    void endOfInputLeavesTheKeptSpanInPlace() {
        ByteInput in = new ByteInput(new ByteArrayInputStream("1\t123456".getBytes(StandardCharsets.US_ASCII)));
        assertEquals('1', in.peek());
        assertEquals(8, in.lim);
        in.pos = 2;
        assertEquals(-1, in.more(2));
        assertEquals(2, in.pos);
        assertEquals(8, in.lim);
        assertEquals("123456", in.utf8(2, 8));
        assertEquals(-1, in.more(2));
        assertEquals("123456", in.utf8(2, 8));
    }

    @Test
    void aRefillReportsHowFarTheSpanMoved() {
        byte[] data = new byte[20000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + i % 26);
        }
        ByteInput in = new ByteInput(new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 3000));
            }
        });
        int start = 2500;
        int end = 2500;
        in.pos = 0;
        assertTrue(in.peek() >= 0);
        while (true) {
            if (end >= in.lim) {
                int sh = in.more(start);
                if (sh < 0) {
                    break;
                }
                start -= sh;
                end -= sh;
                continue;
            }
            end++;
        }
        assertEquals(20000 - 2500, end - start);
        for (int i = start; i < end; i++) {
            assertEquals(data[2500 + i - start], in.buf[i], "byte " + i);
        }
    }
}
