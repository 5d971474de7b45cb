package dev.chdedup.stub.mergetree;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The set of active parts of a table: no part in it covers another. Adding a part removes the parts it covers
 * (a merge result replaces its sources). Mirrors ClickHouse's {@code ActiveDataPartSet}. Not thread-safe: the
 * owning table guards it.
 */
public final class ActiveDataPartSet {
    private final TreeMap<MergeTreePartInfo, IMergeTreeDataPart> parts = new TreeMap<>();

    /** Adds {@code part} unless an active part covers it; returns the parts it replaced, or null if covered. */
    public List<IMergeTreeDataPart> add(IMergeTreeDataPart part) {
        for (MergeTreePartInfo i : parts.keySet()) {
            if (i.contains(part.info()) && !i.equals(part.info())) {
                return null;
            }
        }
        List<IMergeTreeDataPart> removed = new ArrayList<>();
        parts.entrySet().removeIf(e -> {
            if (part.info().contains(e.getKey())) {
                removed.add(e.getValue());
                return true;
            }
            return false;
        });
        parts.put(part.info(), part);
        return removed;
    }

    public IMergeTreeDataPart remove(MergeTreePartInfo info) {
        return parts.remove(info);
    }

    public List<IMergeTreeDataPart> all() {
        return new ArrayList<>(parts.values());
    }

    public IMergeTreeDataPart get(String name) {
        MergeTreePartInfo i = MergeTreePartInfo.tryParse(name);
        return i == null ? null : parts.get(i);
    }

    public int size() {
        return parts.size();
    }

    public void clear() {
        parts.clear();
    }
}
