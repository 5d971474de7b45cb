package dev.chdedup.stub.exec;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A value of a Map type as ClickHouse's ColumnMap holds one: a list of key-value pairs in order, where a key may repeat
 * ({@code map('a', 1, 'a', 2)} keeps both). It is seen as a {@code java.util.Map} so that the types and formats read it
 * as any other map value: iteration gives every pair in order, {@code size} counts them, {@code get} finds the first
 * pair of a key, as the engine's {@code m[key]} does. Immutable.
 */
final class MapEntries extends AbstractMap<Object, Object> {
    private final List<Map.Entry<Object, Object>> entries;

    private MapEntries(List<Map.Entry<Object, Object>> entries) {
        this.entries = entries;
    }

    /** The pairs {@code keys[i]: values[i]}. */
    static MapEntries of(List<?> keys, List<?> values) {
        List<Map.Entry<Object, Object>> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            out.add(new SimpleImmutableEntry<>(keys.get(i), values.get(i)));
        }
        return new MapEntries(Collections.unmodifiableList(out));
    }

    /** The pairs of a list of entries, in its order. */
    static MapEntries ofEntries(List<Map.Entry<Object, Object>> entries) {
        return new MapEntries(List.copyOf(entries.stream().map(e -> (Map.Entry<Object, Object>) new SimpleImmutableEntry<>(e)).toList()));
    }

    /** The pairs of any map value, in its iteration order. */
    static List<Map.Entry<Object, Object>> entries(Object map) {
        if (map instanceof MapEntries) {
            return ((MapEntries) map).entries;
        }
        List<Map.Entry<Object, Object>> out = new ArrayList<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) map).entrySet()) {
            out.add(new SimpleImmutableEntry<>(e.getKey(), e.getValue()));
        }
        return out;
    }

    @Override
    public Set<Map.Entry<Object, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<Object, Object>> iterator() {
                return entries.iterator();
            }

            @Override
            public int size() {
                return entries.size();
            }
        };
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public Object get(Object key) {
        for (Map.Entry<Object, Object> e : entries) {
            if (java.util.Objects.equals(e.getKey(), key)) {
                return e.getValue();
            }
        }
        return null;
    }
}
