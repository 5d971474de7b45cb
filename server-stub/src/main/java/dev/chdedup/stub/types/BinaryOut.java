package dev.chdedup.stub.types;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable little-endian byte buffer for the RowBinary encoding. */
public final class BinaryOut {
    private static final java.lang.invoke.VarHandle LE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle LE_INT =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle LE_SHORT =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(short[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private byte[] buf;
    private int len;
    /** JSON values are written as their JSON text (output_format_binary_write_json_as_string). */
    private boolean jsonAsString;
    /** In that text, 64-bit integers are quoted (output_format_json_quote_64bit_integers). */
    private boolean jsonQuote64bitIntegers = true;

    /** Sets how JSON values are written: as their text, and with 64-bit integers quoted in it. */
    public void jsonAsString(boolean asString, boolean quote64bitIntegers) {
        this.jsonAsString = asString;
        this.jsonQuote64bitIntegers = quote64bitIntegers;
    }

    public boolean jsonAsString() {
        return jsonAsString;
    }

    public boolean jsonQuote64bitIntegers() {
        return jsonQuote64bitIntegers;
    }

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
        ensure(8);
        switch (bytes) {
            case 8:
                LE_LONG.set(buf, len, v);
                len += 8;
                return;
            case 4:
                LE_INT.set(buf, len, (int) v);
                len += 4;
                return;
            case 2:
                LE_SHORT.set(buf, len, (short) v);
                len += 2;
                return;
            case 1:
                buf[len++] = (byte) v;
                return;
            default:
                break;
        }
        for (int i = 0; i < bytes; i++) {
            buf[len++] = (byte) (v >>> (8 * i));
        }
    }

    /** {@code values[from, from + n)}, each as {@code bytes} little-endian bytes (1, 2, 4 or 8 as {@link #writeLongLE}). */
    public void writeLongsLE(long[] values, int from, int n, int bytes) {
        ensure((int) Math.min(Integer.MAX_VALUE - 16, (long) n * bytes));
        int at = len;
        byte[] b = buf;
        int to = from + n;
        switch (bytes) {
            case 8 -> {
                for (int i = from; i < to; i++, at += 8) {
                    LE_LONG.set(b, at, values[i]);
                }
            }
            case 4 -> {
                for (int i = from; i < to; i++, at += 4) {
                    LE_INT.set(b, at, (int) values[i]);
                }
            }
            case 2 -> {
                for (int i = from; i < to; i++, at += 2) {
                    LE_SHORT.set(b, at, (short) values[i]);
                }
            }
            default -> {
                for (int i = from; i < to; i++) {
                    writeLongLE(values[i], bytes);
                }
                return;
            }
        }
        len = at;
    }

    public void writeVarUInt(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    /**
     * A String value as RowBinary: varint length, then its chars as bytes ({@link ByteStrings}), copied in one
     * pass without a temporary array. A string with a char above 255 is text, not bytes: it is written as UTF-8.
     */
    public void writeString(String s) {
        int start = len;
        writeVarUInt(s.length());
        if (writeStringBytes(s) != s.length()) { // text (a char above 255): its UTF-8 length goes first
            len = start;
            writeUtf8(s);
        }
    }

    /** A String value's bytes alone, as {@link #writeString} writes them after the length; returns how many. */
    public int writeStringBytes(String s) {
        int n = s.length();
        ensure(n);
        byte[] b = buf;
        int at = len;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c > 0xFF) {
                byte[] u = s.getBytes(StandardCharsets.UTF_8);
                write(u, 0, u.length);
                return u.length;
            }
            b[at++] = (byte) c;
        }
        len = at;
        return n;
    }

    private void writeUtf8(String s) {
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
