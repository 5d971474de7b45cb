package dev.chdedup.stub.dictionaries;

import java.util.Arrays;
import java.util.List;

/**
 * DIRECT and COMPLEX_KEY_DIRECT, as ClickHouse's DirectDictionary: nothing is held; each lookup asks the source for
 * its key, so a lookup sees the source as it is now, and a SELECT from the dictionary reads the whole source.
 */
final class DirectDictionary implements LoadedDictionary {
    private final IDictionarySource source;
    private final int keyParts;

    DirectDictionary(DictionaryStructure structure, IDictionarySource source) {
        this.source = source;
        this.keyParts = structure.keys.size();
    }

    @Override
    public Object[] find(Object[] key, Object rangePoint) {
        List<Object[]> rows = source.loadKeys(List.<Object[]>of(key));
        return rows.isEmpty() ? null : Arrays.copyOfRange(rows.get(0), keyParts, rows.get(0).length);
    }

    @Override
    public List<Object[]> rows() {
        return source.loadAll();
    }

    @Override
    public long elementCount() {
        return 0;
    }

    @Override
    public double loadFactor() {
        return 0;
    }
}
