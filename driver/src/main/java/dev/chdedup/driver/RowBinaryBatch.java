package dev.chdedup.driver;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One PreparedStatement batch recorded as a ClickHouse {@code RowBinary} body: a growable byte buffer that values are
 * encoded straight into, little-endian, as {@code WriteHelpers.h} writes them. Invariants: {@code bytes[0, size)} is
 * exactly {@code rows} complete rows (a row that failed half-way is cut back to where it began by {@link #rollback}), and
 * the buffer is what the request body is written from, so a re-send is byte-identical and memory is the body's size plus
 * the growth slack (at most half of it). Not thread-safe, as a JDBC statement is not.
 */
final class RowBinaryBatch {
    private static final int MAX_SIZE = Integer.MAX_VALUE - 64;
    private byte[] bytes;
    private int size;
    private int rows;
    private int rowStart;

    RowBinaryBatch(int initialCapacity) {
        this.bytes = new byte[Math.max(64, initialCapacity)];
    }

    int size() {
        return size;
    }

    int rows() {
        return rows;
    }

    /** The recorded body; valid in {@code [0, size())} until the batch is written to again. */
    byte[] array() {
        return bytes;
    }

    /** Marks where the next row starts, so that a failed row can be cut away. */
    void beginRow() {
        rowStart = size;
    }

    void endRow() {
        rows++;
    }

    /** Cuts away the row begun last (its values failed to encode). */
    void rollback() {
        size = rowStart;
    }

    /** Empties the batch, keeping its buffer when it is small (a statement reused for batch after batch). */
    void clear() {
        size = 0;
        rows = 0;
        rowStart = 0;
        if (bytes.length > (1 << 20)) {
            bytes = new byte[64 << 10];
        }
    }

    private void ensure(int more) {
        int need = size + more;
        if (need < 0 || need > MAX_SIZE) {
            throw new IllegalStateException("The batch exceeds " + MAX_SIZE + " bytes of RowBinary; execute it in smaller batches");
        }
        if (need > bytes.length) {
            int grown = (int) Math.min(MAX_SIZE, Math.max(need, (long) bytes.length + (bytes.length >> 1)));
            bytes = Arrays.copyOf(bytes, grown);
        }
    }

    void writeByte(int v) {
        ensure(1);
        bytes[size++] = (byte) v;
    }

    void writeShort(int v) {
        ensure(2);
        bytes[size++] = (byte) v;
        bytes[size++] = (byte) (v >>> 8);
    }

    void writeInt(int v) {
        ensure(4);
        bytes[size++] = (byte) v;
        bytes[size++] = (byte) (v >>> 8);
        bytes[size++] = (byte) (v >>> 16);
        bytes[size++] = (byte) (v >>> 24);
    }

    void writeLong(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) (v >>> (i * 8));
        }
    }

    /** {@code v} as a little-endian two's complement integer of {@code width} bytes (sign-extended). */
    void writeBigInteger(java.math.BigInteger v, int width) {
        byte[] be = v.toByteArray();
        ensure(width);
        byte fill = (byte) (v.signum() < 0 ? 0xff : 0);
        for (int i = 0; i < width; i++) {
            int src = be.length - 1 - i;
            bytes[size++] = src >= 0 ? be[src] : fill;
        }
    }

    /** ClickHouse's {@code writeVarUInt}: 7 bits a byte, low bits first. */
    void writeVarUInt(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
    }

    void writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    void writeZeros(int n) {
        ensure(n);
        Arrays.fill(bytes, size, size + n, (byte) 0);
        size += n;
    }

    /** A String column's value: its UTF-8 length as a varint, then the UTF-8 bytes, encoded in place (no copy). */
    void writeString(CharSequence s) {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            writeVarUInt(n);
            ensure(n);
            if (s instanceof String) {
                ((String) s).getBytes(0, n, bytes, size);
            } else {
                for (int i = 0; i < n; i++) {
                    bytes[size + i] = (byte) s.charAt(i);
                }
            }
            size += n;
            return;
        }
        byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
        writeVarUInt(utf8.length);
        writeBytes(utf8, 0, utf8.length);
    }
}
