package dev.chdedup.stub.data;

import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.FloatType;
import java.io.IOException;
import java.util.Arrays;

/**
 * A Float32 or Float64 column: each value's IEEE bits in a {@code long[]}, so a value reads back bit for bit as it was
 * written (ClickHouse's {@code ColumnVector<Float64>}); a value is a {@code Double} or a {@code Float}, as
 * {@link FloatType} holds them.
 */
public final class ColumnFloat implements IColumn {
    private final FloatType type;
    private final long[] bits;
    private final int size;

    ColumnFloat(FloatType type, long[] bits, int size) {
        this.type = type;
        this.bits = bits;
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

    /** The value of row {@code row} as a {@code double} (a Float32 widened), unboxed. */
    public double getDouble(int row) {
        return type.is64 ? Double.longBitsToDouble(bits[row]) : Float.intBitsToFloat((int) bits[row]);
    }

    @Override
    public Object get(int row) {
        return type.is64 ? (Object) Double.longBitsToDouble(bits[row]) : (Object) Float.intBitsToFloat((int) bits[row]);
    }

    @Override
    public void writeBinary(int row, BinaryOut out) {
        out.writeLongLE(bits[row], type.is64 ? 8 : 4);
    }

    @Override
    public IColumn permute(int[] perm) {
        long[] v = new long[perm.length];
        for (int i = 0; i < perm.length; i++) {
            v[i] = bits[perm[i]];
        }
        return new ColumnFloat(type, v, v.length);
    }

    @Override
    public IColumn cut(int from, int length) {
        return new ColumnFloat(type, Arrays.copyOfRange(bits, from, from + length), length);
    }

    @Override
    public long byteSize() {
        return (long) size * (type.is64 ? 8 : 4);
    }

    static final class Mutable implements IColumn.Mutable {
        private final FloatType type;
        private final Allocation allocation;
        private long[] bits;
        private int size;

        Mutable(FloatType type, int capacity, Allocation allocation) {
            this.type = type;
            this.allocation = allocation;
            int n = Math.max(16, Math.min(capacity, 1 << 20));
            allocation.reserve(8L * n);
            this.bits = new long[n];
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
            return 8L * bits.length;
        }

        private void add(long b) {
            if (size == bits.length) {
                int n = (int) Math.min(Integer.MAX_VALUE - 16, bits.length * 2L);
                allocation.reserve(8L * (n - bits.length));
                bits = Arrays.copyOf(bits, n);
            }
            bits[size++] = b;
        }

        @Override
        public void append(Object v) {
            Number n = (Number) v;
            add(type.is64 ? Double.doubleToRawLongBits(n.doubleValue()) : Float.floatToRawIntBits(n.floatValue()) & 0xFFFFFFFFL);
        }

        @Override
        public void readBinary(BinaryIn in) throws IOException {
            add(in.readLongLE(type.is64 ? 8 : 4));
        }

        @Override
        public void appendRange(IColumn src, int from, int length) {
            if (src instanceof ColumnFloat) {
                for (int i = from; i < from + length; i++) {
                    add(((ColumnFloat) src).bits[i]);
                }
            } else {
                IColumn.Mutable.super.appendRange(src, from, length);
            }
        }

        @Override
        public IColumn finish() {
            return new ColumnFloat(type, bits, size);
        }
    }
}
