package dev.chdedup.stub.mergetree;

import java.util.List;

/**
 * Chooses which adjacent parts of one partition to merge, after ClickHouse's {@code SimpleMergeSelector}, size
 * tiered: once a partition has more than {@link #MERGE_TRIGGER_PARTS} parts, the run of 2 to
 * {@link #MAX_PARTS_TO_MERGE} adjacent parts with the fewest rows per part among the runs whose largest part is at
 * most half of the result, so a big part is not rewritten for a few small ones. Only runs in which every adjacent
 * pair passes the caller's {@link CanMerge} predicate are considered (a part already being merged or mutated, a
 * mutation between two parts, or, for a replicated table, a block number still being committed between them).
 */
public final class SimpleMergeSelector {
    /** A partition with more active parts than this gets a background merge. */
    static final int MERGE_TRIGGER_PARTS = 16;
    /** At most this many parts are merged at once. */
    static final int MAX_PARTS_TO_MERGE = 32;

    /** Whether two adjacent parts may be merged together. */
    @FunctionalInterface
    public interface CanMerge {
        boolean test(IMergeTreeDataPart left, IMergeTreeDataPart right);
    }

    private SimpleMergeSelector() {
    }

    /** The run to merge in {@code ps} (one partition's parts in block order), as [from, to), or null. */
    public static int[] select(List<IMergeTreeDataPart> ps, CanMerge canMerge) {
        int n = ps.size();
        if (n <= MERGE_TRIGGER_PARTS) {
            return null;
        }
        int bestFrom = -1;
        int bestLen = 0;
        long bestRows = Long.MAX_VALUE;
        long[] prefix = new long[n + 1];
        for (int i = 0; i < n; i++) {
            prefix[i + 1] = prefix[i] + Math.max(1, ps.get(i).rowCount());
        }
        for (int i = 0; i + 1 < n; i++) {
            long max = Math.max(1, ps.get(i).rowCount());
            for (int len = 2; len <= MAX_PARTS_TO_MERGE && i + len <= n; len++) {
                if (!canMerge.test(ps.get(i + len - 2), ps.get(i + len - 1))) {
                    break;
                }
                max = Math.max(max, Math.max(1, ps.get(i + len - 1).rowCount()));
                long sum = prefix[i + len] - prefix[i];
                // prefer the longest run among those with the fewest rows per part merged
                boolean better = bestFrom < 0 || sum * bestLen < bestRows * len || sum * bestLen == bestRows * len && len > bestLen;
                if (max * 2 <= sum && better) {
                    bestRows = sum;
                    bestFrom = i;
                    bestLen = len;
                }
            }
        }
        return bestFrom < 0 ? null : new int[] {bestFrom, bestFrom + bestLen};
    }
}
