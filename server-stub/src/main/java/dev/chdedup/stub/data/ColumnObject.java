package dev.chdedup.stub.data;

import dev.chdedup.stub.types.DataType;
import java.util.Arrays;

/** A column of any other type (Nullable, arrays, maps, tuples, decimals, ...): its values as the type holds them. */
public final class ColumnObject implements IColumn {
    private final DataType type;
    private final Object[] values;
    private final int size;

    ColumnObject(DataType type, Object[] values, int size) {
        this.type = type;
        this.values = values;
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

    @Override
    public Object get(int row) {
        return values[row];
    }

    @Override
    public IColumn permute(int[] perm) {
        Object[] v = new Object[perm.length];
        for (int i = 0; i < perm.length; i++) {
            v[i] = values[perm[i]];
        }
        return new ColumnObject(type, v, v.length);
    }

    @Override
    public IColumn cut(int from, int length) {
        return new ColumnObject(type, Arrays.copyOfRange(values, from, from + length), length);
    }

    @Override
    public long byteSize() {
        long b = 0;
        for (int i = 0; i < size; i++) {
            b += type.byteSize(values[i] == null ? type.defaultValue() : values[i]);
        }
        return b;
    }

    static final class Mutable implements IColumn.Mutable {
        private final DataType type;
        private Object[] values;
        private int size;
        private long bytes;
        /** Bytes counted but not reserved yet: values are reserved in batches. */
        private long unreserved;
        private final Allocation allocation;

        Mutable(DataType type, int capacity, Allocation allocation) {
            this.type = type;
            this.allocation = allocation;
            this.values = new Object[Math.max(16, Math.min(capacity, 1 << 20))];
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
            return bytes;
        }

        @Override
        public void append(Object v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = v;
            long b = 24 + (v == null ? 0 : type.byteSize(v));
            bytes += b;
            unreserved += b;
            if (unreserved >= 1 << 16) {
                allocation.reserve(unreserved);
                unreserved = 0;
            }
        }

        @Override
        public void readBinary(dev.chdedup.stub.types.BinaryIn in) throws java.io.IOException {
            append(type.readBinary(in));
        }

        @Override
        public IColumn finish() {
            allocation.reserve(unreserved);
            unreserved = 0;
            return new ColumnObject(type, values, size);
        }
    }
}
