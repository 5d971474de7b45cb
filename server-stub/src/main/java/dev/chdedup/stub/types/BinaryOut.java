package dev.chdedup.stub.types;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable little-endian byte buffer for the RowBinary encoding. */
public final class BinaryOut {
    private byte[] buf;
    private int len;

    public BinaryOut(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    public void write(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    public void write(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    public void writeLongLE(long v, int bytes) {
        ensure(bytes);
        for (int i = 0; i < bytes; i++) {
            buf[len++] = (byte) (v >>> (8 * i));
        }
    }

    public void writeVarUInt(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    public void writeString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeVarUInt(b.length);
        write(b, 0, b.length);
    }

    public int size() {
        return len;
    }

    public byte[] array() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    public void reset() {
        len = 0;
    }
}
