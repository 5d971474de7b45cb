package dev.chdedup.stub.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tests {@link CompressedBlockOutputStream} and {@link CompressedBlockInputStream}: the
 * exact bytes of a block captured from a real server, round trips around the block-size
 * boundary, and rejection of corrupted, truncated and unsupported input.
 */
class CompressedBlockStreamsTest {

    private static final int MIB = 1 << 20;

    @Test
    void oneLineBodyMatchesServerCaptureByteForByte() throws IOException {
        byte[] out = compress("1\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals("de79cf087fb635049db816df195b016b" + "82" + "0c000000" + "02000000" + "20310a",
                HexFormat.of().formatHex(out));
        assertArrayEquals("1\n".getBytes(StandardCharsets.US_ASCII), decompress(out));
    }

    @Test
    void writingNothingProducesNoBytes() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        CompressedBlockOutputStream out = new CompressedBlockOutputStream(sink);
        out.flush();
        out.write(new byte[0]);
        out.flush();
        out.close();
        assertEquals(0, sink.size());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, MIB - 1, MIB, MIB + 1, 3 * MIB})
    void roundTripsRandomData(int size) throws IOException {
        byte[] data = testData(size, size);
        byte[] compressed = compress(data);

        List<Integer> blocks = uncompressedBlockSizes(compressed);
        assertEquals((size + MIB - 1) / MIB, blocks.size(), "number of blocks");
        assertEquals(size, blocks.stream().mapToInt(Integer::intValue).sum());
        assertTrue(blocks.stream().allMatch(s -> s > 0 && s <= MIB), blocks::toString);

        assertArrayEquals(data, decompress(compressed));
        assertArrayEquals(data, decompressByteByByte(compressed));
    }

    @Test
    void chunkingOfWritesDoesNotChangeTheOutput() throws IOException {
        byte[] data = testData(MIB + 12345, 1);
        byte[] oneWrite = compress(data);

        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (CompressedBlockOutputStream out = new CompressedBlockOutputStream(sink)) {
            Random random = new Random(3);
            int pos = 0;
            while (pos < data.length) {
                if (random.nextInt(4) == 0) {
                    out.write(data[pos++]);
                } else {
                    int n = Math.min(data.length - pos, random.nextInt(100_000));
                    out.write(data, pos, n);
                    pos += n;
                }
            }
        }
        assertArrayEquals(oneWrite, sink.toByteArray());
    }

    @Test
    void flushEmitsTheBufferedDataAsABlock() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        CompressedBlockOutputStream out = new CompressedBlockOutputStream(sink);
        out.write("abc".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        int afterFirst = sink.size();
        assertTrue(afterFirst > 25);
        out.flush();
        assertEquals(afterFirst, sink.size(), "flush with nothing buffered writes nothing");
        out.write("def".getBytes(StandardCharsets.US_ASCII));
        out.close();
        assertEquals(List.of(3, 3), uncompressedBlockSizes(sink.toByteArray()));
        assertEquals("abcdef", new String(decompress(sink.toByteArray()), StandardCharsets.US_ASCII));
    }

    @Test
    void closeClosesTheUnderlyingStreams() throws IOException {
        boolean[] closed = new boolean[2];
        ByteArrayOutputStream sink = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        CompressedBlockOutputStream out = new CompressedBlockOutputStream(sink);
        out.write(1);
        out.close();
        out.close();
        assertTrue(closed[0]);
        assertThrows(IOException.class, () -> out.write(2));

        InputStream source = new ByteArrayInputStream(sink.toByteArray()) {
            @Override
            public void close() {
                closed[1] = true;
            }
        };
        CompressedBlockInputStream in = new CompressedBlockInputStream(source);
        assertEquals(1, in.read());
        in.close();
        assertTrue(closed[1]);
        assertThrows(IOException.class, in::read);
    }

    @Test
    void readsUncompressedMethodBlocks() throws IOException {
        byte[] first = "hello, ".getBytes(StandardCharsets.US_ASCII);
        byte[] second = "world".getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.write(block(BlockFormat.METHOD_NONE, first, first.length));
        stream.write(block(BlockFormat.METHOD_NONE, new byte[0], 0));
        stream.write(compress(second));
        assertEquals("hello, world", new String(decompress(stream.toByteArray()), StandardCharsets.US_ASCII));
    }

    @Test
    void rejectsUncompressedBlockWithInconsistentSizes() {
        byte[] bad = block(BlockFormat.METHOD_NONE, new byte[10], 11);
        assertCorrupted(bad, "declares 11");
    }

    @Test
    void rejectsCorruptedChecksum() throws IOException {
        byte[] data = compress(testData(5000, 2));
        data[3] ^= 0x01;
        assertCorrupted(data, "checksum mismatch");
    }

    @Test
    void rejectsCorruptedPayload() throws IOException {
        byte[] data = compress(testData(5000, 2));
        data[data.length - 10] ^= 0x40;
        assertCorrupted(data, "checksum mismatch");
    }

    @Test
    void rejectsTruncatedStreamAnywhereInsideABlock() throws IOException {
        byte[] first = compress("first block".getBytes(StandardCharsets.US_ASCII));
        byte[] second = compress("second".getBytes(StandardCharsets.US_ASCII));
        byte[] both = concat(first, second);
        for (int cut = 1; cut < both.length; cut++) {
            byte[] truncated = Arrays.copyOf(both, cut);
            if (cut == first.length) {
                assertEquals("first block", new String(decompress(truncated), StandardCharsets.US_ASCII));
            } else {
                assertCorrupted(truncated, "truncated block");
            }
        }
    }

    @Test
    void rejectsUnknownMethodWithValidChecksum() {
        byte[] zstd = block(0x90, new byte[] {1, 2, 3}, 3);
        assertCorrupted(zstd, "unknown compression method 0x90");
    }

    @Test
    void rejectsAlteredMethodByte() throws IOException {
        byte[] data = compress("x".getBytes(StandardCharsets.US_ASCII));
        data[16] = 0x05;
        assertThrows(CorruptedDataException.class, () -> decompress(data));
    }

    @Test
    void rejectsSizesOverTheLimitBeforeReadingThePayload() {
        byte[] header = new byte[25];
        header[16] = (byte) BlockFormat.METHOD_LZ4;
        BlockFormat.putIntLE(header, 17, 100);
        BlockFormat.putIntLE(header, 21, 0xffffffff);
        assertCorrupted(header, "too large");

        BlockFormat.putIntLE(header, 17, (1 << 30) + 1);
        BlockFormat.putIntLE(header, 21, 100);
        assertCorrupted(header, "too large");
    }

    @Test
    void rejectsCompressedSizeSmallerThanHeader() {
        byte[] header = new byte[25];
        header[16] = (byte) BlockFormat.METHOD_LZ4;
        BlockFormat.putIntLE(header, 17, 8);
        assertCorrupted(header, "smaller than");
    }

    @Test
    void rejectsMalformedLz4WithValidChecksum() throws IOException {
        // Valid framing and checksum, but the LZ4 sequence claims a match before any output.
        byte[] garbage = {0x0f, 0x01, 0x00};
        assertCorrupted(block(BlockFormat.METHOD_LZ4, garbage, 100), "LZ4");
        // A valid LZ4 payload whose header lies about the decompressed size.
        byte[] good = compress("abcdef".getBytes(StandardCharsets.US_ASCII));
        byte[] payload = Arrays.copyOfRange(good, 25, good.length);
        assertThrows(CorruptedDataException.class, () -> decompress(block(BlockFormat.METHOD_LZ4, payload, 7)));
    }

    @Test
    void emptyInputIsAnEmptyStream() throws IOException {
        try (CompressedBlockInputStream in = new CompressedBlockInputStream(new ByteArrayInputStream(new byte[0]))) {
            assertEquals(-1, in.read());
            assertEquals(-1, in.read(new byte[10], 0, 10));
            assertEquals(0, in.available());
        }
    }

    // ---- helpers ----

    private static void assertCorrupted(byte[] stream, String messagePart) {
        CorruptedDataException e = assertThrows(CorruptedDataException.class, () -> decompress(stream));
        assertTrue(e.getMessage().contains(messagePart), () -> "message was: " + e.getMessage());
    }

    /** Half random, half repetitive, so LZ4 has both literals and matches to encode. */
    private static byte[] testData(int size, long seed) {
        byte[] data = new byte[size];
        Random random = new Random(seed);
        random.nextBytes(data);
        for (int i = 0; i + 64 <= size; i += 128) {
            Arrays.fill(data, i, i + 64, (byte) (i / 128));
        }
        return data;
    }

    private static byte[] compress(byte[] data) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (CompressedBlockOutputStream out = new CompressedBlockOutputStream(sink)) {
            out.write(data);
        }
        return sink.toByteArray();
    }

    private static byte[] decompress(byte[] stream) throws IOException {
        try (CompressedBlockInputStream in = new CompressedBlockInputStream(new ByteArrayInputStream(stream))) {
            return in.readAllBytes();
        }
    }

    private static byte[] decompressByteByByte(byte[] stream) throws IOException {
        ByteArrayOutputStream result = new ByteArrayOutputStream();
        try (CompressedBlockInputStream in = new CompressedBlockInputStream(new ByteArrayInputStream(stream))) {
            int b;
            while ((b = in.read()) >= 0) {
                result.write(b);
            }
        }
        return result.toByteArray();
    }

    /** Builds one framed block with a correct checksum around an arbitrary payload. */
    private static byte[] block(int method, byte[] payload, int uncompressedSize) {
        byte[] b = new byte[25 + payload.length];
        b[16] = (byte) method;
        BlockFormat.putIntLE(b, 17, 9 + payload.length);
        BlockFormat.putIntLE(b, 21, uncompressedSize);
        System.arraycopy(payload, 0, b, 25, payload.length);
        long[] h = CityHash128.hash128(b, 16, 9 + payload.length);
        BlockFormat.putLongLE(b, 0, h[0]);
        BlockFormat.putLongLE(b, 8, h[1]);
        return b;
    }

    /** Walks the framing and returns each block's declared uncompressed size. */
    private static List<Integer> uncompressedBlockSizes(byte[] stream) {
        List<Integer> sizes = new ArrayList<>();
        int pos = 0;
        while (pos < stream.length) {
            assertEquals(BlockFormat.METHOD_LZ4, stream[pos + 16] & 0xff);
            int compressed = (int) BlockFormat.getUInt32LE(stream, pos + 17);
            sizes.add((int) BlockFormat.getUInt32LE(stream, pos + 21));
            pos += 16 + compressed;
        }
        assertEquals(stream.length, pos);
        return sizes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
