package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RANGE_HASHED and COMPLEX_KEY_RANGE_HASHED, as ClickHouse's RangeHashedDictionary: each key has ranges
 * [range_min, range_max] (both ends included, a NULL end open), and a lookup at a point takes, of the ranges that
 * hold it, the one with the least range_min (range_lookup_strategy 'min', the default) or the greatest ('max'),
 * the range_max deciding between equal starts the same way.
 */
final class RangeHashedDictionary implements LoadedDictionary {
    private final Map<Object, List<Object[]>> ranges = new LinkedHashMap<>();
    private final List<Object[]> rows;
    private final int keyParts;
    private final DataType rangeType;
    private final boolean max;

    RangeHashedDictionary(DictionaryStructure structure, List<Object[]> rows, String name) {
        this.keyParts = structure.keys.size();
        this.rows = rows;
        this.rangeType = structure.rangeMin.type();
        String strategy = ClickHouseDictionarySource.unquote(structure.layoutParameters.getOrDefault("RANGE_LOOKUP_STRATEGY", "'min'"));
        if (!strategy.equals("min") && !strategy.equals("max")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, name + ": range_lookup_strategy must be 'min' or 'max', not '" + strategy + "'");
        }
        this.max = strategy.equals("max");
        for (Object[] row : rows) {
            ranges.computeIfAbsent(LoadedDictionary.keyOf(Arrays.copyOf(row, keyParts)), k -> new ArrayList<>()).add(row);
        }
    }

    @Override
    public Object[] find(Object[] key, Object point) {
        List<Object[]> candidates = ranges.get(LoadedDictionary.keyOf(key));
        if (candidates == null || point == null) {
            return null;
        }
        Object[] best = null;
        for (Object[] r : candidates) {
            if (rangeType.compare(r[keyParts], point) > 0 || rangeType.compare(point, r[keyParts + 1]) > 0) {
                continue;
            }
            if (best == null || better(r, best)) {
                best = r;
            }
        }
        return best == null ? null : Arrays.copyOfRange(best, keyParts + 2, best.length);
    }

    private boolean better(Object[] r, Object[] best) {
        int c = rangeType.compare(r[keyParts], best[keyParts]);
        if (c == 0) {
            c = rangeType.compare(r[keyParts + 1], best[keyParts + 1]);
        }
        return max ? c > 0 : c < 0;
    }

    @Override
    public List<Object[]> rows() {
        return rows;
    }

    @Override
    public long elementCount() {
        return rows.size();
    }

    @Override
    public double loadFactor() {
        long capacity = 256;
        while (capacity < ranges.size() * 2L) {
            capacity *= 2;
        }
        return (double) ranges.size() / capacity;
    }
}
