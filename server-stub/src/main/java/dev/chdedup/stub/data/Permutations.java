package dev.chdedup.stub.data;

/**
 * Orders of row numbers, as ClickHouse's {@code IColumn::Permutation}: a stable sort of rows by a comparison of two row
 * numbers, and the first rows of that order alone (a sort with a LIMIT, {@code IColumn::getPermutation} with a limit),
 * which needs no more than a heap of the rows kept.
 */
public final class Permutations {
    private Permutations() {
    }

    /** Compares two rows by number. */
    public interface RowOrder {
        int compare(int a, int b);
    }

    /** Rows {@code 0..n-1} sorted by {@code order}, equal rows in their order. */
    public static int[] stableSort(int n, RowOrder order) {
        int[] perm = identity(n);
        mergeSort(perm, new int[n], 0, n, order);
        return perm;
    }

    /**
     * The first {@code m} rows of {@link #stableSort}'s order (all {@code n} when {@code m >= n}): a heap of the best
     * {@code m} seen so far, ties broken by row number so the result is the stable sort's.
     */
    public static int[] first(int n, int m, RowOrder order) {
        if (m >= n || m > n / 8) {
            int[] all = stableSort(n, order);
            return m >= n ? all : java.util.Arrays.copyOf(all, m);
        }
        if (m <= 0) {
            return new int[0];
        }
        RowOrder total = (a, b) -> {
            int c = order.compare(a, b);
            return c != 0 ? c : Integer.compare(a, b);
        };
        int[] heap = new int[m]; // a max-heap: heap[0] is the worst row kept
        int size = 0;
        for (int r = 0; r < n; r++) {
            if (size < m) {
                heap[size] = r;
                siftUp(heap, size++, total);
            } else if (total.compare(r, heap[0]) < 0) {
                heap[0] = r;
                siftDown(heap, m, total);
            }
        }
        mergeSort(heap, new int[m], 0, m, total);
        return heap;
    }

    private static void siftUp(int[] heap, int i, RowOrder order) {
        int x = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (order.compare(heap[parent], x) >= 0) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = x;
    }

    private static void siftDown(int[] heap, int size, RowOrder order) {
        int i = 0;
        int x = heap[0];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && order.compare(heap[child + 1], heap[child]) > 0) {
                child++;
            }
            if (order.compare(heap[child], x) <= 0) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = x;
    }

    /** Whether rows {@code 0..n-1} are in {@code order} already. */
    public static boolean sorted(int n, RowOrder order) {
        for (int i = 1; i < n; i++) {
            if (order.compare(i - 1, i) > 0) {
                return false;
            }
        }
        return true;
    }

    private static int[] identity(int n) {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
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
