package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.DataType;
import java.util.List;

/**
 * A dictionary as the dictGet functions and the {@code dictionary()} table function use it, after ClickHouse's
 * IDictionary (src/Dictionaries/IDictionary.h): its key and attributes, a lookup of one key, and its entries read as a
 * table ({@link TableSource}: the key columns, a range dictionary's bounds, the attributes). The dictionaries of the
 * server (package {@code dictionaries}) implement it; {@link Catalog#dictionary} finds one by name. Loading is the
 * dictionary's business: {@link #load} and every lookup load it on first use, and again once its LIFETIME is over.
 */
public interface IDictionary extends TableSource {
    /** {@code db.name}, as the engine's messages name a dictionary. */
    String getFullName();

    /** The key: one UInt64 column for a simple key, the key attributes of a complex one. */
    List<Column> keyColumns();

    /** Whether the key is complex (a tuple of the key attributes), as the COMPLEX_KEY_ layouts have it. */
    boolean isComplexKey();

    /** The type of a range dictionary's bounds (the range argument of dictGet is converted to it), else null. */
    DataType rangeType();

    /** The attributes, in order, with their types. */
    List<Column> attributes();

    /** Attribute {@code i}'s value for a key the dictionary does not hold: its DEFAULT, else its type's default. */
    Object nullValue(int attribute);

    /** The index of the HIERARCHICAL attribute, or -1 when the dictionary has none. */
    int hierarchicalAttribute();

    /** Loads the dictionary if it is not loaded, or no longer fresh; throws the exception its loading ended with. */
    void load();

    /**
     * The attribute values of the entry for {@code key} (its parts in the key columns' types) at {@code rangePoint} (a
     * range dictionary's point, in {@link #rangeType()}; else null), or null when the dictionary holds none.
     */
    Object[] getEntry(Object[] key, Object rangePoint);

    /**
     * Counts a lookup for system.dictionaries (query_count, found_rate), as the engine counts them: one a key a function
     * asks for (dictGetOrNull asks twice: whether the key is there, then its values), {@code found} when it was there.
     */
    void addQuery(boolean found);
}
