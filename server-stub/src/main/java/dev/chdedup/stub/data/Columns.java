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

    /** Several blocks' columns one after another: each part is one block's columns, of the same types, {@code rows} in all. */
    public static IColumn[] concat(List<IColumn[]> parts, int rows) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        IColumn[] first = parts.get(0);
        IColumn[] out = new IColumn[first.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = sameConstant(parts, c) ? new ColumnConst(first[c].type(), first[c].size() == 0 ? null : first[c].get(0), rows) : null;
            if (out[c] != null) {
                continue;
            }
            IColumn.Mutable m = mutable(first[c].type(), rows);
            for (IColumn[] part : parts) {
                m.appendRange(part[c], 0, part[c].size());
            }
            out[c] = m.finish();
        }
        return out;
    }

    /** Whether column {@code c} of every part is one and the same constant (a column a read did not decode). */
    private static boolean sameConstant(List<IColumn[]> parts, int c) {
        IColumn first = parts.get(0)[c];
        if (!(first instanceof ColumnConst) || first.size() == 0) {
            return false;
        }
        for (IColumn[] part : parts) {
            if (!(part[c] instanceof ColumnConst) || part[c].size() > 0 && !java.util.Objects.equals(part[c].get(0), first.get(0))) {
                return false;
            }
        }
        return true;
    }

    /** A column of {@code n} rows, each {@code value}. */
    public static IColumn repeat(DataType type, Object value, int n) {
        return new ColumnConst(type, value, n);
    }

    /** A column of {@code type} holding {@code values[0, size)} as they are (no primitive form). */
    public static IColumn ofValues(DataType type, Object[] values, int size) {
        return new ColumnObject(type, values, size);
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
