package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator;
import dev.chdedup.stub.mergetree.MergeTreeMutationEntry;
import dev.chdedup.stub.mergetree.MergeTreeMutationStatus;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;

/**
 * The mutations of one replicated table, after the mutation half of ClickHouse's {@code ReplicatedMergeTreeQueue}
 * ({@code updateMutations}, {@code tryFinalizeMutations}, {@code getMutationsStatus}) and
 * {@code StorageReplicatedMergeTree::mutate}/{@code waitMutation}. ALTER DELETE/UPDATE takes a block number in every
 * partition (ephemeral locks, one multi) and writes {@code mutations/NNNNNNNNNN} before it releases them, so
 * the mutation covers exactly the parts numbered below it. The leader then writes a MUTATE_PART log entry for each
 * part still below a mutation's number (the oldest such mutation first); each replica mutates its own copy (the same
 * bytes everywhere) or fetches the result. A replica's mutation is done once no part of its partitions, present or
 * queued, and no block still committing there is below the number; {@code replicas/<r>/mutation_pointer} names the
 * last mutation done in order on that replica, which is what {@code mutations_sync=2} waits for.
 */
final class ReplicatedMergeTreeMutations {
    private final StorageReplicatedMergeTree table;
    /** Every mutation node of the table by name, as last read; entries never change once written. Guarded by this. */
    private final TreeMap<String, ReplicatedMergeTreeMutationEntry> entries = new TreeMap<>();
    /** The row functions compiled for entries, by znode name. */
    private final Map<String, MergeTreeDataMergerMutator.RowMutation> functions = new ConcurrentHashMap<>();
    /** Set by the watch on {@code mutations/}: the list must be read again. */
    private volatile boolean stale = true;
    /** The mutation_pointer this replica last wrote. */
    private volatile String pointer;

    ReplicatedMergeTreeMutations(StorageReplicatedMergeTree table) {
        this.table = table;
    }

    private String dir() {
        return table.paths().node("mutations");
    }

    /**
     * Reads the list of mutations now, whatever the watch said; merge selecting calls it after reading the block-number
     * locks, so a mutation whose locks it did not see is known to it (the locks go in the multi that writes it).
     */
    synchronized List<ReplicatedMergeTreeMutationEntry> forceUpdate() throws Exception {
        stale = true;
        return update();
    }

    /** Reads new mutation nodes (and forgets removed ones) when the watch said the list changed. */
    synchronized List<ReplicatedMergeTreeMutationEntry> update() throws Exception {
        if (stale) {
            stale = false;
            ZooKeeperClient zk = table.zk();
            List<String> names = zk.children(dir(), event -> {
                stale = true;
                table.queue().wakeUp();
            });
            entries.keySet().retainAll(names);
            for (String n : names) {
                if (!entries.containsKey(n)) {
                    String text = zk.get(dir() + "/" + n);
                    if (text != null) {
                        entries.put(n, ReplicatedMergeTreeMutationEntry.parse(n, text));
                    }
                }
            }
        }
        return List.copyOf(entries.values());
    }

    /**
     * ALTER TABLE ... DELETE/UPDATE: takes a block number in every partition, writes the mutation node and releases
     * the numbers, and waits as {@code mutationsSync} says (0 no, 1 this replica, 2 every replica).
     */
    void mutate(String commands, MergeTreeDataMergerMutator.RowMutation function, long mutationsSync, long inactiveTimeoutMs) {
        String name;
        try {
            List<String> locks = takeBlockNumbers();
            try {
                name = createEntry(commands, locks, -1);
            } finally {
                releaseBlockNumbers(locks);
            }
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("creating a mutation", e);
        }
        registered(name, function);
        if (mutationsSync > 0) {
            waitMutation(name, mutationsSync >= 2, inactiveTimeoutMs);
        }
    }

    /** A block number in every partition of the table: ephemeral sequential locks under {@code block_numbers/<p>}. */
    List<String> takeBlockNumbers() throws Exception {
        ZooKeeperClient zk = table.zk();
        List<String> partitions = new ArrayList<>(zk.children(table.paths().node("block_numbers")));
        if (partitions.isEmpty()) {
            return List.of();
        }
        List<CuratorOp> take = new ArrayList<>();
        for (String p : partitions) {
            take.add(zk.op().create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(table.paths().blockNumbers(p) + "/block-"));
        }
        return zk.multiPaths(take);
    }

