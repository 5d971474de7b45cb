package dev.chdedup.stub.mergetree;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Writes the result of a merge or a mutation as a temporary part, after ClickHouse's
 * {@code MergeTreeDataMergerMutator}: it reads the source parts and never touches the active set, which the
 * storage changes through {@link MergeTreeData#renameTempPartAndReplace} once the result is on disk. Both stream:
 * a merge reads its sorted sources side by side and writes their rows in key order (ties in source order, so the
 * same sources always give the same bytes); a mutation rewrites one part row by row (it cannot change the key, so
 * the order stays). Memory holds one row per source, never a part.
 */
public final class MergeTreeDataMergerMutator {
    private final MergeTreeData data;
    private final KeyOrder order;
    /** What the engine does to the rows of one key when parts merge (MergingModes); KEEP_ALL for MergeTree. */
    private final MergingMode mode;

    /** Hook for the MergeTree family's merge semantics: turns the merged rows (in key order) into the rows kept. */
    @FunctionalInterface
    public interface MergingMode {
        MergingMode KEEP_ALL = (rows, order) -> rows;

        Iterator<Object[]> merge(Iterator<Object[]> rowsInKeyOrder, KeyOrder order);
    }

    /** The table's ORDER BY key: computes a row's key and compares two keys. */
    public interface KeyOrder {
        /** False when the table has no sorting key (ORDER BY tuple()): rows keep their order. */
        boolean sorted();

        Object key(Object[] row);

        int compare(Object a, Object b);
    }

    /** Rewrites one row of a mutation: returns the new row, or null to delete it. */
    @FunctionalInterface
    public interface RowMutation {
        Object[] apply(Object[] row);
    }

    /** A written result: the new part's info, and its temporary file (null when a mutation deleted every row). */
    public record Result(MergeTreePartInfo info, MergeTreeData.TempPart tmp) {
    }

    public MergeTreeDataMergerMutator(MergeTreeData data, KeyOrder order) {
        this(data, order, MergingMode.KEEP_ALL);
    }

    public MergeTreeDataMergerMutator(MergeTreeData data, KeyOrder order, MergingMode mode) {
        this.data = data;
        this.order = order;
        this.mode = mode;
    }

    /** The info of the part merging {@code sources} (adjacent parts of one partition) makes. */
    public static MergeTreePartInfo mergedInfo(List<IMergeTreeDataPart> sources) {
        int level = 0;
        long mutation = 0;
        for (IMergeTreeDataPart p : sources) {
            level = Math.max(level, p.info().level());
            mutation = Math.max(mutation, p.info().mutation());
        }
        IMergeTreeDataPart first = sources.get(0);
        IMergeTreeDataPart last = sources.get(sources.size() - 1);
        return new MergeTreePartInfo(first.info().partitionId(), first.info().minBlock(), last.info().maxBlock(), level + 1, mutation);
    }

    /** Merges sources the caller opened (in block order) into a temporary part; closes the readers. */
    public Result mergePartsToTemporaryPart(List<IMergeTreeDataPart> sources, List<MergeTreeDataPartReader> readers, boolean fsync) {
        MergeTreePartInfo info = mergedInfo(sources);
        try {
            return new Result(info, data.writeTempPart(info.partitionId(), mode.merge(new MergingIterator(readers), order), List.of(), fsync));
        } finally {
            readers.forEach(MergeTreeDataPartReader::close);
        }
    }

    /** The rows of sorted sources in key order; rows with equal keys in source order. */
    private final class MergingIterator implements Iterator<Object[]> {
        private record Head(Object key, int source, Object[] row) {
        }

        private final List<MergeTreeDataPartReader> sources;
        private final PriorityQueue<Head> heads;
        private int concatAt;

        MergingIterator(List<MergeTreeDataPartReader> sources) {
            this.sources = sources;
            this.heads = new PriorityQueue<>(Math.max(1, sources.size()), (a, b) -> {
                int c = order.compare(a.key, b.key);
                return c != 0 ? c : Integer.compare(a.source, b.source);
            });
            if (order.sorted()) {
                for (int i = 0; i < sources.size(); i++) {
                    advance(i);
                }
            }
        }

        private void advance(int i) {
            if (sources.get(i).hasNext()) {
                Object[] row = sources.get(i).next();
                heads.add(new Head(order.key(row), i, row));
            }
        }

        @Override
        public boolean hasNext() {
            if (order.sorted()) {
                return !heads.isEmpty();
            }
            while (concatAt < sources.size() && !sources.get(concatAt).hasNext()) {
                concatAt++;
            }
            return concatAt < sources.size();
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            if (!order.sorted()) {
                return sources.get(concatAt).next();
            }
            Head h = heads.poll();
            advance(h.source);
            return h.row;
        }
    }

    /**
     * Applies {@code mutation} to {@code source} as mutation {@code version} (null: a mutation that changes no row of
     * it). A part it leaves unchanged is linked under the new version; a result without a file means every row went.
     */
    public Result mutatePartToTemporaryPart(IMergeTreeDataPart source, MergeTreeDataPartReader rows, RowMutation mutation, long version, boolean fsync) {
        MergeTreePartInfo info = source.info().withMutation(version);
        try {
            if (mutation == null) {
                return unchanged(source, info, fsync);
            }
            boolean[] changed = new boolean[1];
            Iterator<Object[]> mutated = new Iterator<>() {
                private Object[] next;

                @Override
                public boolean hasNext() {
                    while (next == null && rows.hasNext()) {
                        Object[] r = rows.next();
                        Object[] m = mutation.apply(r);
                        changed[0] |= m != r;
                        next = m;
                    }
                    return next != null;
                }

                @Override
                public Object[] next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    Object[] r = next;
                    next = null;
                    return r;
                }
            };
            MergeTreeData.TempPart tmp = data.writeTempPart(info.partitionId(), mutated, List.of(), fsync);
            if (!changed[0] && source.layout().stored().equals(data.columns())) { // else an ALTER changed the columns: rewrite it
                tmp.discard();
                return unchanged(source, info, fsync);
            }
            if (tmp.file().rows() == 0) {
                tmp.discard();
                return new Result(null, null);
            }
            return new Result(info, tmp);
        } finally {
            rows.close();
        }
    }

    /** A part a mutation leaves as it is: linked under the new version (no copy), so the mutation counts as done for it. */
    private Result unchanged(IMergeTreeDataPart source, MergeTreePartInfo info, boolean fsync) {
        return new Result(info, data.linkTempPart(source));
    }
}
