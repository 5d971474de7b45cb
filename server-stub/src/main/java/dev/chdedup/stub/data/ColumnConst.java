package dev.chdedup.stub.data;

import dev.chdedup.stub.types.DataType;

/** One value repeated for every row, as ClickHouse's {@code ColumnConst}: a column a query does not read, a virtual column. */
public final class ColumnConst implements IColumn {
    private final DataType type;
    private final Object value;
    private final int size;

    public ColumnConst(DataType type, Object value, int size) {
        this.type = type;
        this.value = value;
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
        if (row < 0 || row >= size) {
            throw new IndexOutOfBoundsException(row);
        }
        return value;
    }

    @Override
    public IColumn permute(int[] perm) {
        return new ColumnConst(type, value, perm.length);
    }

    @Override
    public IColumn cut(int from, int length) {
        return new ColumnConst(type, value, length);
    }

    /** One value's bytes, however many rows: as ClickHouse's {@code ColumnConst::byteSize}. */
    @Override
    public long byteSize() {
        return type.byteSize(value == null ? type.defaultValue() : value);
    }
}
