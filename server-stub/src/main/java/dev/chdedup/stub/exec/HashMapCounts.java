package dev.chdedup.stub.exec;

import dev.chdedup.stub.compress.CityHash128;

/**
 * A ClickHouse HashMap from a key of one or two UInt64s to a UInt64 count, laid out as ClickHouse's HashTable lays it
 * out, so that iterating it visits the keys in the engine's order (which the sums over it in the CrossTab aggregates
 * show in their last digits): open addressing with linear probing over 2^d cells (d the initial degree), a key's first
 * cell its hash modulo the size; once more than half the cells are taken the table grows fourfold and moves its
 * elements in place (HashTable::resize: each element of the old cells, in their order, then the collision chain
 * running past the old end, goes to the first free cell from its new place unless it already sits on its chain). The
 * zero key is kept apart and visited first.
 */
final class HashMapCounts {
    /** The hash of a key {@code (k1, k2)}. */
    interface Hash {
        long of(long k1, long k2);
    }

    /** ClickHouse's TrivialHash of a UInt64 key: the key. */
    static final Hash TRIVIAL = (k1, k2) -> k1;
    /** ClickHouse's UInt128Hash: CityHash's Hash128to64 of (low, high). */
    static final Hash UINT128 = CityHash128::hash128to64;

    /** What {@link #forEach} calls for each key and count. */
    interface Visitor {
        void visit(long k1, long k2, long count);
    }

    private final Hash hash;
    private int degree;
    private long[] keys1;
    private long[] keys2;
    private long[] counts;
    private boolean[] used;
    private int size;
    private boolean hasZero;
    private long zeroCount;

    HashMapCounts(int initialDegree, Hash hash) {
        this.hash = hash;
        this.degree = initialDegree;
        allocate(1 << initialDegree);
    }

    private void allocate(int cells) {
        keys1 = new long[cells];
        keys2 = new long[cells];
        counts = new long[cells];
        used = new boolean[cells];
    }

    /** The number of keys. */
    int size() {
        return size + (hasZero ? 1 : 0);
    }

    /** Adds {@code n} to the count of {@code (k1, k2)}, inserting the key first if it is new. */
    void add(long k1, long k2, long n) {
        if (k1 == 0 && k2 == 0) {
            hasZero = true;
            zeroCount += n;
            return;
        }
        int mask = keys1.length - 1;
        int p = (int) (hash.of(k1, k2) & mask);
        while (used[p] && !(keys1[p] == k1 && keys2[p] == k2)) {
            p = (p + 1) & mask;
        }
        if (used[p]) {
            counts[p] += n;
            return;
        }
        used[p] = true;
        keys1[p] = k1;
        keys2[p] = k2;
        counts[p] = n;
        size++;
        if (size > 1 << (degree - 1)) {
            grow();
        }
    }

    /** The count of {@code (k1, k2)}, 0 when absent. */
    long get(long k1, long k2) {
        if (k1 == 0 && k2 == 0) {
            return zeroCount;
        }
        int mask = keys1.length - 1;
        int p = (int) (hash.of(k1, k2) & mask);
        while (used[p]) {
            if (keys1[p] == k1 && keys2[p] == k2) {
                return counts[p];
            }
            p = (p + 1) & mask;
        }
        return 0;
    }

    /** Visits the keys in ClickHouse's order: the zero key, then the cells. */
    void forEach(Visitor v) {
        if (hasZero) {
            v.visit(0, 0, zeroCount);
        }
        for (int i = 0; i < used.length; i++) {
            if (used[i]) {
                v.visit(keys1[i], keys2[i], counts[i]);
            }
        }
    }

    private void grow() {
        int oldSize = keys1.length;
        degree += degree >= 23 ? 1 : 2;
        long[] k1 = keys1;
        long[] k2 = keys2;
        long[] c = counts;
        boolean[] u = used;
        allocate(1 << degree);
        System.arraycopy(k1, 0, keys1, 0, oldSize);
        System.arraycopy(k2, 0, keys2, 0, oldSize);
        System.arraycopy(c, 0, counts, 0, oldSize);
        System.arraycopy(u, 0, used, 0, oldSize);
        int i = 0;
        for (; i < oldSize; i++) {
            if (used[i]) {
                reinsert(i);
            }
        }
        for (; i < used.length && used[i]; i++) {
            reinsert(i);
        }
    }

    /** Moves the element in cell {@code i} to the first free cell from its place, unless it is met on the way. */
    private void reinsert(int i) {
        int mask = keys1.length - 1;
        int p = (int) (hash.of(keys1[i], keys2[i]) & mask);
        if (p == i) {
            return;
        }
        while (used[p] && !(keys1[p] == keys1[i] && keys2[p] == keys2[i])) {
            p = (p + 1) & mask;
        }
        if (used[p]) {
            return;
        }
        used[p] = true;
        keys1[p] = keys1[i];
        keys2[p] = keys2[i];
        counts[p] = counts[i];
        used[i] = false;
    }
}
