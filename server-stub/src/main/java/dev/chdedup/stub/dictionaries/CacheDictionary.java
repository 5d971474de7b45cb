package dev.chdedup.stub.dictionaries;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * CACHE and COMPLEX_KEY_CACHE, as ClickHouse's CacheDictionary: a lookup is answered from a cell of the cache while
 * the cell is fresh (a LIFETIME drawn between MIN and MAX seconds), else the source is asked for the key and the
 * answer, found or not, fills the cell; SIZE_IN_CELLS cells at most, the least recently used given up first. A SELECT
 * from the dictionary reads the entries the cache holds.
 */
final class CacheDictionary implements LoadedDictionary {
    private static final long DEFAULT_SIZE_IN_CELLS = 1_000_000;

    /** A cell: the entry's row (null when the source has none) and when it goes stale. */
    private record Cell(Object[] row, long expiresAtNanos) {
    }

    private final IDictionarySource source;
    private final int keyParts;
    private final long lifetimeMin;
    private final long lifetimeMax;
    /** The cells by key, least recently used first. */
    private final Map<Object, Cell> cells;
    private long queries;
    private long hits;

    CacheDictionary(DictionaryStructure structure, IDictionarySource source) {
        this.source = source;
        this.keyParts = structure.keys.size();
        this.lifetimeMin = structure.lifetimeMin;
        this.lifetimeMax = structure.lifetimeMax;
        long size = structure.layoutParameters.containsKey("SIZE_IN_CELLS")
            ? Long.parseLong(structure.layoutParameters.get("SIZE_IN_CELLS")) : DEFAULT_SIZE_IN_CELLS;
        this.cells = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Object, Cell> eldest) {
                return size() > size;
            }
        };
    }

    @Override
    public synchronized Object[] find(Object[] key, Object rangePoint) {
        Object k = LoadedDictionary.keyOf(key);
        queries++;
        Cell cell = cells.get(k);
        if (cell != null && System.nanoTime() - cell.expiresAtNanos < 0) {
            hits++;
        } else {
            List<Object[]> rows = source.loadKeys(List.<Object[]>of(key));
            long lifetime = lifetimeMax <= lifetimeMin ? lifetimeMin : ThreadLocalRandom.current().nextLong(lifetimeMin, lifetimeMax + 1);
            cell = new Cell(rows.isEmpty() ? null : rows.get(0), System.nanoTime() + lifetime * 1_000_000_000L);
            cells.put(k, cell);
        }
        return cell.row == null ? null : Arrays.copyOfRange(cell.row, keyParts, cell.row.length);
    }

    @Override
    public synchronized List<Object[]> rows() {
        List<Object[]> out = new ArrayList<>();
        for (Cell c : cells.values()) {
            if (c.row != null) {
                out.add(c.row);
            }
        }
        return out;
    }

    @Override
    public synchronized long elementCount() {
        return cells.size();
    }

    @Override
    public double loadFactor() {
        return 0;
    }

    @Override
    public synchronized double hitRate() {
        return queries == 0 ? 0 : (double) hits / queries;
    }
}
