package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/**
 * A part's identity: partition id, block number range, merge level and mutation version, named
 * {@code <partition>_<min>_<max>_<level>[_<mutation>]}. Mirrors ClickHouse's {@code MergeTreePartInfo}: a part
 * covers another of the same partition when its block range contains the other's and its level and mutation
 * version are at least as high (a mutated part replaces its previous version).
 */
public record MergeTreePartInfo(String partitionId, long minBlock, long maxBlock, int level, long mutation)
    implements Comparable<MergeTreePartInfo> {

    public MergeTreePartInfo(String partitionId, long minBlock, long maxBlock, int level) {
        this(partitionId, minBlock, maxBlock, level, 0);
    }

    public String name() {
        return partitionId + "_" + minBlock + "_" + maxBlock + "_" + level + (mutation > 0 ? "_" + mutation : "");
    }

    public MergeTreePartInfo withMutation(long m) {
        return new MergeTreePartInfo(partitionId, minBlock, maxBlock, level, m);
    }

    public static MergeTreePartInfo parse(String name) {
        MergeTreePartInfo p = tryParse(name);
        if (p == null) {
            throw new ChException(ErrorCode.BAD_DATA_PART_NAME, "Unexpected part name: " + name);
        }
        return p;
    }

    /** Parses a part name; partition ids never contain '_', so five fields carry a mutation version. */
    public static MergeTreePartInfo tryParse(String name) {
        String[] f = name.split("_");
        if (f.length != 4 && f.length != 5 || f[0].isEmpty()) {
            return null;
        }
        try {
            long min = Long.parseLong(f[1]);
            long max = Long.parseLong(f[2]);
            int level = Integer.parseInt(f[3]);
            long mutation = f.length == 5 ? Long.parseLong(f[4]) : 0;
            if (min > max || min < 0 || level < 0 || mutation < 0) {
                return null;
            }
            return new MergeTreePartInfo(f[0], min, max, level, mutation);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public boolean contains(MergeTreePartInfo o) {
        return partitionId.equals(o.partitionId) && minBlock <= o.minBlock && maxBlock >= o.maxBlock && level >= o.level
            && mutation >= o.mutation;
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
        if (c != 0) {
            return c;
        }
        c = Integer.compare(level, o.level);
        return c != 0 ? c : Long.compare(mutation, o.mutation);
    }

    @Override
    public String toString() {
        return name();
    }
}
