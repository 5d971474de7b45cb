package dev.chdedup.stub.compress;

/**
 * Layout constants and little-endian helpers for ClickHouse's native compressed-block
 * framing, shared by {@link CompressedBlockOutputStream} and
 * {@link CompressedBlockInputStream}. Each block is: a 16-byte CityHash128 v1.0.2
 * checksum (low 64 bits then high 64 bits, both little-endian) of everything after it;
 * a 1-byte method; a UInt32 LE compressed size that counts the 9 header bytes
 * (method + both sizes) plus the payload; a UInt32 LE uncompressed size; the payload.
 */
final class BlockFormat {

    /** Bytes of the CityHash128 checksum in front of every block. */
    static final int CHECKSUM_SIZE = 16;
    /** Method byte + compressed size + uncompressed size. */
    static final int HEADER_SIZE = 9;
    /** Checksum plus header: the fixed-size prefix of every block. */
    static final int PREFIX_SIZE = CHECKSUM_SIZE + HEADER_SIZE;

    /** Method byte for a raw LZ4 block payload. */
    static final int METHOD_LZ4 = 0x82;
    /** Method byte for an uncompressed payload. */
    static final int METHOD_NONE = 0x02;

    private BlockFormat() {
    }

    static void putIntLE(byte[] b, int pos, int v) {
        b[pos] = (byte) v;
        b[pos + 1] = (byte) (v >>> 8);
        b[pos + 2] = (byte) (v >>> 16);
        b[pos + 3] = (byte) (v >>> 24);
    }

    static long getUInt32LE(byte[] b, int pos) {
        return (b[pos] & 0xffL)
                | (b[pos + 1] & 0xffL) << 8
                | (b[pos + 2] & 0xffL) << 16
                | (b[pos + 3] & 0xffL) << 24;
    }

    static void putLongLE(byte[] b, int pos, long v) {
        for (int i = 0; i < 8; i++) {
            b[pos + i] = (byte) (v >>> (8 * i));
        }
    }

    static long getLongLE(byte[] b, int pos) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[pos + i] & 0xffL);
        }
        return v;
    }
}
