package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.data.Permutations;
import dev.chdedup.stub.data.Permutations.RowOrder;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.IntType;

/**
 * The permutation that sorts columnar rows by a sorting key, stably, as ClickHouse's {@code sortBlock} computes
 * {@code IColumn::getPermutation}: a key that is one column is compared in the column (unboxed where the column is
 * primitive), any other key is evaluated once per row.
 */
final class SortPermutation {
    private SortPermutation() {
    }

    /** The permutation, or null when the rows are in order already. */
    static int[] of(ColumnRows rows, Evaluator key) {
        int n = rows.size();
        int k = key.columnIndex();
        RowOrder order;
        if (k >= 0 && rows.columns()[k] instanceof ColumnVector) {
            ColumnVector v = (ColumnVector) rows.columns()[k];
            DataType t = v.type();
            boolean unsigned = t instanceof IntType && !((IntType) t).signed && ((IntType) t).bits == 64;
            order = unsigned ? (a, b) -> Long.compareUnsigned(v.getLong(a), v.getLong(b)) : (a, b) -> Long.compare(v.getLong(a), v.getLong(b));
        } else {
            Object[] keys = new Object[n];
            IColumn c = k >= 0 ? rows.columns()[k] : null;
            for (int i = 0; i < n; i++) {
                keys[i] = c != null ? c.get(i) : key.eval(rows.get(i));
            }
            DataType t = key.type();
            order = (a, b) -> StorageMergeTree.compareKeys(t, keys[a], keys[b]);
        }
        return Permutations.sorted(n, order) ? null : Permutations.stableSort(n, order);
    }
}
