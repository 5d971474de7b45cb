package dev.chdedup.stub.compress;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Reads data in ClickHouse's native compressed-block framing, as a client sends a request
 * body with the HTTP parameter {@code decompress=1}. It is responsible for parsing each
 * block header (see {@link BlockFormat}), enforcing size limits, verifying the CityHash128
 * v1.0.2 checksum, and decoding the payload for method 0x82 (LZ4) or 0x02 (stored
 * uncompressed); anything wrong with the input surfaces as a
 * {@link CorruptedDataException}. End of the underlying stream exactly at a block boundary
 * is a clean end of data; end of stream anywhere inside a block is an error.
 * Instances are not thread-safe.
 */
public final class CompressedBlockInputStream extends InputStream {

    /** Largest accepted compressed or uncompressed block size: 1 GiB, as in ClickHouse. */
    public static final long MAX_BLOCK_SIZE = 1L << 30;

    private static final LZ4SafeDecompressor DECOMPRESSOR =
            LZ4Factory.fastestInstance().safeDecompressor();
    private static final int INITIAL_FRAME_SIZE = 64 * 1024;

    private final InputStream in;
    private final byte[] checksum = new byte[BlockFormat.CHECKSUM_SIZE];
    /** Header (9 bytes) followed by the payload of the current block: the checksummed bytes. */
    private byte[] frame = new byte[0];
    /** Decompressed data of the current LZ4 block (reused between blocks). */
    private byte[] decoded = new byte[0];
    /** Where the readable bytes of the current block live: {@link #frame} or {@link #decoded}. */
    private byte[] data = new byte[0];
    private int pos;
    private int limit;
    private long blockOffset;
    private boolean eof;
    private boolean closed;

    public CompressedBlockInputStream(InputStream in) {
        this.in = Objects.requireNonNull(in, "in");
    }

