package dev.chdedup.stub.data;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The rows of a columnar {@link Block}, for the stages that work on rows: row i is made of the columns' values when it
 * is asked for. It cannot be changed.
 */
public final class ColumnRows extends AbstractList<Object[]> implements RandomAccess {
    private IColumn[] columns;
    private final int size;

    public ColumnRows(IColumn[] columns, int size) {
        this.columns = columns;
        this.size = size;
    }

    /** The columns, which the caller does not change. */
    public IColumn[] columns() {
        return columns;
    }

    /**
     * Puts these rows in another order: {@code reordered} are the same rows' columns permuted. Only a piece's own view
     * is reordered (a sort of a partition's piece); a block's rows never are.
     */
    public void replace(IColumn[] reordered) {
        for (IColumn c : reordered) {
            if (c.size() != size) {
                throw new IllegalArgumentException("a column of " + c.size() + " rows for " + size + " rows");
            }
        }
        this.columns = reordered;
    }

    @Override
    public Object[] get(int row) {
        if (row < 0 || row >= size) {
            throw new IndexOutOfBoundsException(row);
        }
        Object[] r = new Object[columns.length];
        for (int c = 0; c < r.length; c++) {
            r[c] = columns[c].get(row);
        }
        return r;
    }

    @Override
    public int size() {
        return size;
    }
}
