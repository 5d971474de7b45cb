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
 * as ClickHouse's FlatDictionary and HashedDictionary. Entries read back in the order they were loaded.
 */
final class HashedDictionary implements LoadedDictionary {
    private static final long DEFAULT_MAX_ARRAY_SIZE = 500_000;
    private static final long INITIAL_ARRAY_SIZE = 1024;
    private static final long INITIAL_BUCKETS = 256;

    private final Map<Object, Object[]> entries = new LinkedHashMap<>();
    private final int keyParts;
    private final boolean flat;
    private long maxKey;

    HashedDictionary(DictionaryStructure structure, List<Object[]> rows, String name) {
        this.keyParts = structure.keys.size();
        this.flat = structure.layout.equals("FLAT");
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
        return new ArrayList<>(entries.values());
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
