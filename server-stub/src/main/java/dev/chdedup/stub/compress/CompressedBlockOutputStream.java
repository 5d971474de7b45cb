package dev.chdedup.stub.compress;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Writes data in ClickHouse's native compressed-block framing with LZ4 (method 0x82),
 * as ClickHouse sends a response body when the HTTP request has {@code compress=1}. It is
 * responsible for cutting the written bytes into blocks of at most
 * {@link #MAX_BLOCK_SIZE} uncompressed bytes, LZ4-compressing each block, and prefixing it
 * with the 9-byte header and the CityHash128 v1.0.2 checksum (see {@link BlockFormat}).
 * A block is emitted when the buffer fills, on {@link #flush()} (if anything is buffered)
 * and on {@link #close()}; a stream to which nothing was written produces no bytes at all.
 * Instances are not thread-safe.
 */
public final class CompressedBlockOutputStream extends OutputStream {

    /** Maximum uncompressed size of one block: 1 MiB, as ClickHouse uses by default. */
    public static final int MAX_BLOCK_SIZE = 1 << 20;

    private static final int INITIAL_BUFFER_SIZE = 64 * 1024;
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();

    private final OutputStream out;
    /** Pending uncompressed bytes; grows on demand up to MAX_BLOCK_SIZE. */
    private byte[] buffer = new byte[0];
    private int count;
    /** Scratch for checksum + header + compressed payload of one block. */
    private byte[] frame = new byte[0];
    private boolean closed;

    public CompressedBlockOutputStream(OutputStream out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (count == buffer.length) {
            grow(count + 1);
        }
        buffer[count++] = (byte) b;
        if (count == MAX_BLOCK_SIZE) {
            flushBuffer();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            if (count == 0 && len >= MAX_BLOCK_SIZE) {
                // A whole block is available in the caller's array: compress it in place.
                writeBlock(b, off, MAX_BLOCK_SIZE);
                off += MAX_BLOCK_SIZE;
                len -= MAX_BLOCK_SIZE;
                continue;
            }
            int n = Math.min(len, MAX_BLOCK_SIZE - count);
            if (count + n > buffer.length) {
                grow(count + n);
            }
            System.arraycopy(b, off, buffer, count, n);
            count += n;
            off += n;
            len -= n;
            if (count == MAX_BLOCK_SIZE) {
                flushBuffer();
            }
        }
    }

    /**
     * Emits the buffered bytes (if any) as one block and flushes the underlying stream.
     * Does nothing once the stream is closed.
     */
    @Override
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        flushBuffer();
        out.flush();
    }

    /** Emits the buffered bytes (if any) as a final block and closes the underlying stream. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            flushBuffer();
        } finally {
            buffer = null;
            frame = null;
            out.close();
        }
    }

    private void flushBuffer() throws IOException {
        if (count > 0) {
            writeBlock(buffer, 0, count);
            count = 0;
        }
    }

    private void writeBlock(byte[] src, int off, int len) throws IOException {
        int needed = BlockFormat.PREFIX_SIZE + COMPRESSOR.maxCompressedLength(len);
        if (frame.length < needed) {
            frame = new byte[needed];
        }
        int compressedLen = COMPRESSOR.compress(src, off, len, frame, BlockFormat.PREFIX_SIZE,
                frame.length - BlockFormat.PREFIX_SIZE);
        int h = BlockFormat.CHECKSUM_SIZE;
        frame[h] = (byte) BlockFormat.METHOD_LZ4;
        BlockFormat.putIntLE(frame, h + 1, BlockFormat.HEADER_SIZE + compressedLen);
        BlockFormat.putIntLE(frame, h + 5, len);
        long[] checksum = CityHash128.hash128(frame, h, BlockFormat.HEADER_SIZE + compressedLen);
        BlockFormat.putLongLE(frame, 0, checksum[0]);
        BlockFormat.putLongLE(frame, 8, checksum[1]);
        out.write(frame, 0, BlockFormat.PREFIX_SIZE + compressedLen);
    }

    private void grow(int minCapacity) {
        int newSize = Math.max(INITIAL_BUFFER_SIZE, buffer.length);
        while (newSize < minCapacity) {
            newSize <<= 1;
        }
        byte[] bigger = new byte[Math.min(newSize, MAX_BLOCK_SIZE)];
        System.arraycopy(buffer, 0, bigger, 0, count);
        buffer = bigger;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("Stream closed");
        }
    }
}