    @Override
    public int read() throws IOException {
        if (!ensureData()) {
            return -1;
        }
        return data[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            ensureOpen();
            return 0;
        }
        if (!ensureData()) {
            return -1;
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(data, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Returns the number of decoded bytes left in the current block. */
    @Override
    public int available() throws IOException {
        ensureOpen();
        return limit - pos;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        frame = decoded = data = null;
        pos = limit = 0;
        in.close();
    }

    /** Makes sure there is at least one unread byte; returns false at clean end of stream. */
    private boolean ensureData() throws IOException {
        ensureOpen();
        while (pos == limit) {
            if (eof || !readBlock()) {
                eof = true;
                return false;
            }
        }
        return true;
    }

    /** Reads, verifies and decodes the next block; returns false on EOF at a block boundary. */
    private boolean readBlock() throws IOException {
        int got = readUpTo(checksum, 0, BlockFormat.CHECKSUM_SIZE);
        if (got == 0) {
            return false;
        }
        if (got < BlockFormat.CHECKSUM_SIZE) {
            throw truncated("checksum", BlockFormat.CHECKSUM_SIZE, got);
        }
        if (frame.length < BlockFormat.HEADER_SIZE) {
            frame = new byte[INITIAL_FRAME_SIZE];
        }
        got = readUpTo(frame, 0, BlockFormat.HEADER_SIZE);
        if (got < BlockFormat.HEADER_SIZE) {
            throw truncated("header", BlockFormat.HEADER_SIZE, got);
        }
        int method = frame[0] & 0xff;
        long compressedSize = BlockFormat.getUInt32LE(frame, 1);
        long uncompressedSize = BlockFormat.getUInt32LE(frame, 5);
        if (compressedSize < BlockFormat.HEADER_SIZE) {
            throw corrupted("compressed size " + compressedSize
                    + " is smaller than the " + BlockFormat.HEADER_SIZE + "-byte header");
        }
        if (compressedSize > MAX_BLOCK_SIZE || uncompressedSize > MAX_BLOCK_SIZE) {
            throw corrupted("block sizes too large (compressed " + compressedSize + ", uncompressed "
                    + uncompressedSize + ", limit " + MAX_BLOCK_SIZE + ")");
        }
        readPayload((int) compressedSize);
        verifyChecksum((int) compressedSize);

        int payloadSize = (int) compressedSize - BlockFormat.HEADER_SIZE;
        switch (method) {
            case BlockFormat.METHOD_LZ4:
                decodeLz4(payloadSize, (int) uncompressedSize);
                break;
            case BlockFormat.METHOD_NONE:
                if (payloadSize != uncompressedSize) {
                    throw corrupted("uncompressed block declares " + uncompressedSize
                            + " bytes but carries " + payloadSize);
                }
                data = frame;
                pos = BlockFormat.HEADER_SIZE;
                limit = (int) compressedSize;
                break;
            default:
                throw corrupted(String.format("unknown compression method 0x%02x "
                        + "(supported: 0x82 LZ4, 0x02 none)", method));
        }
        blockOffset += BlockFormat.CHECKSUM_SIZE + compressedSize;
        return true;
    }

    /**
     * Reads the payload into {@link #frame} after the header. The buffer is grown as bytes
     * actually arrive, so a lying size in a truncated stream cannot force a huge allocation.
     */
    private void readPayload(int frameSize) throws IOException {
        int filled = BlockFormat.HEADER_SIZE;
        while (filled < frameSize) {
            if (filled == frame.length) {
                long grown = Math.min((long) frame.length * 2, frameSize);
                byte[] bigger = new byte[(int) grown];
                System.arraycopy(frame, 0, bigger, 0, filled);
                frame = bigger;
            }
            int n = in.read(frame, filled, Math.min(frame.length, frameSize) - filled);
            if (n < 0) {
                throw truncated("payload", frameSize - BlockFormat.HEADER_SIZE,
                        filled - BlockFormat.HEADER_SIZE);
            }
            filled += n;
        }
    }

    private void verifyChecksum(int frameSize) throws CorruptedDataException {
        long[] actual = CityHash128.hash128(frame, 0, frameSize);
        long expectedLow = BlockFormat.getLongLE(checksum, 0);
        long expectedHigh = BlockFormat.getLongLE(checksum, 8);
        if (actual[0] != expectedLow || actual[1] != expectedHigh) {
            throw corrupted(String.format("checksum mismatch: block says %016x%016x, "
                    + "data hashes to %016x%016x (low, high; %d bytes hashed)",
                    expectedLow, expectedHigh, actual[0], actual[1], frameSize));
        }
    }

    private void decodeLz4(int payloadSize, int uncompressedSize) throws CorruptedDataException {
        if (decoded.length < uncompressedSize) {
            decoded = new byte[uncompressedSize];
        }
        int n;
        try {
            n = DECOMPRESSOR.decompress(frame, BlockFormat.HEADER_SIZE, payloadSize,
                    decoded, 0, uncompressedSize);
        } catch (LZ4Exception e) {
            throw corrupted("malformed LZ4 data: " + e.getMessage(), e);
        }
        if (n != uncompressedSize) {
            throw corrupted("LZ4 data decompressed to " + n + " bytes, header declares "
                    + uncompressedSize);
        }
        data = decoded;
        pos = 0;
        limit = uncompressedSize;
    }

    /** Reads until {@code len} bytes or EOF; returns how many were read. */
    private int readUpTo(byte[] b, int off, int len) throws IOException {
        int total = 0;
        while (total < len) {
            int n = in.read(b, off + total, len - total);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    private CorruptedDataException truncated(String part, long expected, long got) {
        return corrupted("truncated block: end of stream after " + got + " of " + expected
                + " bytes of the " + part);
    }

    private CorruptedDataException corrupted(String message) {
        return corrupted(message, null);
    }

    private CorruptedDataException corrupted(String message, Throwable cause) {
        return new CorruptedDataException("Corrupted compressed block at offset " + blockOffset
                + ": " + message, cause);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }
}
