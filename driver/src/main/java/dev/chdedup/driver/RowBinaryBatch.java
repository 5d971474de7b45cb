package dev.chdedup.driver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One PreparedStatement batch recorded as a ClickHouse {@code RowBinary} body: values are encoded straight into the
 * buffer the request body is written from, little-endian, as {@code WriteHelpers.h} writes them. The buffer is a list
 * of chunks of {@value #CHUNK} bytes (the last one may be smaller), so it grows without copying what is recorded and
 * holds at most one chunk more than the body. Invariants: the chunks' used bytes, in order, are exactly {@code rows}
 * complete rows (a row that failed half-way is cut back to where it began by {@link #rollback}); a fixed-width value
 * never spans two chunks (a chunk may end with a few unused bytes, which {@code used} leaves out). Not thread-safe, as
 * a JDBC statement is not.
 */
final class RowBinaryBatch {
    static final int CHUNK = 256 << 10;
    private static final int FIRST = 8 << 10;
    private static final long MAX_SIZE = Integer.MAX_VALUE - 64;
    /** Every chunk but the current one is full up to {@code used[i]}; {@code chunk == chunks.get(chunks.size() - 1)}. */
    private final List<byte[]> chunks = new ArrayList<>();
    private int[] used = new int[4];
    private byte[] chunk;
    private int pos;
    /** Bytes in the chunks before the current one. */
    private long before;
    private int rows;
    private int rowChunk;
    private int rowPos;

    RowBinaryBatch() {
        reset();
    }

    private void reset() {
        chunks.clear();
        chunk = new byte[FIRST];
        chunks.add(chunk);
        pos = 0;
        before = 0;
        rows = 0;
        rowChunk = 0;
        rowPos = 0;
    }

    /** Bytes recorded. */
    int size() {
        return (int) (before + pos);
    }

    int rows() {
        return rows;
    }

    /** Writes the recorded body to {@code out}, chunk by chunk, without copying it. */
    void writeTo(OutputStream out) throws IOException {
        int last = chunks.size() - 1;
        for (int i = 0; i < last; i++) {
            out.write(chunks.get(i), 0, used[i]);
        }
        out.write(chunk, 0, pos);
    }

    /** The recorded body as one array (for the journal, which stores it). */
    byte[] toByteArray() {
        byte[] all = new byte[size()];
        int at = 0;
        int last = chunks.size() - 1;
        for (int i = 0; i < last; i++) {
            System.arraycopy(chunks.get(i), 0, all, at, used[i]);
            at += used[i];
        }
        System.arraycopy(chunk, 0, all, at, pos);
        return all;
    }

    /** Marks where the next row starts, so that a failed row can be cut away. */
    void beginRow() {
        rowChunk = chunks.size() - 1;
        rowPos = pos;
    }

    void endRow() {
        rows++;
    }

    /** Cuts away the row begun last (its values failed to encode). */
    void rollback() {
        while (chunks.size() - 1 > rowChunk) {
            chunks.remove(chunks.size() - 1);
            before -= used[chunks.size() - 1];
        }
        chunk = chunks.get(rowChunk);
        pos = rowPos;
    }

    /** Empties the batch, keeping only a small first chunk (a statement reused for batch after batch). */
    void clear() {
        reset();
    }

    /** Room for {@code n} more bytes (at most {@link #CHUNK}) in the current chunk: it grows, or a new chunk starts. */
    private void ensure(int n) {
        if (pos + n <= chunk.length) {
            return;
        }
        if (before + pos + n > MAX_SIZE) {
            throw new IllegalStateException("The batch exceeds " + MAX_SIZE + " bytes of RowBinary; execute it in smaller batches");
        }
        if (chunks.size() == 1 && chunk.length < CHUNK) {
            // the first chunk grows up to a whole one, so that a small batch holds a small array
            chunk = Arrays.copyOf(chunk, Math.min(CHUNK, Math.max(pos + n, chunk.length * 4)));
            chunks.set(0, chunk);
            return;
        }
        int index = chunks.size() - 1;
        if (index + 1 >= used.length) {
            used = Arrays.copyOf(used, used.length * 2);
        }
        used[index] = pos;
        before += pos;
        chunk = new byte[CHUNK];
        chunks.add(chunk);
        pos = 0;
    }

    void writeByte(int v) {
        ensure(1);
        chunk[pos++] = (byte) v;
    }

    void writeShort(int v) {
        ensure(2);
        chunk[pos++] = (byte) v;
        chunk[pos++] = (byte) (v >>> 8);
    }

    void writeInt(int v) {
        ensure(4);
        byte[] c = chunk;
        int p = pos;
        c[p] = (byte) v;
        c[p + 1] = (byte) (v >>> 8);
        c[p + 2] = (byte) (v >>> 16);
        c[p + 3] = (byte) (v >>> 24);
        pos = p + 4;
    }

    void writeLong(long v) {
        ensure(8);
        byte[] c = chunk;
        int p = pos;
        for (int i = 0; i < 8; i++) {
            c[p + i] = (byte) (v >>> (i * 8));
        }
        pos = p + 8;
    }

    /** {@code v} as a little-endian two's complement integer of {@code width} bytes (sign-extended). */
    void writeBigInteger(java.math.BigInteger v, int width) {
        byte[] be = v.toByteArray();
        ensure(width);
        byte fill = (byte) (v.signum() < 0 ? 0xff : 0);
        for (int i = 0; i < width; i++) {
            int src = be.length - 1 - i;
            chunk[pos++] = src >= 0 ? be[src] : fill;
        }
    }

    /** ClickHouse's {@code writeVarUInt}: 7 bits a byte, low bits first. */
    void writeVarUInt(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            chunk[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        chunk[pos++] = (byte) v;
    }

    /** {@code len} bytes, spread over as many chunks as they need. */
    void writeBytes(byte[] b, int off, int len) {
        while (len > 0) {
            ensure(Math.min(len, CHUNK));
            int n = Math.min(len, chunk.length - pos);
            System.arraycopy(b, off, chunk, pos, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    void writeZeros(int n) {
        while (n > 0) {
            ensure(Math.min(n, CHUNK));
            int k = Math.min(n, chunk.length - pos);
            Arrays.fill(chunk, pos, pos + k, (byte) 0);
            pos += k;
            n -= k;
        }
    }

    /** A String column's value: its UTF-8 length as a varint, then the UTF-8 bytes; ASCII text is encoded in place. */
    @SuppressWarnings("deprecation")
    void writeString(CharSequence s) {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                ascii = false;
                break;
            }
        }
        if (!ascii) {
            byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
            writeVarUInt(utf8.length);
            writeBytes(utf8, 0, utf8.length);
            return;
        }
        writeVarUInt(n);
        if (n > CHUNK) {
            writeBytes(s.toString().getBytes(StandardCharsets.ISO_8859_1), 0, n);
            return;
        }
        ensure(n);
        if (s instanceof String) {
            // ASCII: each char is its byte; String.getBytes(int, int, byte[], int) copies them without an intermediate array
            ((String) s).getBytes(0, n, chunk, pos);
        } else {
            for (int i = 0; i < n; i++) {
                chunk[pos + i] = (byte) s.charAt(i);
            }
        }
        pos += n;
    }
}
