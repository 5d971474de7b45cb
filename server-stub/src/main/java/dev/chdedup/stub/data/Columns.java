package dev.chdedup.stub.data;

import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import java.util.List;

/** Creates columns for types ({@code IDataType::createColumn}) and concatenates them. */
public final class Columns {
    private Columns() {
    }

    /** An empty column of {@code type}, to be filled: its primitive or byte form where the type has one. */
    public static IColumn.Mutable mutable(DataType type, int capacity) {
        return mutable(type, capacity, Allocation.NONE);
    }

    /** {@link #mutable(DataType, int)} whose growth asks {@code allocation} first. */
    public static IColumn.Mutable mutable(DataType type, int capacity, Allocation allocation) {
        int width = DataTypes.fixedLongWidth(type);
        if (width > 0) {
            return new ColumnVector.Mutable(type, width, capacity, allocation);
        }
        if (type instanceof FloatType) {
            return new ColumnFloat.Mutable((FloatType) type, capacity, allocation);
        }
        if (type instanceof StringType && ((StringType) type).fixedLength == 0) {
            return new ColumnString.Mutable(type, capacity, allocation);
        }
        return new ColumnObject.Mutable(type, capacity, allocation);
    }

    /** One empty mutable column per header entry. */
    public static IColumn.Mutable[] mutable(List<Column> header, int capacity) {
        return mutable(header, capacity, Allocation.NONE);
    }

    /** One empty mutable column per header entry, growing as {@code allocation} allows. */
    public static IColumn.Mutable[] mutable(List<Column> header, int capacity, Allocation allocation) {
        IColumn.Mutable[] m = new IColumn.Mutable[header.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = mutable(header.get(i).type(), capacity, allocation);
        }
        return m;
    }

    public static IColumn[] finish(IColumn.Mutable[] m) {
        IColumn[] c = new IColumn[m.length];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].finish();
        }
        return c;
    }

    /** A column of {@code n} rows, each {@code value}. */
    public static IColumn repeat(DataType type, Object value, int n) {
        return new ColumnConst(type, value, n);
    }

    /** A column of {@code type} holding {@code values}. */
    public static IColumn of(DataType type, List<?> values) {
        IColumn.Mutable m = mutable(type, values.size());
        for (Object v : values) {
            m.append(v);
        }
        return m.finish();
    }
}
