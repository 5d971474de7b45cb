package dev.chdedup.stub.mergetree;

import java.util.List;

/**
 * An immutable data part: its info, rows sorted by the table's ORDER BY key (in table column order), and when it
 * was written. The rows are also on disk under the table directory; memory holds them for reading.
 */
public record DataPart(MergeTreePartInfo info, List<Object[]> rows, long modificationTime, long bytesOnDisk) {
    public String name() {
        return info.name();
    }

    public long rowCount() {
        return rows.size();
    }
}
