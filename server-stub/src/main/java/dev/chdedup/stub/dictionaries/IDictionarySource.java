package dev.chdedup.stub.dictionaries;

import java.util.List;

/**
 * Where a dictionary's entries come from, after ClickHouse's IDictionarySource (src/Dictionaries/IDictionarySource.h):
 * each entry a row of the dictionary's columns in its types, the key (or the key attributes) first, then a range
 * dictionary's two bounds, then the attributes. {@link #toString()} is what system.dictionaries shows as the source.
 */
interface IDictionarySource {
    /** Every entry (a hashed, flat or range dictionary loads them all). */
    List<Object[]> loadAll();

    /** The entries of {@code keys} (each the key's parts), as a direct or cache dictionary asks for them. */
    List<Object[]> loadKeys(List<Object[]> keys);

    /** The source that has no entries: {@code SOURCE(NULL())}, as ClickHouse's NullDictionarySource. */
    IDictionarySource NULL = new IDictionarySource() {
        @Override
        public List<Object[]> loadAll() {
            return List.of();
        }

        @Override
        public List<Object[]> loadKeys(List<Object[]> keys) {
            return List.of();
        }

        @Override
        public String toString() {
            return "Null";
        }
    };
}