    /**
     * Writes the mutation node for {@code commands} at the numbers {@code locks} hold, of the ALTER whose metadata
     * version is {@code alterVersion} (-1: none); returns its name. Curator refuses the bare sequential name
     * ("mutations/") inside a multi, so the node goes first and the locks are released after it: a merge selector that
     * no longer sees a lock sees the mutation.
     */
    String createEntry(String commands, List<String> locks, int alterVersion) throws Exception {
        Map<String, Long> numbers = new TreeMap<>();
        for (String lock : locks) {
            String partition = lock.substring(0, lock.lastIndexOf('/'));
            numbers.put(partition.substring(partition.lastIndexOf('/') + 1), Long.parseLong(lock.substring(lock.length() - 10)));
        }
        ReplicatedMergeTreeMutationEntry entry = new ReplicatedMergeTreeMutationEntry("", System.currentTimeMillis() / 1000,
            table.replicaName(), numbers, commands, alterVersion);
        String path = table.zk().create(dir() + "/", entry.toText(table.context().config().legacyBlocksDirectory()), CreateMode.PERSISTENT_SEQUENTIAL);
        return path.substring(path.lastIndexOf('/') + 1);
    }

    void releaseBlockNumbers(List<String> locks) throws Exception {
        if (!locks.isEmpty()) {
            List<CuratorOp> release = new ArrayList<>();
            for (String lock : locks) {
                release.add(table.zk().op().delete().forPath(lock));
            }
            table.zk().multi(release);
        }
    }

    /** Removes a mutation node written for an ALTER that did not commit. */
    void forget(String name) throws Exception {
        table.zk().tryDelete(dir() + "/" + name);
        stale = true;
    }

    /** Makes {@code function} the row function of mutation {@code name} on this replica and wakes the queue. */
    void registered(String name, MergeTreeDataMergerMutator.RowMutation function) {
        functions.put(name, function);
        stale = true;
        table.queue().wakeUp();
    }

    /** The commands of the mutations that belong to the ALTER of metadata version {@code alterVersion}, in order. */
    List<String> commandsOfAlter(int alterVersion) throws Exception {
        List<String> out = new ArrayList<>();
        for (ReplicatedMergeTreeMutationEntry e : update()) {
            if (e.alterVersion() == alterVersion) {
                out.add(e.commands());
            }
        }
        return out;
    }

    /**
     * KILL MUTATION, as ClickHouse's {@code StorageReplicatedMergeTree::killMutation}: removes the mutation's node. A
     * replica's MUTATE_PART entry for it then fetches the result from a replica that already made it, or is dropped
     * when none did (parts already mutated stay so); returns whether the node existed.
     */
    boolean kill(String name) {
        try {
            boolean removed = table.zk().tryDelete(dir() + "/" + name);
            stale = true;
            functions.remove(name);
            table.queue().wakeUp();
            synchronized (this) {
                notifyAll();
            }
            return removed;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("killing mutation " + name, e);
        }
    }

    /** The row function of a mutation, compiled from its text on first use; null when no compiler is set yet. */
    MergeTreeDataMergerMutator.RowMutation function(ReplicatedMergeTreeMutationEntry e) {
        MergeTreeDataMergerMutator.RowMutation f = functions.get(e.znodeName());
        if (f == null) {
            java.util.function.BiFunction<dev.chdedup.stub.mergetree.StorageMergeTree, String, MergeTreeDataMergerMutator.RowMutation> c =
                table.context().mutationCompiler();
            if (c == null) {
                return null;
            }
            f = c.apply(table, e.commands());
            functions.put(e.znodeName(), f);
        }
        return f;
    }

    /** The mutation whose number in {@code info}'s partition is exactly {@code info}'s mutation version (MUTATE_PART's target). */
    ReplicatedMergeTreeMutationEntry entryFor(MergeTreePartInfo info) throws Exception {
        for (ReplicatedMergeTreeMutationEntry e : update()) {
            Long n = e.blockNumber(info.partitionId());
            if (n != null && n == info.mutation()) {
                return e;
            }
        }
        return null;
    }

    /** The oldest (lowest number) mutation still to apply to a part of {@code partitionId} at {@code dataVersion}; null if none. */
    static ReplicatedMergeTreeMutationEntry nextFor(List<ReplicatedMergeTreeMutationEntry> all, String partitionId, long dataVersion) {
        ReplicatedMergeTreeMutationEntry best = null;
        for (ReplicatedMergeTreeMutationEntry e : all) {
            if (e.appliesTo(partitionId, dataVersion) && (best == null || e.blockNumber(partitionId) < best.blockNumber(partitionId))) {
                best = e;
            }
        }
        return best;
    }

