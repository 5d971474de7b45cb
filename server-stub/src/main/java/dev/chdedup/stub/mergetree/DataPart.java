package dev.chdedup.stub.mergetree;

import java.util.List;

/**
 * An immutable data part: its info, rows sorted by the table's ORDER BY key (in table column order), when it
 * was written, its size, and the block ids it was inserted with (empty for merged and mutated parts). The rows
 * are also on disk under the table directory; memory holds them for reading.
 */
public record DataPart(MergeTreePartInfo info, List<Object[]> rows, long modificationTime, long bytesOnDisk, List<String> blockIds) {
    public String name() {
        return info.name();
    }

    public long rowCount() {
        return rows.size();
    }

    /**
     * The version of the data in this part: its mutation version if it was mutated, else its first block number.
     * A mutation with a higher version still has to be applied to it.
     */
    public long dataVersion() {
        return info.mutation() > 0 ? info.mutation() : info.minBlock();
    }
}
