package dev.chdedup.stub.compress;

/**
 * The hash ClickHouse's {@code HashingWriteBuffer} computes of a file as it is written, and stores in a part's
 * checksums.txt: the bytes in blocks of 2048 ({@code DBMS_DEFAULT_HASHING_BLOCK_SIZE}), each full block hashed with
 * CityHash128WithSeed (v1.0.2) seeded with the hash so far (at first 0, 0); the last, partial block the same way when
 * the hash is asked for.
 */
public final class HashingBuffer {
    /** ClickHouse's DBMS_DEFAULT_HASHING_BLOCK_SIZE. */
    public static final int BLOCK_SIZE = 2048;
    private final byte[] block = new byte[BLOCK_SIZE];
    private int blockPos;
    private long low;
    private long high;
    private long size;

    public void update(byte[] data, int off, int len) {
        size += len;
        if (blockPos + len < BLOCK_SIZE) {
            System.arraycopy(data, off, block, blockPos, len);
            blockPos += len;
            return;
        }
        if (blockPos > 0) {
            int n = BLOCK_SIZE - blockPos;
            System.arraycopy(data, off, block, blockPos, n);
            append(block, 0);
            off += n;
            len -= n;
            blockPos = 0;
        }
        while (len >= BLOCK_SIZE) {
            append(data, off);
            off += BLOCK_SIZE;
            len -= BLOCK_SIZE;
        }
        if (len > 0) {
            System.arraycopy(data, off, block, 0, len);
            blockPos = len;
        }
    }

    private void append(byte[] data, int off) {
        long[] h = CityHash128.hash128WithSeed(data, off, BLOCK_SIZE, low, high);
        low = h[0];
        high = h[1];
    }

    /** The hash of everything so far, {low64, high64}. */
    public long[] hash() {
        return blockPos > 0 ? CityHash128.hash128WithSeed(block, 0, blockPos, low, high) : new long[] {low, high};
    }

    /** How many bytes went through. */
    public long size() {
        return size;
    }

    /** The hash of {@code data[off, off + len)} as one file. */
    public static long[] of(byte[] data, int off, int len) {
        HashingBuffer h = new HashingBuffer();
        h.update(data, off, len);
        return h.hash();
    }
}
