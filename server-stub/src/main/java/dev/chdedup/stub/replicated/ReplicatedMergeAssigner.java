package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.chdedup.stub.mergetree.SimpleMergeSelector;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;

/**
 * Writes the log entries that change parts on every replica, after the merge selecting and partition dropping of
 * {@code StorageReplicatedMergeTree}: MERGE_PARTS for OPTIMIZE (only of parts committed before the locks are read,
 * never across a block number still locked under
 * {@code block_numbers/}, across a part still waiting in this replica's queue, over a part whose quorum insert is still
 * open, nor across parts at different mutation versions) and DROP_RANGE for DROP PARTITION
 * and TRUNCATE (the range ends below a block number taken for it, so inserts that commit later survive). Each call
 * then waits until this replica applied what it wrote, as ClickHouse's {@code replication_alter_partitions_sync=1}.
 */
final class ReplicatedMergeAssigner {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicatedMergeAssigner.class);
    private static final long WAIT_MS = 60_000;
    /** For tests: runs in OPTIMIZE's predicate right after it read the block-number locks (null: nothing). */
    static volatile Runnable afterLocksRead;

    private ReplicatedMergeAssigner() {
    }

    static boolean assignAll(StorageReplicatedMergeTree t, String onlyPartition, boolean fin) {
        boolean any = false;
        List<String> written = new ArrayList<>();
        try {
            // the entries read now committed before the locks are read (see ReplicatedMergeTreeQueue.committedBefore)
            t.queue().pullLogsToQueue();
            long committedBefore = t.queue().logPointer();
            Map<String, BlockNumbers> locks = blockNumbers(t);
            Runnable hook = afterLocksRead;
            if (hook != null) {
                hook.run();
            }
            t.mutations().forceUpdate();
            // the parts this replica still has to get belong to the merge too: wait until they are here
            t.queue().pullLogsToQueue();
            if (!t.queue().waitForPendingParts(onlyPartition, WAIT_MS)) {
                throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Cannot select parts for optimization: the replication queue of "
                    + t.replicaName() + " still has parts to get");
            }
            List<ReplicatedMergeTreeLogEntry> queued = t.queue().entriesForMerge();
            Map<String, List<IMergeTreeDataPart>> byPartition = partsByPartition(t);
            java.util.Set<String> quorumOpen = ReplicatedMergeTreeQuorum.partsInProgress(t.zk(), t.paths());
            for (Map.Entry<String, List<IMergeTreeDataPart>> e : byPartition.entrySet()) {
                if (onlyPartition != null && !onlyPartition.equals(e.getKey())) {
                    continue;
                }
                BlockNumbers numbers = locks.get(e.getKey());
                if (numbers == null) {
                    continue; // a partition newer than the locks read: the next OPTIMIZE takes it
                }
                List<IMergeTreeDataPart> ps = t.queue().committedBefore(e.getValue(), committedBefore);
                if (ps.size() < e.getValue().size()) {
                    continue; // a part committed after the locks were read: the next OPTIMIZE takes them all
                }
                if (ps.stream().anyMatch(p -> quorumOpen.contains(p.name()))) {
                    continue;
                }
                if (!(ps.size() > 1 || fin && ps.size() == 1 && ps.get(0).info().level() == 0)) {
                    continue;
                }
                MergeTreePartInfo merged = MergeTreeDataMergerMutator.mergedInfo(ps);
                if (numbers.locked().stream().anyMatch(n -> n >= merged.minBlock() && n <= merged.maxBlock()) || ReplicatedMergeTreeQueue.blocksMerge(queued, merged, ps)
                    || !sameMutationVersion(t, ps) || strayPart(t, merged, ps) != null) {
                    continue;
                }
                List<String> names = ps.stream().map(IMergeTreeDataPart::name).toList();
                written.add(t.zk().create(t.paths().log() + "/log-", ReplicatedMergeTreeLogEntry.mergeParts(t.replicaName(), names,
                    merged.name()).toText(), CreateMode.PERSISTENT_SEQUENTIAL));
                any = true;
            }
            if (any) {
                waitApplied(t, written);
            }
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("assigning a merge", e);
        }
        return any;
    }

    /**
     * The leader's background merge selecting, after {@code StorageReplicatedMergeTree::mergeSelectingTask}: picks a run
     * of adjacent parts with {@link SimpleMergeSelector} where no block number between two of them is locked, no part
     * waits in the queue and no queued merge already takes one of them, and writes its MERGE_PARTS entry. Returns
     * whether it assigned one.
     */
    static boolean selectBackgroundMerge(StorageReplicatedMergeTree t) throws Exception {
        if (t.mergesStopped() || t.isReadonly() || !t.isLeader()) {
            return false;
        }
        // order matters: a pull, then block numbers, then the log again, then the queue, then the parts (see
        // ReplicatedMergeTreeQueue.committedBefore and blocksMerge)
        t.queue().pullLogsToQueue();
        long committedBefore = t.queue().logPointer();
        t.queue().forgetLogIndexes();
        Map<String, BlockNumbers> locks = blockNumbers(t);
        t.mutations().forceUpdate();
        t.queue().pullLogsToQueue();
        List<ReplicatedMergeTreeLogEntry> queued = t.queue().entriesForMerge();
        Map<String, List<IMergeTreeDataPart>> byPartition = partsByPartition(t);
        java.util.Set<String> quorumOpen = ReplicatedMergeTreeQuorum.partsInProgress(t.zk(), t.paths());
        for (Map.Entry<String, List<IMergeTreeDataPart>> e : byPartition.entrySet()) {
            BlockNumbers numbers = locks.get(e.getKey());
            if (numbers == null) {
                continue;
            }
            List<Long> locked = numbers.locked();
            List<IMergeTreeDataPart> ps = t.queue().committedBefore(e.getValue(), committedBefore);
            int[] run = SimpleMergeSelector.select(ps, (left, right) -> !quorumOpen.contains(left.name()) && !quorumOpen.contains(right.name())
                && locked.stream().noneMatch(n -> n > left.info().maxBlock() && n < right.info().minBlock())
                && sameMutationVersion(t, List.of(left, right))
                && !ReplicatedMergeTreeQueue.blocksMerge(queued, new MergeTreePartInfo(left.info().partitionId(), left.info().minBlock(), right.info().maxBlock(), 0),
                    List.of(left, right)));
            if (run != null) {
                List<IMergeTreeDataPart> sources = ps.subList(run[0], run[1]);
                MergeTreePartInfo merged = MergeTreeDataMergerMutator.mergedInfo(sources);
                if (ReplicatedMergeTreeQueue.blocksMerge(queued, merged, sources) || strayPart(t, merged, sources) != null) {
                    continue;
                }
                t.zk().create(t.paths().log() + "/log-", ReplicatedMergeTreeLogEntry.mergeParts(t.replicaName(),
                    sources.stream().map(IMergeTreeDataPart::name).toList(), merged.name()).toText(), CreateMode.PERSISTENT_SEQUENTIAL);
                LOG.debug("{}.{}: selected {} parts from {} to {}", t.database(), t.name(), sources.size(), sources.get(0).name(),
                    sources.get(sources.size() - 1).name());
                t.queue().wakeUp();
                return true;
            }
        }
        return false;
    }

    /**
     * The last look before a merge is assigned: a part that some replica lists in ZooKeeper inside {@code range} and
     * that none of {@code sources} covers, or null. Every committed part is listed under its writer from its commit
     * multi on, so this does not depend on this replica's queue and parts being up to date; the predicate above should
     * never leave such a part, and when it does, the merge is not assigned (its rows would be dropped on every replica)
     * and a warning says what this replica knew of the part.
     */
    static String strayPart(StorageReplicatedMergeTree t, MergeTreePartInfo range, List<IMergeTreeDataPart> sources) throws Exception {
        ZooKeeperClient zk = t.zk();
        for (String replica : t.replicaNames()) {
            for (String name : zk.children(t.replicaPathOf(replica) + "/parts")) {
                MergeTreePartInfo p = MergeTreePartInfo.tryParse(name);
                if (p == null || !p.partitionId().equals(range.partitionId()) || p.isDisjoint(range)
                    || sources.stream().anyMatch(s -> s.info().contains(p))) {
                    continue;
                }
                LOG.warn("{}.{}: no merge into {}: replica {} lists part {} inside it, which is not among the sources {} (queued here: {}, active"
                    + " here: {})", t.database(), t.name(), range.name(), replica, name, sources.stream().map(IMergeTreeDataPart::name).toList(),
                    t.queue().entriesForMerge().stream().anyMatch(e -> name.equals(e.newPartName())), t.parts().activePart(name) != null);
                return name;
            }
        }
        return null;
    }

    /**
     * Whether the parts are at the same current mutation version (ClickHouse's merge predicate), so the merged part's
     * version is true for all of its rows: a merge never hides rows a mutation still has to change.
     */
    private static boolean sameMutationVersion(StorageReplicatedMergeTree t, List<IMergeTreeDataPart> parts) {
        long v = Long.MIN_VALUE;
        for (IMergeTreeDataPart p : parts) {
            long c = t.mutations().currentMutationVersion(p.info().partitionId(), p.dataVersion());
            if (v != Long.MIN_VALUE && c != v) {
                return false;
            }
            v = c;
        }
        return true;
    }

    private static Map<String, List<IMergeTreeDataPart>> partsByPartition(StorageReplicatedMergeTree t) {
        Map<String, List<IMergeTreeDataPart>> byPartition = new LinkedHashMap<>();
        for (IMergeTreeDataPart p : t.parts().activeParts()) {
            byPartition.computeIfAbsent(p.info().partitionId(), k -> new ArrayList<>()).add(p);
        }
        return byPartition;
    }

    /** A partition's block numbers still locked (inserts committing) when the merge predicate began. */
    record BlockNumbers(List<Long> locked) {
    }

    /** Every partition's {@link BlockNumbers}: read after a first pull, before the log is pulled again and the parts are read. */
    private static Map<String, BlockNumbers> blockNumbers(StorageReplicatedMergeTree t) throws Exception {
        Map<String, BlockNumbers> out = new LinkedHashMap<>();
        for (String partition : t.zk().children(t.paths().node("block_numbers"))) {
            List<Long> locked = new ArrayList<>();
            for (String lock : t.zk().children(t.paths().blockNumbers(partition))) {
                if (lock.startsWith("block-")) {
                    locked.add(Long.parseLong(lock.substring("block-".length())));
                }
            }
            out.put(partition, new BlockNumbers(locked));
        }
        return out;
    }

    /** DROP PARTITION: a DROP_RANGE up to (not including) a freshly taken block number; returns the local parts dropped. */
    static List<IMergeTreeDataPart> dropRange(StorageReplicatedMergeTree t, String partitionId) {
        try {
            ZooKeeperClient zk = t.zk();
            zk.tryCreate(t.paths().blockNumbers(partitionId), "");
            EphemeralLockInZooKeeper lock = EphemeralLockInZooKeeper.acquire(zk, t.paths().blockNumbers(partitionId) + "/block-", List.of());
            if (lock.number() == 0) {
                lock.unlock(zk);
                return List.of();
            }
            // the range carries the partition's mutation version, as ClickHouse's getFakePartCoveringAllPartsInPartition
            // makes it: a part a mutation rewrote (all_0_0_0_1) is inside it
            long right = lock.number() - 1;
            long mutation = Math.max(0, t.mutations().currentMutationVersion(partitionId, right));
            return dropRange(t, new MergeTreePartInfo(partitionId, 0, right, 999_999_999, mutation), lock);
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("dropping partition " + partitionId, e);
        }
    }

    /** DROP PART: a DROP_RANGE of one part's range. */
    static List<IMergeTreeDataPart> dropRange(StorageReplicatedMergeTree t, MergeTreePartInfo range) {
        try {
            return dropRange(t, range, null);
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("dropping part range " + range.name(), e);
        }
    }

    /**
     * Clears the range's block ids, then writes DROP_RANGE (releasing {@code lock} in the same multi) and waits for this
     * replica, in ClickHouse's order: the cleanup that executing the entry wakes sees the dropped ids gone.
     */
    private static List<IMergeTreeDataPart> dropRange(StorageReplicatedMergeTree t, MergeTreePartInfo range, EphemeralLockInZooKeeper lock) throws Exception {
        ZooKeeperClient zk = t.zk();
        List<IMergeTreeDataPart> before = t.parts().activeParts().stream().filter(p -> p.info().partitionId().equals(range.partitionId())).toList();
        clearBlocksInPartition(t, range);
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(zk.op().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(t.paths().log() + "/log-",
            ZooKeeperClient.bytes(ReplicatedMergeTreeLogEntry.dropRange(t.replicaName(), range.name()).toText())));
        if (lock != null) {
            ops.add(lock.unlockOp(zk));
        }
        List<String> created = zk.multiPaths(ops);
        waitApplied(t, List.of(created.get(0)));
        return before.stream().filter(p -> range.contains(p.info())).toList();
    }

    /**
     * Removes the block ids of the parts inside a dropped range, as ClickHouse's {@code clearBlocksInPartition}, so the
     * same rows can be inserted again once their partition is gone.
     */
    private static void clearBlocksInPartition(StorageReplicatedMergeTree t, MergeTreePartInfo range) throws Exception {
        ZooKeeperClient zk = t.zk();
        for (String id : zk.children(t.paths().blocks())) {
            if (!id.startsWith(range.partitionId() + "_")) {
                continue;
            }
            String part = zk.get(t.paths().blockId(id));
            MergeTreePartInfo info = part == null ? null : MergeTreePartInfo.tryParse(part);
            if (info != null && range.contains(info)) {
                zk.tryDelete(t.paths().blockId(id));
            }
        }
    }

    /** Waits until this replica ran the log entries at {@code logPaths} (and no others: a fetch that hangs does not hold it up). */
    private static void waitApplied(StorageReplicatedMergeTree t, List<String> logPaths) throws Exception {
        if (!t.queue().waitForLogEntries(logPaths.stream().map(p -> p.substring(p.lastIndexOf('/') + 1)).toList(), WAIT_MS)) {
            throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Timeout while waiting for replica " + t.replicaName() + " to apply the log");
        }
    }
}
