package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The chunked framing on its own: whatever the mix of write sizes, the wire is a valid chunked body of the bytes
 * written, no chunk is larger than the bound but for a single write of at least the bound, and a gathered chunk
 * reaches the connection as one write call (size line, data and CRLF together).
 */
class ResponseFramingTest {

    /** The connection's side: every write call's bytes. */
    private static final class Calls extends OutputStream {
        final List<byte[]> calls = new ArrayList<>();
        final ByteArrayOutputStream all = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            calls.add(java.util.Arrays.copyOfRange(b, off, off + len));
            all.write(b, off, len);
        }
    }

    /** Decodes a chunked body ending with the last chunk; returns its data and adds each chunk's size to {@code sizes}. */
    private static byte[] decode(byte[] wire, List<Integer> sizes) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        int p = 0;
        while (true) {
            int lineEnd = p;
            while (wire[lineEnd] != '\r') {
                lineEnd++;
            }
            int size = Integer.parseInt(new String(wire, p, lineEnd - p, StandardCharsets.US_ASCII), 16);
            assertEquals('\n', wire[lineEnd + 1]);
            p = lineEnd + 2;
            if (size == 0) {
                assertEquals('\r', wire[p]);
                assertEquals('\n', wire[p + 1]);
                assertEquals(wire.length, p + 2, "nothing after the last chunk");
                return data.toByteArray();
            }
            sizes.add(size);
            data.write(wire, p, size);
            p += size;
            assertEquals('\r', wire[p]);
            assertEquals('\n', wire[p + 1]);
            p += 2;
        }
    }

    @Test
    void randomWriteSizesGiveTheBytesInBoundedChunks() throws IOException {
        Random rnd = new Random(7);
        for (int round = 0; round < 300; round++) {
            int chunk = 1 + rnd.nextInt(round % 3 == 0 ? 8 : 300);
            Calls conn = new Calls();
            ResponseFraming.Chunked f = new ResponseFraming.Chunked(conn, chunk);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            int writes = rnd.nextInt(40);
            int largest = chunk;
            for (int w = 0; w < writes; w++) {
                int kind = rnd.nextInt(4);
                if (kind == 0) {
                    int b = rnd.nextInt(256);
                    f.write(b);
                    expected.write(b);
                } else {
                    byte[] b = new byte[kind == 3 ? chunk + rnd.nextInt(2 * chunk + 1) : rnd.nextInt(chunk + 1)];
                    rnd.nextBytes(b);
                    int off = b.length == 0 ? 0 : rnd.nextInt(b.length);
                    f.write(b, off, b.length - off);
                    expected.write(b, off, b.length - off);
                    largest = Math.max(largest, b.length - off);
                }
                if (rnd.nextInt(10) == 0) {
                    f.flush();
                }
            }
            f.finish();
            List<Integer> sizes = new ArrayList<>();
            assertArrayEquals(expected.toByteArray(), decode(conn.all.toByteArray(), sizes), "round " + round);
            assertEquals(expected.size(), f.written());
            for (int s : sizes) {
                assertTrue(s > 0, "an empty chunk would end the body");
                assertTrue(s <= largest, "chunk of " + s + " with a bound of " + chunk);
            }
        }
    }

    @Test
    void aGatheredChunkIsOneWriteCall() throws IOException {
        Calls conn = new Calls();
        ResponseFraming.Chunked f = new ResponseFraming.Chunked(conn, 1000);
        byte[] piece = new byte[100];
        new Random(3).nextBytes(piece);
        for (int i = 0; i < 35; i++) {
            f.write(piece, 0, piece.length);
        }
        f.finish();
        // three full chunks and a half one, each a call, then the last chunk
        assertEquals(5, conn.calls.size());
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sizes.clear();
            byte[] call = conn.calls.get(i);
            byte[] withEnd = java.util.Arrays.copyOf(call, call.length + 5);
            System.arraycopy("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0, withEnd, call.length, 5);
            decode(withEnd, sizes);
            assertEquals(List.of(i < 3 ? 1000 : 500), sizes);
        }
        assertEquals("0\r\n\r\n", new String(conn.calls.get(4), StandardCharsets.US_ASCII));
    }
}
