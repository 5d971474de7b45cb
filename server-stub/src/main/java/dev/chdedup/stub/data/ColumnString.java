package dev.chdedup.stub.data;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.util.Arrays;

/**
 * A String column: every value's bytes back to back and each value's end offset, as ClickHouse's
 * {@code ColumnString} (without its terminating zero bytes). A value reads back as a byte string ({@link ByteStrings}).
 */
public final class ColumnString implements IColumn {
    private final DataType type;
    private final byte[] chars;
    /** {@code ends[i]}: where value i ends in {@link #chars}; value i starts where i - 1 ends. */
    private final int[] ends;
    private final int size;

    ColumnString(DataType type, byte[] chars, int[] ends, int size) {
        this.type = type;
        this.chars = chars;
        this.ends = ends;
        this.size = size;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public int size() {
        return size;
    }

    public int start(int row) {
        return row == 0 ? 0 : ends[row - 1];
    }

    public int length(int row) {
        return ends[row] - start(row);
    }

    /** The bytes of every value; value i is {@code [start(i), start(i) + length(i))}. */
    public byte[] chars() {
        return chars;
    }

    @Override
    public Object get(int row) {
        int s = start(row);
        return ByteStrings.of(chars, s, ends[row] - s);
    }

    @Override
    public void writeBinary(int row, BinaryOut out) {
        int s = start(row);
        int n = ends[row] - s;
        out.writeVarUInt(n);
        out.write(chars, s, n);
    }

    @Override
    public void writeBinary(int from, int length, BinaryOut out) {
        int s = start(from);
        for (int r = from; r < from + length; r++) {
            int e = ends[r];
            out.writeVarUInt(e - s);
            out.write(chars, s, e - s);
            s = e;
        }
    }

    @Override
    public IColumn permute(int[] perm) {
        Mutable m = new Mutable(type, perm.length, size == 0 ? 0 : ends[size - 1], Allocation.NONE);
        for (int p : perm) {
            int s = start(p);
            m.add(chars, s, ends[p] - s);
        }
        return m.finish();
    }

    @Override
    public IColumn cut(int from, int length) {
        Mutable m = new Mutable(type, length, 0, Allocation.NONE);
        m.appendRange(this, from, length);
        return m.finish();
    }

    @Override
    public long byteSize() {
        return (size == 0 ? 0 : ends[size - 1]) + (long) size; // as StringType counts a value: its length + 1
    }

    public static final class Mutable implements IColumn.Mutable {
        private final DataType type;
        private byte[] chars;
        private int[] ends;
        private int size;
        private int used;
        private final BinaryOut text = new BinaryOut(64);

        private final Allocation allocation;

        Mutable(DataType type, int capacity, Allocation allocation) {
            this(type, capacity, (long) Math.min(capacity, 1 << 20) * 8, allocation);
        }

        Mutable(DataType type, int capacity, long bytes, Allocation allocation) {
            this.type = type;
            this.allocation = allocation;
            int rows = Math.max(16, Math.min(capacity, 1 << 20));
            int chars = (int) Math.max(64, Math.min(bytes, 1 << 26));
            allocation.reserve(4L * rows + chars);
            this.ends = new int[rows];
            this.chars = new byte[chars];
        }

        @Override
        public DataType type() {
            return type;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public long bytes() {
            return chars.length + 4L * ends.length;
        }

        private void room(int bytes) {
            if (size == ends.length) {
                int n = (int) Math.min(Integer.MAX_VALUE - 16, ends.length * 2L);
                allocation.reserve(4L * (n - ends.length));
                ends = Arrays.copyOf(ends, n);
            }
            long need = (long) used + bytes;
            if (need > chars.length) {
                if (need > Integer.MAX_VALUE - 16) {
                    throw new ChException(ErrorCode.TOO_LARGE_STRING_SIZE, "A String column of a block cannot hold more than 2 GB");
                }
                int n = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, chars.length * 2L));
                allocation.reserve(n - chars.length);
                chars = Arrays.copyOf(chars, n);
            }
        }

        /** Appends the value made of {@code n} bytes of {@code b} from {@code off}. */
        public void add(byte[] b, int off, int n) {
            room(n);
            System.arraycopy(b, off, chars, used, n);
            used += n;
            ends[size++] = used;
        }

        @Override
        public void append(Object v) {
            String s = (String) v;
            text.reset();
            text.writeStringBytes(s); // a text value (a char above 255) as its UTF-8 bytes, as RowBinary writes it
            add(text.array(), 0, text.size());
        }

        @Override
        public void readBinary(BinaryIn in) throws IOException {
            long n = in.readVarUInt();
            if (n < 0 || n > BinaryIn.MAX_STRING_BYTES) {
                throw BinaryIn.tooLargeString(n);
            }
            room((int) n);
            in.readFully(chars, used, (int) n);
            used += (int) n;
            ends[size++] = used;
        }

        @Override
        public void readBinary(BinaryIn in, int n) throws IOException {
            for (int i = 0; i < n; i++) {
                int len = in.bufferedShortStringLength();
                if (len < 0) {
                    readBinary(in);
                    continue;
                }
                room(len);
                in.takeShortString(chars, used, len);
                used += len;
                ends[size++] = used;
            }
        }

        @Override
        public void appendRange(IColumn src, int from, int length) {
            if (!(src instanceof ColumnString)) {
                IColumn.Mutable.super.appendRange(src, from, length);
                return;
            }
            ColumnString s = (ColumnString) src;
            for (int i = from; i < from + length; i++) {
                int st = s.start(i);
                add(s.chars, st, s.ends[i] - st);
            }
        }

        @Override
        public IColumn finish() {
            return new ColumnString(type, chars, ends, size);
        }
    }
}
