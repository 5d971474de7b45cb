package dev.chdedup.stub.dictionaries;

import java.util.List;

/**
 * A dictionary's entries as one load left them, in the form its layout keeps them (ClickHouse's HashedDictionary,
 * FlatDictionary, RangeHashedDictionary, DirectDictionary, CacheDictionary): a reload makes a new one, so its counts
 * belong to that load. Rows are the dictionary's columns: the key's parts, a range's two bounds, the attributes.
 */
interface LoadedDictionary {
    /** The attribute values of the entry for {@code key} at {@code rangePoint} (null unless a range dictionary), or null. */
    Object[] find(Object[] key, Object rangePoint);

    /** The entries as rows, for a SELECT from the dictionary. */
    List<Object[]> rows();

    /** system.dictionaries' element_count. */
    long elementCount();

    /** system.dictionaries' load_factor: how full the layout's table is. */
    double loadFactor();

    /** system.dictionaries' hit_rate: the share of lookups a cache answered without its source; 1 for the others. */
    default double hitRate() {
        return 1;
    }

    /** The key of a lookup as the layout's maps hold it: the one part of a simple key, a list of a complex key's parts. */
    static Object keyOf(Object[] key) {
        return key.length == 1 ? key[0] : java.util.Arrays.asList(key.clone());
    }
}
