package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.data.Permutations;
import dev.chdedup.stub.data.Permutations.RowOrder;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.IntType;
import java.util.Arrays;
import java.util.List;

/**
 * The order of a SELECT's rows by its ORDER BY keys, computed on the key columns, as ClickHouse's {@code sortBlock}:
 * integers, dates and times compared unboxed in their {@code long}s, strings bytewise in their bytes, any other
 * type by its values; NaN and then NULL go last in either direction unless NULLS FIRST puts them first. The
 * sort is stable, and with a LIMIT only the rows it keeps are ordered.
 */
public final class SortBlock {
    private SortBlock() {
    }

    /** The first {@code limit} rows of the {@code rows} rows of {@code keys} (one column per item) in the items' order. */
    static int[] permutation(IColumn[] keys, List<Query.OrderItem> items, int rows, int limit) {
        RowOrder[] orders = new RowOrder[keys.length];
        for (int k = 0; k < keys.length; k++) {
            orders[k] = order(keys[k], items.get(k));
        }
        RowOrder order = orders.length == 1 ? orders[0] : (a, b) -> {
            for (RowOrder o : orders) {
                int c = o.compare(a, b);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        return Permutations.first(rows, limit, order);
    }

    private static RowOrder order(IColumn key, Query.OrderItem item) {
        boolean desc = item.desc();
        if (key instanceof ColumnVector) {
            ColumnVector v = (ColumnVector) key;
            boolean unsigned = v.type() instanceof IntType && !((IntType) v.type()).signed;
            if (unsigned) {
                return desc ? (a, b) -> Long.compareUnsigned(v.getLong(b), v.getLong(a)) : (a, b) -> Long.compareUnsigned(v.getLong(a), v.getLong(b));
            }
            return desc ? (a, b) -> Long.compare(v.getLong(b), v.getLong(a)) : (a, b) -> Long.compare(v.getLong(a), v.getLong(b));
        }
        if (key instanceof ColumnString) {
            ColumnString s = (ColumnString) key;
            byte[] bytes = s.chars();
            RowOrder asc = (a, b) -> {
                int sa = s.start(a);
                int sb = s.start(b);
                return Arrays.compareUnsigned(bytes, sa, sa + s.length(a), bytes, sb, sb + s.length(b));
            };
            return desc ? (a, b) -> asc.compare(b, a) : asc;
        }
        DataType t = TypeRules.stripNullable(key.type());
        boolean nullsFirst = Boolean.TRUE.equals(item.nullsFirst());
        return (a, b) -> compare(t, key.get(a), key.get(b), desc, nullsFirst);
    }

    /**
     * Two values of an ORDER BY key of type {@code t} in its order, as ClickHouse sorts: a NULL goes last, after NaN,
     * whichever the direction, unless NULLS FIRST puts both first (NULL, then NaN); the other values as the direction
     * says.
     */
    public static int compare(DataType t, Object x, Object y, boolean desc, boolean nullsFirst) {
        int rx = rank(x);
        int ry = rank(y);
        if (rx != 0 || ry != 0) {
            return rx == ry ? 0 : nullsFirst ? Integer.compare(ry, rx) : Integer.compare(rx, ry);
        }
        int c = t.compare(x, y);
        return desc ? -c : c;
    }

    /** 2 for NULL, 1 for NaN, 0 for any other value. */
    private static int rank(Object v) {
        if (v == null) {
            return 2;
        }
        return v instanceof Double && ((Double) v).isNaN() || v instanceof Float && ((Float) v).isNaN() ? 1 : 0;
    }
}
