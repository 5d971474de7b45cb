package dev.chdedup.stub.mergetree;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable data part (ClickHouse's {@code IMergeTreeDataPart}): its info, how many rows it holds (sorted by the
 * table's ORDER BY key, in table column order), when it was written, its size, the block ids it was inserted with
 * (empty for merged and mutated parts) and where its rows are on disk. Memory holds no rows: they are read from the file as they are needed.
 */
public record IMergeTreeDataPart(MergeTreePartInfo info, long rowCount, long modificationTime, long bytesOnDisk,
                                 List<String> blockIds, DataPartStorageOnDisk.Layout layout, PartFile file) {
    IMergeTreeDataPart(MergeTreePartInfo info, long rowCount, long modificationTime, long bytesOnDisk, List<String> blockIds,
                       DataPartStorageOnDisk.Layout layout, Path root) {
        this(info, rowCount, modificationTime, bytesOnDisk, blockIds, layout, new PartFile(root, layout.file()));
    }

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

    /**
     * A reader of the part's rows in order, holding a lease on its file (see {@link PartFile}); the caller takes it
     * while the part is active (under the parts lock), and the file opens at the first row.
     */
    MergeTreeDataPartReader openRows() {
        file.acquire();
        return new MergeTreeDataPartReader(this);
    }

    /** The part's files as one body, for another replica to fetch ({@link DataPartStorageOnDisk#bytesOf}); the caller holds the parts lock. */
    public byte[] bytesForFetch() throws java.io.IOException {
        return DataPartStorageOnDisk.bytesOf(file.root());
    }

    /** All rows of the part in memory, for small parts only (tests, populating a view). */
    public List<Object[]> readAllRows() {
        List<Object[]> rows = new ArrayList<>((int) Math.min(rowCount, 1 << 20));
        try (MergeTreeDataPartReader r = openRows()) {
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
