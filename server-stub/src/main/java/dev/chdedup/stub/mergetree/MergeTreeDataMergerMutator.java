package dev.chdedup.stub.mergetree;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the result of a merge or a mutation as a temporary part, after ClickHouse's
 * {@code MergeTreeDataMergerMutator}: it reads the source parts and never touches the active set, which the
 * storage changes through {@link MergeTreeData#renameTempPartAndReplace} once the result is on disk. A merge's
 * rows are its sources' rows in order, sorted stably by the key, so the same sources give the same part.
 */
public final class MergeTreeDataMergerMutator {
    private final MergeTreeData data;
    private final Sorter sorter;

    /** Sorts rows by the table's ORDER BY key, stably. */
    @FunctionalInterface
    public interface Sorter {
        void sortByKey(List<Object[]> rows);
    }

    /** Rewrites one row of a mutation: returns the new row, or null to delete it. */
    @FunctionalInterface
    public interface RowMutation {
        Object[] apply(Object[] row);
    }

    /** A written result: the new part's info, and its temporary file (null when a mutation deleted every row). */
    public record Result(MergeTreePartInfo info, MergeTreeData.TempPart tmp) {
    }

    public MergeTreeDataMergerMutator(MergeTreeData data, Sorter sorter) {
        this.data = data;
        this.sorter = sorter;
    }

    /** The info of the part merging {@code sources} (adjacent parts of one partition) makes. */
    public static MergeTreePartInfo mergedInfo(List<DataPart> sources) {
        int level = 0;
        long mutation = 0;
        for (DataPart p : sources) {
            level = Math.max(level, p.info().level());
            mutation = Math.max(mutation, p.info().mutation());
        }
        DataPart first = sources.get(0);
        DataPart last = sources.get(sources.size() - 1);
        return new MergeTreePartInfo(first.info().partitionId(), first.info().minBlock(), last.info().maxBlock(), level + 1, mutation);
    }

    public Result mergePartsToTemporaryPart(List<DataPart> sources, boolean fsync) {
        List<Object[]> rows = new ArrayList<>();
        for (DataPart p : sources) {
            rows.addAll(p.rows());
        }
        sorter.sortByKey(rows);
        MergeTreePartInfo info = mergedInfo(sources);
        return new Result(info, data.writeTempPart(info.partitionId(), rows, List.of(), fsync));
    }

    /**
     * Applies {@code mutation} to {@code source} as mutation {@code version} (null: a mutation that changes no row of
     * it). A part it leaves unchanged is linked under the new version; a result without a file means every row went.
     */
    public Result mutatePartToTemporaryPart(DataPart source, RowMutation mutation, long version, boolean fsync) {
        if (mutation == null) {
            return unchanged(source, source.info().withMutation(version), fsync);
        }
        List<Object[]> out = new ArrayList<>(source.rows().size());
        boolean changed = false;
        for (Object[] r : source.rows()) {
            Object[] m = mutation.apply(r);
            if (m != r) {
                changed = true;
            }
            if (m != null) {
                out.add(m);
            }
        }
        MergeTreePartInfo info = source.info().withMutation(version);
        if (!changed) {
            return unchanged(source, info, fsync);
        }
        if (out.isEmpty()) {
            return new Result(null, null);
        }
        sorter.sortByKey(out);
        return new Result(info, data.writeTempPart(info.partitionId(), out, List.of(), fsync));
    }

    /** A part a mutation leaves as it is: linked under the new version (no copy), so the mutation counts as done for it. */
    private Result unchanged(DataPart source, MergeTreePartInfo info, boolean fsync) {
        return new Result(info, data.linkTempPart(source));
    }
}