    /**
     * The part's current mutation version, ClickHouse's {@code getCurrentMutationVersion}: the highest mutation number
     * of its partition at or below its data version (-1 if none). Two parts merge only when theirs are equal, so a
     * merge never puts rows a mutation must still change under a version that says they are done.
     */
    long currentMutationVersion(String partitionId, long dataVersion) {
        long v = -1;
        synchronized (this) {
            for (ReplicatedMergeTreeMutationEntry e : entries.values()) {
                Long n = e.blockNumber(partitionId);
                if (n != null && n <= dataVersion) {
                    v = Math.max(v, n);
                }
            }
        }
        return v;
    }

    /**
     * The leader's mutation selecting: for each active part below a mutation's number that no queued entry touches,
     * writes {@code MUTATE_PART <part> -> <part with that mutation version>} to the log. Returns how many it wrote.
     */
    int assign() throws Exception {
        int metadataVersion = table.metadataVersion();
        // a mutation of an ALTER waits until this replica has applied the ALTER's metadata, as ClickHouse's merge predicate
        List<ReplicatedMergeTreeMutationEntry> all = update().stream().filter(e -> e.alterVersion() <= metadataVersion).toList();
        if (all.isEmpty() || table.parts().activeParts().stream().noneMatch(p -> nextFor(all, p.info().partitionId(), p.dataVersion()) != null)
            || table.isReadonly() || !table.isLeader()) {
            return 0;
        }
        table.queue().pullLogsToQueue();
        List<ReplicatedMergeTreeQueue.Entry> queued = table.queue().snapshot();
        int n = 0;
        for (IMergeTreeDataPart p : table.parts().activeParts()) {
            ReplicatedMergeTreeMutationEntry e = nextFor(all, p.info().partitionId(), p.dataVersion());
            if (e == null || touched(queued, p.info())) {
                continue;
            }
            String into = p.info().withMutation(e.blockNumber(p.info().partitionId())).name();
            table.zk().create(table.paths().log() + "/log-", ReplicatedMergeTreeLogEntry.mutatePart(table.replicaName(), p.name(), into).toText(),
                CreateMode.PERSISTENT_SEQUENTIAL);
            n++;
        }
        if (n > 0) {
            table.queue().pullLogsToQueue();
        }
        return n;
    }

    /** Whether a queued entry (other than a range drop) makes or takes a part overlapping {@code part}. */
    private static boolean touched(List<ReplicatedMergeTreeQueue.Entry> queued, MergeTreePartInfo part) {
        for (ReplicatedMergeTreeQueue.Entry q : queued) {
            if (q.log.type() == ReplicatedMergeTreeLogEntry.Type.DROP_RANGE) {
                continue;
            }
            MergeTreePartInfo made = MergeTreePartInfo.tryParse(q.log.newPartName());
            if (made != null && !made.isDisjoint(part)) {
                return true;
            }
        }
        return false;
    }

    /** How many parts this replica still has to mutate (or get, then mutate) for {@code e}, present or queued. */
    long partsToDo(ReplicatedMergeTreeMutationEntry e) {
        long n = 0;
        for (IMergeTreeDataPart p : table.parts().activeParts()) {
            if (e.appliesTo(p.info().partitionId(), p.dataVersion())) {
                n++;
            }
        }
        for (ReplicatedMergeTreeQueue.Entry q : table.queue().snapshot()) {
            MergeTreePartInfo made = MergeTreePartInfo.tryParse(q.log.newPartName());
            if (q.log.type() != ReplicatedMergeTreeLogEntry.Type.DROP_RANGE && made != null && e.appliesTo(made.partitionId(),
                made.mutation() > 0 ? made.mutation() : made.minBlock())) {
                n++;
            }
        }
        return n;
    }

