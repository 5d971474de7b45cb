package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
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

    /** Compares two rows by index. */
    private interface RowOrder {
        int compare(int a, int b);
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
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = order.compare(i - 1, i) <= 0;
        }
        if (sorted) {
            return null;
        }
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        mergeSort(perm, new int[n], 0, n, order);
        return perm;
    }

    /** Stable merge sort of {@code a[from, to)}, {@code tmp} as scratch. */
    private static void mergeSort(int[] a, int[] tmp, int from, int to, RowOrder order) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && order.compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, order);
        mergeSort(a, tmp, mid, to, order);
        if (order.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int o = from; o < to; o++) {
            a[o] = j >= to || i < mid && order.compare(tmp[i], tmp[j]) <= 0 ? tmp[i++] : tmp[j++];
        }
    }
}
