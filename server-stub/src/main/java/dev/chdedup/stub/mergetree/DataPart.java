package dev.chdedup.stub.mergetree;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable data part: its info, how many rows it holds (sorted by the table's ORDER BY key, in table column
 * order), when it was written, its size, the block ids it was inserted with (empty for merged and mutated parts)
 * and where its rows are on disk. Memory holds no rows: they are read from the file as they are needed.
 */
public record DataPart(MergeTreePartInfo info, long rowCount, long modificationTime, long bytesOnDisk, List<String> blockIds,
                       PartStore.Layout layout) {
    public String name() {
        return info.name();
    }

    /**
     * The version of the data in this part: its mutation version if it was mutated, else its first block number.
     * A mutation with a higher version still has to be applied to it.
     */
    public long dataVersion() {
        return info.mutation() > 0 ? info.mutation() : info.minBlock();
    }

    /** Opens the part's file for reading its rows in order; the caller makes sure the part is still on disk. */
    PartStore.RowReader openRows() {
        return new PartStore.RowReader(this);
    }

    /** All rows of the part in memory, for small parts only (tests, populating a view). */
    public List<Object[]> readAllRows() {
        List<Object[]> rows = new ArrayList<>((int) Math.min(rowCount, 1 << 20));
        try (PartStore.RowReader r = openRows()) {
            r.forEachRemaining(rows::add);
        }
        return rows;
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