    /** Whether {@code e} is done here: no part to do and no block below its number still committing in its partitions. */
    boolean isDone(ReplicatedMergeTreeMutationEntry e) throws Exception {
        if (partsToDo(e) > 0) {
            return false;
        }
        for (Map.Entry<String, Long> pn : e.blockNumbers().entrySet()) {
            for (String lock : table.zk().children(table.paths().blockNumbers(pn.getKey()))) {
                if (lock.startsWith("block-") && Long.parseLong(lock.substring(6)) < pn.getValue()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Moves {@code mutation_pointer} past the mutations done here, in order (ClickHouse's {@code tryFinalizeMutations}). */
    void finalizeMutations() throws Exception {
        String done = pointer;
        for (ReplicatedMergeTreeMutationEntry e : update()) {
            if (done != null && e.znodeName().compareTo(done) <= 0) {
                continue;
            }
            if (!isDone(e)) {
                break;
            }
            done = e.znodeName();
        }
        if (done != null && !done.equals(pointer)) {
            table.zk().set(table.paths().replicaNode("mutation_pointer"), done);
            pointer = done;
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /** The last failure of a MUTATE_PART of {@code e} in this replica's queue, or "". */
    String failReason(ReplicatedMergeTreeMutationEntry e) {
        for (ReplicatedMergeTreeQueue.Entry q : table.queue().snapshot()) {
            MergeTreePartInfo made = MergeTreePartInfo.tryParse(q.log.newPartName());
            if (q.log.type() == ReplicatedMergeTreeLogEntry.Type.MUTATE_PART && made != null && !q.lastException.isEmpty()
                && Long.valueOf(made.mutation()).equals(e.blockNumber(made.partitionId()))) {
                return q.lastException;
            }
        }
        return "";
    }

    /**
     * mutations_sync: waits until this replica (or every replica: their {@code mutation_pointer}) is past mutation
     * {@code name}. A failure on this replica ends the wait with UNFINISHED and the reason, as does a replica that stays
     * inactive longer than {@code inactiveTimeoutMs}.
     */
    void waitMutation(String name, boolean allReplicas, long inactiveTimeoutMs) {
        long inactiveSince = -1;
        try {
            while (true) {
                ReplicatedMergeTreeMutationEntry e = null;
                for (ReplicatedMergeTreeMutationEntry x : update()) {
                    if (x.znodeName().equals(name)) {
                        e = x;
                    }
                }
                if (e == null) {
                    throw new ChException(ErrorCode.UNFINISHED, "Mutation " + name + " was killed");
                }
                String reason = failReason(e);
                if (!reason.isEmpty()) {
                    throw new ChException(ErrorCode.UNFINISHED, "Exception happened during execution of mutation '" + name + "' on replica "
                        + table.replicaName() + ": " + reason);
                }
                boolean waiting = false;
                boolean inactive = false;
                for (String r : allReplicas ? table.zk().children(table.paths().replicas()) : List.of(table.replicaName())) {
                    String p = table.zk().get(table.paths().replica(r) + "/mutation_pointer");
                    if (p == null || p.isEmpty() || p.compareTo(name) < 0) {
                        waiting = true;
                        inactive |= table.zk().exists(table.paths().replica(r) + "/is_active") == null;
                    }
                }
                if (!waiting) {
                    return;
                }
                long now = System.currentTimeMillis();
                inactiveSince = inactive ? inactiveSince < 0 ? now : inactiveSince : -1;
                if (inactive && now - inactiveSince >= inactiveTimeoutMs) {
                    throw new ChException(ErrorCode.UNFINISHED, "Mutation is not finished because some replicas are inactive right now");
                }
                table.queue().wakeUp();
                synchronized (this) {
                    wait(50);
                }
            }
        } catch (ChException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChException(ErrorCode.UNFINISHED, "Interrupted while waiting for mutation " + name);
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("waiting for mutation " + name, e);
        }
    }

    /** The mutations as this replica's system.mutations shows them, oldest first. */
    List<MergeTreeMutationStatus> statuses() {
        List<MergeTreeMutationStatus> out = new ArrayList<>();
        try {
            for (ReplicatedMergeTreeMutationEntry e : update()) {
                long todo = partsToDo(e);
                boolean done = pointer != null && e.znodeName().compareTo(pointer) <= 0 || isDone(e);
                MergeTreeMutationEntry shown = new MergeTreeMutationEntry(e.blockNumbers().values().stream().mapToLong(Long::longValue).max()
                    .orElse(0), e.createTime(), e.commands());
                out.add(new MergeTreeMutationStatus(shown, done, done ? 0 : todo, failReason(e), e.znodeName()));
            }
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("reading mutations", e);
        }
        return out;
    }

    /** Starts from the pointer a previous run left. */
    void load() throws Exception {
        String p = table.zk().get(table.paths().replicaNode("mutation_pointer"));
        pointer = p == null || p.isEmpty() ? null : p;
    }
}
