package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/**
 * A part's identity: partition id, block number range and merge level, named
 * {@code <partition>_<min>_<max>_<level>}. Mirrors ClickHouse's {@code MergeTreePartInfo}: a part covers another
 * of the same partition when its block range contains the other's and its level is at least as high.
 */
public record MergeTreePartInfo(String partitionId, long minBlock, long maxBlock, int level)
    implements Comparable<MergeTreePartInfo> {

    public String name() {
        return partitionId + "_" + minBlock + "_" + maxBlock + "_" + level;
    }

    public static MergeTreePartInfo parse(String name) {
        MergeTreePartInfo p = tryParse(name);
        if (p == null) {
            throw new ChException(ErrorCode.BAD_DATA_PART_NAME, "Unexpected part name: " + name);
        }
        return p;
    }

    public static MergeTreePartInfo tryParse(String name) {
        String[] f = name.split("_");
        if (f.length < 4) {
            return null;
        }
        try {
            int n = f.length;
            long min = Long.parseLong(f[n - 3]);
            long max = Long.parseLong(f[n - 2]);
            int level = Integer.parseInt(f[n - 1]);
            String partition = String.join("_", java.util.Arrays.copyOf(f, n - 3));
            if (partition.isEmpty() || min > max || min < 0 || level < 0) {
                return null;
            }
            return new MergeTreePartInfo(partition, min, max, level);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public boolean contains(MergeTreePartInfo o) {
        return partitionId.equals(o.partitionId) && minBlock <= o.minBlock && maxBlock >= o.maxBlock && level >= o.level;
    }

    public boolean isDisjoint(MergeTreePartInfo o) {
        return !partitionId.equals(o.partitionId) || maxBlock < o.minBlock || o.maxBlock < minBlock;
    }

    @Override
    public int compareTo(MergeTreePartInfo o) {
        int c = partitionId.compareTo(o.partitionId);
        if (c != 0) {
            return c;
        }
        c = Long.compare(minBlock, o.minBlock);
        if (c != 0) {
            return c;
        }
        c = Long.compare(maxBlock, o.maxBlock);
        return c != 0 ? c : Integer.compare(level, o.level);
    }

    @Override
    public String toString() {
        return name();
    }
}
