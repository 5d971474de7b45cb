package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A buffered little-endian reader over a stream, for RowBinary input. {@link #atEnd()} tells a clean end
 * between rows from a truncated row, which fails with ClickHouse's {@code CANNOT_READ_ALL_DATA}.
 */
public final class BinaryIn {
    /** Longest string or FixedString a single value may claim, to refuse garbage lengths early. */
    public static final int MAX_STRING_BYTES = 1 << 30;

    private final InputStream in;
    private final byte[] buf;
    private int pos;
    private int lim;
    private long consumed;
    /** JSON values are read from their JSON text (input_format_binary_read_json_as_string). */
    private boolean jsonAsString;

    public void jsonAsString(boolean asString) {
        this.jsonAsString = asString;
    }

    public boolean jsonAsString() {
        return jsonAsString;
    }

    public BinaryIn(InputStream in) {
        this.in = in;
        this.buf = new byte[1 << 16];
    }

    public BinaryIn(byte[] data) {
        this.in = InputStream.nullInputStream();
        this.buf = data;
        this.lim = data.length;
    }

    private boolean fill() throws IOException {
        if (pos < lim) {
            return true;
        }
        consumed += lim;
        pos = 0;
        lim = 0;
        int n = in.read(buf, 0, buf.length);
        if (n <= 0) {
            return false;
        }
        lim = n;
        return true;
    }

    public boolean atEnd() throws IOException {
        return !fill();
    }

    public long position() {
        return consumed + pos;
    }

    public int readByte() throws IOException {
        if (!fill()) {
            throw eof();
        }
        return buf[pos++] & 0xFF;
    }

    private static final java.lang.invoke.VarHandle LE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle LE_INT =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    public long readLongLE(int bytes) throws IOException {
        long v = 0;
        if (lim - pos >= 8 && bytes == 8) {
            v = (long) LE_LONG.get(buf, pos);
            pos += 8;
            return v;
        }
        if (lim - pos >= 4 && bytes == 4) {
            v = (int) LE_INT.get(buf, pos) & 0xFFFFFFFFL;
            pos += 4;
            return v;
        }
        if (lim - pos >= bytes) {
            for (int i = 0; i < bytes; i++) {
                v |= (buf[pos + i] & 0xFFL) << (8 * i);
            }
            pos += bytes;
            return v;
        }
        for (int i = 0; i < bytes; i++) {
            v |= ((long) readByte()) << (8 * i);
        }
        return v;
    }

    /** A varint the stream ends inside (or before): ClickHouse's readVarUInt fails with ATTEMPT_TO_READ_AFTER_EOF, not CANNOT_READ_ALL_DATA. */
    public static final class AfterEof extends EOFException {
        AfterEof() {
            super("Attempt to read after eof");
        }
    }

    public long readVarUInt() throws IOException {
        long v = 0;
        for (int i = 0; i < 10; i++) {
            if (!fill()) {
                throw new AfterEof();
            }
            int b = buf[pos++] & 0xFF;
            v |= ((long) (b & 0x7F)) << (7 * i);
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        return v;
    }

    public byte[] readBytes(int n) throws IOException {
        if (n < 0 || n > MAX_STRING_BYTES) {
            throw tooLargeString(n);
        }
        byte[] out = new byte[n];
        int off = 0;
        while (off < n) {
            if (!fill()) {
                throw eof();
            }
            int k = Math.min(n - off, lim - pos);
            System.arraycopy(buf, pos, out, off, k);
            pos += k;
            off += k;
        }
        return out;
    }

    /** A value cut short: how many of its bytes were there and how many it needed. */
    public static final class ShortRead extends EOFException {
        public final long read;
        public final long expected;

        ShortRead(long read, long expected) {
            super("Cannot read all data");
            this.read = read;
            this.expected = expected;
        }
    }

    /** Reads exactly {@code n} bytes into {@code dst} at {@code off}; a stream that ends first is a {@link ShortRead}. */
    public void readFully(byte[] dst, int off, int n) throws IOException {
        int want = n;
        while (n > 0) {
            if (!fill()) {
                throw new ShortRead(want - n, want);
            }
            int k = Math.min(n, lim - pos);
            System.arraycopy(buf, pos, dst, off, k);
            pos += k;
            off += k;
            n -= k;
        }
    }

    /**
     * The length of the String value at the read position when its varint is one byte and all its bytes are buffered
     * (what most values of a column file are), or -1; nothing is consumed. {@link #takeShortString} then reads it.
     */
    public int bufferedShortStringLength() {
        if (pos < lim) {
            int n = buf[pos];
            if (n >= 0 && lim - pos - 1 >= n) {
                return n;
            }
        }
        return -1;
    }

    /** Reads the String value of {@code n} bytes that {@link #bufferedShortStringLength} found, its bytes into {@code dst}. */
    public void takeShortString(byte[] dst, int off, int n) {
        System.arraycopy(buf, pos + 1, dst, off, n);
        pos += 1 + n;
    }

    /** A String as RowBinary: varint length, then that many bytes, as a byte string ({@link ByteStrings}). */
    public String readString() throws IOException {
        long n = readVarUInt();
        if (n < 0 || n > MAX_STRING_BYTES) {
            throw tooLargeString(n);
        }
        if (lim - pos >= n) {
            String s = ByteStrings.of(buf, pos, (int) n);
            pos += (int) n;
            return s;
        }
        return ByteStrings.of(readBytes((int) n));
    }

    /** The element count of an Array or Map (varint), refused above format_binary_max_array_size as SerializationArray does. */
    public long readArraySize() throws IOException {
        long n = readVarUInt();
        if (n < 0 || n > MAX_STRING_BYTES) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Too large array size: " + Long.toUnsignedString(n) + ". The maximum is: "
                + MAX_STRING_BYTES + ". To increase the maximum, use setting format_binary_max_array_size");
        }
        return n;
    }

    /** As ClickHouse's SerializationString::deserializeBinary refuses a length above format_binary_max_string_size. */
    public static ChException tooLargeString(long n) {
        return new ChException(ErrorCode.TOO_LARGE_STRING_SIZE, "Too large string size: " + Long.toUnsignedString(n) + ". The maximum is: "
            + MAX_STRING_BYTES + ". To increase the maximum, use setting format_binary_max_string_size");
    }

    private static IOException eof() {
        return new EOFException("Cannot read all data");
    }
}
