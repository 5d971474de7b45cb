package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The layouts that hold every entry in memory by key: FLAT (a simple key below MAX_ARRAY_SIZE, 500000 by default,
 * as an array index: ARGUMENT_OUT_OF_BOUND for a greater one; a key given twice keeps its last entry), and HASHED,
 * SPARSE_HASHED, HASHED_ARRAY and their COMPLEX_KEY_ forms (a hash table: a key given twice keeps its first entry),
 * as ClickHouse's FlatDictionary and HashedDictionary. FLAT reads its entries back in the order of their keys, HASHED
 * with a simple key in the order of ClickHouse's hash table ({@link #hashTableOrder}), the others in the order they were
 * loaded.
 */
final class HashedDictionary implements LoadedDictionary {
    private static final long DEFAULT_MAX_ARRAY_SIZE = 500_000;
    private static final long INITIAL_ARRAY_SIZE = 1024;
    private static final long INITIAL_BUCKETS = 256;

    private final Map<Object, Object[]> entries = new LinkedHashMap<>();
    private final int keyParts;
    private final boolean flat;
    private final boolean hashed;
    private long maxKey;

    HashedDictionary(DictionaryStructure structure, List<Object[]> rows, String name) {
        this.keyParts = structure.keys.size();
        this.flat = structure.layout.equals("FLAT");
        this.hashed = structure.layout.equals("HASHED") && keyParts == 1;
        long maxArraySize = flat && structure.layoutParameters.containsKey("MAX_ARRAY_SIZE")
            ? Long.parseLong(structure.layoutParameters.get("MAX_ARRAY_SIZE")) : DEFAULT_MAX_ARRAY_SIZE;
        for (Object[] row : rows) {
            Object key = LoadedDictionary.keyOf(Arrays.copyOf(row, keyParts));
            if (flat) {
                long k = (Long) key;
                if (Long.compareUnsigned(k, maxArraySize) >= 0) {
                    throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, name + ": identifier should be less than " + maxArraySize);
                }
                maxKey = Math.max(maxKey, k);
                entries.put(key, row);
            } else {
                entries.putIfAbsent(key, row);
            }
        }
    }

    @Override
    public Object[] find(Object[] key, Object rangePoint) {
        Object[] row = entries.get(LoadedDictionary.keyOf(key));
        return row == null ? null : Arrays.copyOfRange(row, keyParts, row.length);
    }

    @Override
    public List<Object[]> rows() {
        if (!flat && !hashed) {
            return new ArrayList<>(entries.values());
        }
        List<Object[]> out = new ArrayList<>(entries.size());
        if (flat) {
            List<Object> keys = new ArrayList<>(entries.keySet());
            keys.sort((a, b) -> Long.compareUnsigned((Long) a, (Long) b));
            for (Object k : keys) {
                out.add(entries.get(k));
            }
        } else {
            for (long k : hashTableOrder(entries.keySet())) {
                out.add(entries.get(k));
            }
        }
        return out;
    }

    /**
     * UInt64 keys in the order ClickHouse's HashMap holds them, as a HASHED dictionary reads them: key 0 first (kept
     * apart), then by cell, a key's cell its intHash64 masked to the table's size, the next free one on a collision;
     * the table starts at 256 cells and grows fourfold (twofold from 2^23 cells) once more than half are taken, its
     * keys placed again in the old table's order.
     */
    static List<Long> hashTableOrder(Iterable<Object> keysInLoadOrder) {
        int degree = 8;
        long[] cells = new long[1 << degree];
        boolean[] taken = new boolean[1 << degree];
        boolean zero = false;
        int size = 0;
        for (Object o : keysInLoadOrder) {
            long k = (Long) o;
            if (k == 0) {
                zero = true;
                continue;
            }
            place(cells, taken, degree, k);
            size++;
            if (size > (1 << (degree - 1))) {
                int grown = degree + (degree < 23 ? 2 : 1);
                long[] newCells = new long[1 << grown];
                boolean[] newTaken = new boolean[1 << grown];
                for (int i = 0; i < cells.length; i++) {
                    if (taken[i]) {
                        place(newCells, newTaken, grown, cells[i]);
                    }
                }
                cells = newCells;
                taken = newTaken;
                degree = grown;
            }
        }
        List<Long> out = new ArrayList<>(size + 1);
        if (zero) {
            out.add(0L);
        }
        for (int i = 0; i < cells.length; i++) {
            if (taken[i]) {
                out.add(cells[i]);
            }
        }
        return out;
    }

    private static void place(long[] cells, boolean[] taken, int degree, long key) {
        int mask = (1 << degree) - 1;
        int at = (int) (dev.chdedup.stub.hash.MurmurHash.fmix64(key) & mask);
        while (taken[at]) {
            at = (at + 1) & mask;
        }
        cells[at] = key;
        taken[at] = true;
    }

    @Override
    public long elementCount() {
        return entries.size();
    }

    @Override
    public double loadFactor() {
        long capacity = flat ? Math.max(INITIAL_ARRAY_SIZE, maxKey + 1) : INITIAL_BUCKETS;
        while (!flat && capacity < entries.size() * 2L) {
            capacity *= 2;
        }
        return (double) entries.size() / capacity;
    }
}
