package dev.chdedup.stub.data;

import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.util.Arrays;

/**
 * A column of a type whose values are {@code Long}s written as {@code width} little-endian bytes (the integers, Date,
 * Date32, DateTime, DateTime64, Enum), in a {@code long[]}: ClickHouse's {@code ColumnVector}.
 */
public final class ColumnVector implements IColumn {
    private final DataType type;
    private final int width;
    private final long[] values;
    private final int size;

    ColumnVector(DataType type, int width, long[] values, int size) {
        this.type = type;
        this.width = width;
        this.values = values;
        this.size = size;
    }

    /** A column of {@code type} (a type {@link DataTypes#fixedLongWidth} gives a width) holding {@code values[0, size)}. */
    public static ColumnVector of(DataType type, long[] values, int size) {
        int width = DataTypes.fixedLongWidth(type);
        if (width <= 0) {
            throw new IllegalArgumentException(type.name() + " is not held in a long[]");
        }
        return new ColumnVector(type, width, values, size);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public int size() {
        return size;
    }

    /** The value of row {@code row}, unboxed. */
    public long getLong(int row) {
        return values[row];
    }

    /** The bytes a value takes in RowBinary. */
    public int width() {
        return width;
    }

    @Override
    public Object get(int row) {
        return values[row];
    }

    @Override
    public void writeBinary(int row, BinaryOut out) {
        out.writeLongLE(values[row], width);
    }

    @Override
    public void writeBinary(int from, int length, BinaryOut out) {
        out.writeLongsLE(values, from, length, width);
    }

    @Override
    public IColumn permute(int[] perm) {
        long[] v = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            v[i] = values[perm[i]];
        }
        return new ColumnVector(type, width, v, v.length);
    }

    @Override
    public IColumn cut(int from, int length) {
        return new ColumnVector(type, width, Arrays.copyOfRange(values, from, from + length), length);
    }

    @Override
    public long byteSize() {
        return (long) size * type.byteSize(0L); // as the rows of a block of rows are counted
    }

    public static final class Mutable implements IColumn.Mutable {
        private final DataType type;
        private final int width;
        /** The RowBinary form is read here without the type (no box, no check: binary input keeps any Enum code): how to widen it to the value. */
        private final int signBits;
        private final Allocation allocation;
        private long[] values;
        private int size;

        Mutable(DataType type, int width, int capacity, Allocation allocation) {
            this.type = type;
            this.width = width;
            this.allocation = allocation;
            int n = Math.max(16, Math.min(capacity, 1 << 20));
            allocation.reserve(8L * n);
            this.values = new long[n];
            this.signBits = DataTypes.isSignedLong(type) && width < 8 ? 64 - 8 * width : 0;
        }

        @Override
        public DataType type() {
            return type;
        }

        @Override
        public int size() {
            return size;
        }

        private void grow(int need) {
            if (need > values.length) {
                int n = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, values.length * 2L));
                allocation.reserve(8L * (n - values.length));
                values = Arrays.copyOf(values, n);
            }
        }

        @Override
        public long bytes() {
            return 8L * values.length;
        }

        @Override
        public void append(Object v) {
            add((Long) v);
        }

        /** Appends a value, unboxed. */
        public void add(long v) {
            if (size == values.length) {
                grow(size + 1);
            }
            values[size++] = v;
        }

        @Override
        public void readBinary(BinaryIn in) throws IOException {
            long v = in.readLongLE(width);
            add(signBits > 0 ? (v << signBits) >> signBits : v);
        }

        @Override
        public void readBinary(BinaryIn in, int n) throws IOException {
            grow(size + n);
            long[] v = values;
            int at = size;
            for (int i = 0; i < n; i++) {
                long x = in.readLongLE(width);
                v[at + i] = signBits > 0 ? (x << signBits) >> signBits : x;
            }
            size += n;
        }

        @Override
        public void appendRange(IColumn src, int from, int length) {
            if (src instanceof ColumnVector) {
                grow(size + length);
                System.arraycopy(((ColumnVector) src).values, from, values, size, length);
                size += length;
            } else {
                IColumn.Mutable.super.appendRange(src, from, length);
            }
        }

        @Override
        public IColumn finish() {
            return new ColumnVector(type, width, values, size);
        }
    }
}
