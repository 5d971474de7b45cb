package dev.chdedup.stub.replicated;

import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeData;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's queue of work, after ClickHouse's {@code ReplicatedMergeTreeQueue}: {@link #pullLogsToQueue} copies
 * new entries of the shared log into {@code replicas/<r>/queue} and moves {@code log_pointer} in the same multi (in
 * batches that double in size; an entry whose part this replica already has, such as its own insert's, is passed over
 * rather than queued); a background thread then hands {@link #selectEntryToProcess}'s choices to the server's pools
 * (GET_PART to the fetch pool, the others to the background pool, as ClickHouse's BackgroundFetchesPool and
 * BackgroundPool): each the first entry that is not backing off, not a stopped fetch and whose part no running entry
 * touches (else it is postponed with the reason), moved to the tail of the queue. An entry
 * that fails is retried with exponential backoff and its error is kept for system.replication_queue; an entry done is
 * removed from ZooKeeper together with the part nodes it changed. Entries are executed by
 * {@link ReplicatedMergeTreeQueueExecutor}. The thread also wakes when the log changes (a ZooKeeper watch).
 */
public final class ReplicatedMergeTreeQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedMergeTreeQueue.class);
    private static final long MAX_BACKOFF_MS = 2_000;
    private static final int MAX_BATCH = 100;
    /** How often a pull that finds no entry at the pointer lists the log anyway (see {@link #pullLogsToQueue}). */
    private static final long LIST_EVERY_MS = 5_000;

    /** An entry of this replica's queue with its execution state, as system.replication_queue shows it. */
    public static final class Entry {
        public final String node;
        public final ReplicatedMergeTreeLogEntry log;
        public volatile int numTries;
        public volatile int numPostponed;
        public volatile String lastException = "";
        public volatile String postponeReason = "";
        public volatile long lastAttemptTime;
        public volatile long lastPostponeTime;
        public volatile boolean currentlyExecuting;
        volatile long nextAttemptMs;
        /** The {@code log-} node this entry was copied from in this session; null for one loaded or cloned. */
        volatile String sourceLog;

        Entry(String node, ReplicatedMergeTreeLogEntry log) {
            this.node = node;
            this.log = log;
        }
    }

    private final StorageReplicatedMergeTree table;
    /** For the stateless questions of the selection; each pool thread runs entries with an executor of its own. */
    private final ReplicatedMergeTreeQueueExecutor executor;
    private final ThreadLocal<ReplicatedMergeTreeQueueExecutor> executors;
    /** Entries handed to a pool and not finished yet. Guarded by this. */
    private int running;
    /** Entries not done yet, in queue order (a selected entry moves to the end). Guarded by this. */
    private final List<Entry> queue = new ArrayList<>();
    /** The index of the next log entry to copy; mirrors {@code replicas/<r>/log_pointer}. Written under this. */
    private volatile long logPointer;
    private volatile boolean fetchesStopped;
    private volatile boolean closed;
    /** Guards {@link #wake}, apart from the queue's monitor: a wake-up never waits for a pull that holds that one. */
    private final Object wakeLock = new Object();
    /** One watcher object for the log's children, so ZooKeeper holds one watch however often the log is read. */
    private final org.apache.curator.framework.api.CuratorWatcher logWatcher = event -> wakeUp();
    private boolean wake;
    /**
     * The index of the log entry that made each part (GET_PART, MERGE_PARTS, MUTATE_PART), as the pulls read them; -1
     * for the parts and queue entries a previous run left (their entries were read before). A merge predicate takes
     * only parts whose entry it had read before it read the block-number locks ({@link #committedBefore}).
     */
    private final java.util.Map<String, Long> logIndexOf = new java.util.concurrent.ConcurrentHashMap<>();
    /** When the log was last listed by a pull that reads entries by name. */
    private volatile long lastListedMs;
    private Thread thread;

    ReplicatedMergeTreeQueue(StorageReplicatedMergeTree table) {
        this.table = table;
        this.executor = new ReplicatedMergeTreeQueueExecutor(table);
        this.executors = ThreadLocal.withInitial(() -> new ReplicatedMergeTreeQueueExecutor(table));
    }

    synchronized void start() {
        try {
            load();
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("loading the replication queue", e);
        }
        thread = new Thread(this::run, "replication-queue-" + table.database() + "." + table.name() + "-" + table.replicaName());
        thread.setDaemon(true);
        thread.start();
    }

    /** Reads the queue and the log pointer that a previous run of this replica left in ZooKeeper. */
    private void load() throws Exception {
        ZooKeeperClient zk = table.zk();
        String p = zk.get(table.paths().replicaNode("log_pointer"));
        logPointer = p == null || p.isEmpty() ? 0 : Long.parseLong(p.trim());
        List<String> names = new ArrayList<>(zk.children(table.paths().queue()));
        names.sort(null);
        for (String n : names) {
            String text = zk.get(table.paths().queue() + "/" + n);
            if (text != null) {
                Entry e = new Entry(n, ReplicatedMergeTreeLogEntry.parse(text));
                queue.add(e);
                logIndexOf.put(e.log.newPartName(), -1L);
            }
        }
        for (IMergeTreeDataPart part : table.parts().activeParts()) {
            logIndexOf.put(part.name(), -1L);
        }
    }

    /** Reads the queue and log pointer again after the replica was cloned (ClickHouse's {@code queue.load} on restart). */
    synchronized void reload() throws Exception {
        queue.clear();
        load();
        notifyAll();
    }

    public synchronized long logPointer() {
        return logPointer;
    }

    public synchronized List<Entry> snapshot() {
        return List.copyOf(queue);
    }

    public void stopFetches(boolean stop) {
        fetchesStopped = stop;
        wakeUp();
    }

    public boolean fetchesStopped() {
        return fetchesStopped;
    }

    /** Makes the queue thread pull the log and look at its entries again now; never blocks on the queue. */
    public void wakeUp() {
        synchronized (wakeLock) {
            wake = true;
            wakeLock.notifyAll();
        }
    }

    /**
     * Copies the log entries at and after {@code log_pointer} into this replica's queue; returns how many. The log is
     * not listed on every pull: ZooKeeper numbers the entries one after another (its sequence counts creations only,
     * and the cleanup removes entries below every pointer), so the new ones are read by name from the pointer on, in
     * batches, until a name is missing; a persistent watch on the log wakes the queue. The log is listed when the watch
     * is new in the session, every {@link #LIST_EVERY_MS} when the pointer's entry is missing (a net under that rule),
     * and on every pull against a server without persistent watches.
     */
    public int pullLogsToQueue() throws Exception {
        ZooKeeperClient zk = table.zk();
        String log = table.paths().log();
        long from = logPointer;
        List<String> names;
        java.util.Map<String, String> known = new java.util.HashMap<>();
        Boolean added = zk.watchPersistently(log, logWatcher);
        if (added == null) {
            names = new ArrayList<>(zk.children(log, logWatcher));
        } else {
            names = new ArrayList<>();
            for (int want = 2; ; want = Math.min(MAX_BATCH, want * 2)) {
                long at = from + names.size();
                List<String> paths = new ArrayList<>(want);
                for (int k = 0; k < want; k++) {
                    paths.add(log + "/" + ReplicatedMergeTreeLogEntry.znodeName(at + k));
                }
                List<String> texts = zk.getAll(paths);
                int k = 0;
                while (k < texts.size() && texts.get(k) != null) {
                    String name = ReplicatedMergeTreeLogEntry.znodeName(at + k);
                    names.add(name);
                    known.put(name, texts.get(k));
                    k++;
                }
                if (k < texts.size()) {
                    break;
                }
            }
            long now = System.currentTimeMillis();
            if (names.isEmpty() && (added || now - lastListedMs > LIST_EVERY_MS)) {
                lastListedMs = now;
                names = new ArrayList<>(zk.children(log));
            }
            if (names.isEmpty()) {
                return 0;
            }
        }
        names.sort(null);
        int copied = 0;
        int batch = 1;
        synchronized (this) {
            List<String> fresh = new ArrayList<>();
            for (String n : names) {
                if (Long.parseLong(n.substring("log-".length())) >= logPointer) {
                    fresh.add(n);
                }
            }
            int i = 0;
            while (i < fresh.size()) {
                List<String> slice = fresh.subList(i, Math.min(fresh.size(), i + batch));
                List<CuratorOp> ops = new ArrayList<>();
                List<ReplicatedMergeTreeLogEntry> entries = new ArrayList<>();
                List<String> sources = new ArrayList<>();
                List<String> texts = read(zk, slice, known);
                long lastPresent = -1;
                for (int k = 0; k < slice.size(); k++) {
                    String n = slice.get(k);
                    String text = texts.get(k);
                    if (text == null) {
                        continue; // a number no entry kept (removed by the cleanup, or taken by a removal)
                    }
                    lastPresent = Long.parseLong(n.substring("log-".length()));
                    ReplicatedMergeTreeLogEntry entry = ReplicatedMergeTreeLogEntry.parse(text);
                    if (entry.type() != ReplicatedMergeTreeLogEntry.Type.DROP_RANGE) {
                        logIndexOf.putIfAbsent(entry.newPartName(), lastPresent);
                    }
                    if (entry.type() != ReplicatedMergeTreeLogEntry.Type.DROP_RANGE && executor.hasPartLocally(entry.newPartName())) {
                        continue; // this replica's own insert or merge: nothing to do, no queue node to write and remove
                    }
                    entries.add(entry);
                    sources.add(n);
                    ops.add(zk.op().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(table.paths().queue() + "/queue-",
                        ZooKeeperClient.bytes(text)));
                }
                if (lastPresent < 0) {
                    i += slice.size();
                    continue; // nothing there: the pointer stays, as it does for a listing that shows no new entry
                }
                long next = lastPresent + 1;
                ops.add(zk.op().setData().forPath(table.paths().replicaNode("log_pointer"), ZooKeeperClient.bytes(Long.toString(next))));
                List<String> created = zk.multiPaths(ops);
                for (int k = 0; k < entries.size(); k++) {
                    String path = created.get(k);
                    Entry e = new Entry(path.substring(path.lastIndexOf('/') + 1), entries.get(k));
                    e.sourceLog = sources.get(k);
                    queue.add(e);
                }
                logPointer = next;
                copied += entries.size();
                i += slice.size();
                batch = Math.min(MAX_BATCH, batch * 2);
            }
        }
        return copied;
    }

    /** The texts of the log entries {@code names} (null for a missing one): those in {@code known}, the others read in one round trip. */
    private List<String> read(ZooKeeperClient zk, List<String> names, java.util.Map<String, String> known) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String n : names) {
            if (!known.containsKey(n)) {
                paths.add(table.paths().log() + "/" + n);
            }
        }
        java.util.Iterator<String> read = (paths.isEmpty() ? List.<String>of() : zk.getAll(paths)).iterator();
        List<String> texts = new ArrayList<>(names.size());
        for (String n : names) {
            texts.add(known.containsKey(n) ? known.get(n) : read.next());
        }
        return texts;
    }

    /**
     * The parts of {@code parts} whose log entries a pull read before {@code pointer} (a log pointer taken before
     * the caller read the block-number locks): they committed before that read, so every block number below theirs was
     * then locked, committed (its entry is in the log) or abandoned. A part that committed later may sit above a number
     * taken after that read, whose insert can still commit after the caller's pull: a merge up to such a part could
     * cover the late one without its rows. Forgets the parts that are neither active nor queued any more.
     */
    List<IMergeTreeDataPart> committedBefore(List<IMergeTreeDataPart> parts, long pointer) {
        List<IMergeTreeDataPart> out = new ArrayList<>(parts.size());
        for (IMergeTreeDataPart p : parts) {
            Long index = logIndexOf.get(p.name());
            if (index != null && index < pointer) {
                out.add(p);
            }
        }
        return out;
    }

    /** Drops what {@link #logIndexOf} holds for parts that are neither active nor waited for in the queue. */
    void forgetLogIndexes() {
        java.util.Set<String> keep = new java.util.HashSet<>();
        for (IMergeTreeDataPart p : table.parts().activeParts()) {
            keep.add(p.name());
        }
        for (ReplicatedMergeTreeLogEntry e : entriesForMerge()) {
            keep.add(e.newPartName());
        }
        logIndexOf.keySet().retainAll(keep);
    }

    /** How many MERGE_PARTS and MUTATE_PART entries this replica's queue holds. */
    private synchronized int queuedMerges() {
        int n = 0;
        for (Entry e : queue) {
            if (e.log.type() == ReplicatedMergeTreeLogEntry.Type.MERGE_PARTS || e.log.type() == ReplicatedMergeTreeLogEntry.Type.MUTATE_PART) {
                n++;
            }
        }
        return n;
    }

    /** The first entry that may run now (not running, not backing off, not a stopped fetch), moved to the tail. */
    synchronized Entry selectEntryToProcess() {
        long now = System.currentTimeMillis();
        for (int i = 0; i < queue.size(); i++) {
            Entry e = queue.get(i);
            if (e.currentlyExecuting || e.nextAttemptMs > now) {
                continue;
            }
            if (fetchesStopped && e.log.type() == ReplicatedMergeTreeLogEntry.Type.GET_PART && !executor.hasPartLocally(e.log.newPartName())) {
                postponeUnlocked(e, "Not executing fetches because fetches are stopped (SYSTEM STOP FETCHES)", now);
                continue;
            }
            String conflict = conflictWithExecuting(e);
            if (conflict != null) {
                postponeUnlocked(e, conflict, now);
                continue;
            }
            if (e.log.type() == ReplicatedMergeTreeLogEntry.Type.MUTATE_PART && alterBefore(e) != null) {
                // as ClickHouse's alter sequence: a part is mutated with the columns every replica has after the ALTER
                postponeUnlocked(e, "Not executing log entry for part " + e.log.newPartName() + " because the ALTER_METADATA entry "
                    + alterBefore(e).node + " is not executed yet", now);
                continue;
            }
            if (e.log.type() == ReplicatedMergeTreeLogEntry.Type.ALTER_METADATA && runningAny()) {
                postponeUnlocked(e, "Not executing ALTER_METADATA while other entries run: the table is opened again after it", now);
                continue;
            }
            if (table.mergesStopped() && e.log.type() == ReplicatedMergeTreeLogEntry.Type.MUTATE_PART && !executor.hasPartLocally(e.log.newPartName())) {
                postponeUnlocked(e, "Not executing log entry for part " + e.log.newPartName() + " because merges and mutations are cancelled now", now);
                continue;
            }
            queue.remove(i);
            queue.add(e);
            e.currentlyExecuting = true;
            return e;
        }
        return null;
    }

    /**
     * Why {@code e} must wait for an entry that is running: their parts (or DROP_RANGE's range) intersect, so running
     * both at once could make or remove the same rows twice, after ClickHouse's check of future parts in
     * {@code shouldExecuteLogEntry}; null when nothing running touches its part.
     */
    private String conflictWithExecuting(Entry e) {
        MergeTreePartInfo mine = MergeTreePartInfo.tryParse(e.log.newPartName());
        if (mine == null) {
            return null;
        }
        for (Entry x : queue) {
            if (x == e || !x.currentlyExecuting) {
                continue;
            }
            MergeTreePartInfo theirs = MergeTreePartInfo.tryParse(x.log.newPartName());
            if (theirs != null && theirs.partitionId().equals(mine.partitionId()) && !theirs.isDisjoint(mine)) {
                return "Not executing log entry " + e.node + " of type " + e.log.type() + " for part " + mine.name() + " because part "
                    + theirs.name() + " is not ready yet (log entry for that part is being processed).";
            }
        }
        return null;
    }

    /** An ALTER_METADATA entry of the queue other than {@code e}, or null. Called under the queue's lock. */
    private Entry alterBefore(Entry e) {
        for (Entry x : queue) {
            if (x != e && x.log.type() == ReplicatedMergeTreeLogEntry.Type.ALTER_METADATA) {
                return x;
            }
        }
        return null;
    }

    /** Whether any entry is running. Called under the queue's lock. */
    private boolean runningAny() {
        for (Entry x : queue) {
            if (x.currentlyExecuting) {
                return true;
            }
        }
        return false;
    }

    private static void postponeUnlocked(Entry e, String reason, long now) {
        if (!reason.equals(e.postponeReason) || now - e.lastPostponeTime > 1000) {
            e.numPostponed++;
            e.lastPostponeTime = now;
        }
        e.postponeReason = reason;
    }

    private void run() {
        long nextMergeSelecting = 0;
        while (!closed) {
            try {
                long now = System.currentTimeMillis();
                if (now >= nextMergeSelecting) {
                    // as ClickHouse's merge selecting task: it sleeps only when it found nothing to merge, so merges keep
                    // up with a steady stream of inserts
                    boolean assigned = queuedMerges() < table.setting("max_replicated_merges_in_queue")
                        && ReplicatedMergeAssigner.selectBackgroundMerge(table);
                    nextMergeSelecting = assigned ? now : now + Math.max(10, table.setting("merge_selecting_sleep_ms"));
                }
                table.mutations().assign();
                pullLogsToQueue();
                Entry e;
                while (!closed && (e = selectEntryToProcess()) != null) {
                    dispatch(e);
                }
                table.mutations().finalizeMutations();
            } catch (Exception ex) {
                if (!closed) {
                    LOG.debug("Replication queue of {}: {}", table.replicaPath(), ex.toString());
                }
            }
            synchronized (wakeLock) {
                if (!wake && !closed) {
                    try {
                        wakeLock.wait(200);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
                wake = false;
            }
        }
    }

    /** Hands a selected entry to the fetch pool (GET_PART) or the background pool (the others). */
    private void dispatch(Entry e) {
        boolean fetch = e.log.type() == ReplicatedMergeTreeLogEntry.Type.GET_PART;
        synchronized (this) {
            running++;
        }
        try {
            (fetch ? table.context().fetchPool() : table.context().mergePool()).execute(() -> {
                try {
                    if (closed) {
                        synchronized (this) {
                            e.currentlyExecuting = false;
                        }
                    } else {
                        process(e);
                    }
                } finally {
                    synchronized (this) {
                        running--;
                    }
                    wakeUp();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException rejected) {
            synchronized (this) {
                running--;
                e.currentlyExecuting = false;
                notifyAll();
            }
        }
    }

    private void process(Entry e) {
        e.numTries++;
        e.lastAttemptTime = System.currentTimeMillis();
        try {
            List<CuratorOp> ops = executors.get().execute(e.log);
            if (ops == null) {
                synchronized (this) {
                    e.currentlyExecuting = false;
                    postponeUnlocked(e, executors.get().lastPostponeReason(), System.currentTimeMillis());
                    e.nextAttemptMs = System.currentTimeMillis() + backoff(e.numPostponed);
                }
                return;
            }
            List<CuratorOp> quorumOps = executors.get().takeQuorumOps();
            if (quorumOps == null) {
                commitThenCountInQuorum(e, ops);
            } else {
                try {
                    List<CuratorOp> withQuorum = new ArrayList<>(ops);
                    withQuorum.addAll(quorumOps);
                    removeEntry(e, withQuorum);
                    LOG.debug("{}: counted in the quorum of part {} with its fetch", table.replicaPath(), e.log.newPartName());
                } catch (org.apache.zookeeper.KeeperException.BadVersionException | org.apache.zookeeper.KeeperException.NoNodeException k) {
                    int failed = ZooKeeperClient.failedOp(k);
                    if (failed < ops.size() || failed >= ops.size() + quorumOps.size()) {
                        throw k;
                    }
                    // another replica changed the quorum node meanwhile: commit the part alone, then count this replica
                    LOG.debug("{}: the quorum node of part {} changed during its fetch ({}): the part is committed alone", table.replicaPath(),
                        e.log.newPartName(), k.code());
                    commitThenCountInQuorum(e, ops);
                }
            }
        } catch (Exception ex) {
            synchronized (this) {
                e.currentlyExecuting = false;
                e.lastException = ex.getMessage() == null ? ex.toString() : ex.getMessage();
                e.nextAttemptMs = System.currentTimeMillis() + backoff(e.numTries);
            }
            LOG.debug("Entry {} of {} failed: {}", e.node, table.replicaPath(), ex.toString());
        }
    }

    private static long backoff(int tries) {
        return Math.min(MAX_BACKOFF_MS, 25L << Math.min(10, Math.max(0, tries - 1)));
    }

    /** Removes a done entry from ZooKeeper in one multi with {@code ops} (the part nodes it changed), then from memory. */
    /**
     * Commits what an entry did, counts this replica in the quorum of a quorum insert's part, then removes the entry, in
     * that order, as ClickHouse's fetch does: SYSTEM SYNC REPLICA (which waits for the queue) returns only once the
     * quorum has counted the part, so a sequential quorum completed by a late fetch admits the next quorum insert.
     */
    private void commitThenCountInQuorum(Entry e, List<CuratorOp> ops) throws Exception {
        if (e.log.type() != ReplicatedMergeTreeLogEntry.Type.GET_PART || e.log.quorum() <= 0) {
            removeEntry(e, ops);
            return;
        }
        if (!ops.isEmpty()) {
            try {
                table.zk().multi(ops);
            } catch (org.apache.zookeeper.KeeperException.NodeExistsException applied) {
                // committed by an earlier attempt whose answer was lost; the entry is still in the queue
                LOG.debug("{}: part {} of entry {} is committed already", table.replicaPath(), e.log.newPartName(), e.node);
            }
        }
        executor.afterGetPart(e.log);
        removeEntry(e, List.of());
    }

    private void removeEntry(Entry e, List<CuratorOp> ops) throws Exception {
        ZooKeeperClient zk = table.zk();
        List<CuratorOp> all = new ArrayList<>(ops);
        String queueNode = table.paths().queue() + "/" + e.node;
        all.add(zk.op().delete().forPath(queueNode));
        try {
            zk.multi(all);
        } catch (org.apache.zookeeper.KeeperException.NoNodeException gone) {
            if (zk.exists(queueNode) != null) {
                throw gone;
            }
            // the queue node is gone: an earlier removal was applied and its answer lost (a connection loss); the
            // entry is done once what it records is there, which a multi of the rest either applies or finds applied
            if (!ops.isEmpty()) {
                try {
                    zk.multi(ops);
                } catch (org.apache.zookeeper.KeeperException.NodeExistsException | org.apache.zookeeper.KeeperException.NoNodeException applied) {
                    LOG.debug("{}: what entry {} records was applied with its lost removal", table.replicaPath(), e.node);
                }
            }
        }
        synchronized (this) {
            queue.remove(e);
            notifyAll();
        }
        ReplicatedMergeTreeLogEntry.AlterMetadata alter = e.log.type() == ReplicatedMergeTreeLogEntry.Type.ALTER_METADATA
            ? table.takePendingAlter() : null;
        if (alter != null) {
            table.context().applyMetadata(table, alter); // the server opens the table again: this queue stops
        }
    }

    /** Drops the entries a DROP_RANGE made pointless (their parts are inside the dropped range). */
    void removeEntriesCoveredBy(MergeTreePartInfo range, Entry except) throws Exception {
        List<Entry> gone = new ArrayList<>();
        synchronized (this) {
            for (Entry e : queue) {
                if (e != except && !e.currentlyExecuting && e.log.type() != ReplicatedMergeTreeLogEntry.Type.DROP_RANGE) {
                    MergeTreePartInfo p = MergeTreePartInfo.tryParse(e.log.newPartName());
                    if (p != null && range.contains(p)) {
                        gone.add(e);
                    }
                }
            }
        }
        for (Entry e : gone) {
            table.zk().tryDelete(table.paths().queue() + "/" + e.node);
            synchronized (this) {
                queue.remove(e);
                notifyAll();
            }
        }
    }

    /**
     * Waits until no GET_PART or MERGE_PARTS entry of {@code partitionId} (null: any) waits for a part this replica does
     * not have; false when {@code timeoutMs} passed first.
     */
    boolean waitForPendingParts(String partitionId, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        synchronized (this) {
            while (true) {
                boolean pending = false;
                for (Entry e : queue) {
                    MergeTreePartInfo p = MergeTreePartInfo.tryParse(e.log.newPartName());
                    if (e.log.type() != ReplicatedMergeTreeLogEntry.Type.DROP_RANGE && p != null
                        && (partitionId == null || partitionId.equals(p.partitionId())) && !executor.hasPartLocally(p.name())) {
                        pending = true;
                        break;
                    }
                }
                long left = deadline - System.currentTimeMillis();
                if (!pending) {
                    return true;
                }
                if (left <= 0 || closed) {
                    return false;
                }
                wakeUp();
                wait(Math.min(left, 50));
            }
        }
    }

    /**
     * The log entries in the queue now, for {@link #blocksMerge}. A merge predicate takes them after it read the
     * block-number locks and pulled the log, and before it reads the local parts: an entry that finishes in between has
     * its part among the local parts then, and one that is still queued is in this list. (Read after the parts, an
     * entry whose fetch finished in between would be in neither, and a merge would cover its part without its rows.)
     */
    synchronized List<ReplicatedMergeTreeLogEntry> entriesForMerge() {
        List<ReplicatedMergeTreeLogEntry> out = new ArrayList<>(queue.size());
        for (Entry e : queue) {
            out.add(e.log);
        }
        return out;
    }

    /**
     * Whether a merge of {@code sources} into {@code range} must wait: an entry of {@code queued}
     * ({@link #entriesForMerge}: a part to get or a merge already assigned) produces a part inside the range that none
     * of the sources covers, so the merge would span a part this replica does not have yet (or take a part another
     * merge takes). The caller reads the block-number locks before it pulls the log, and the queue before it takes the
     * source parts, so a part whose insert is committing is still locked, in the queue, or among the local parts.
     */
    static boolean blocksMerge(List<ReplicatedMergeTreeLogEntry> queued, MergeTreePartInfo range, List<IMergeTreeDataPart> sources) {
        for (ReplicatedMergeTreeLogEntry log : queued) {
            if (log.type() == ReplicatedMergeTreeLogEntry.Type.DROP_RANGE) {
                continue;
            }
            MergeTreePartInfo p = MergeTreePartInfo.tryParse(log.newPartName());
            if (p == null || !p.partitionId().equals(range.partitionId()) || p.isDisjoint(range)) {
                continue;
            }
            boolean covered = false;
            for (IMergeTreeDataPart s : sources) {
                if (s.info().contains(p)) {
                    covered = true;
                    break;
                }
            }
            if (!covered || log.type() == ReplicatedMergeTreeLogEntry.Type.MERGE_PARTS && !sources.stream().anyMatch(s -> s.info().equals(p))) {
                return true;
            }
        }
        return false;
    }

    /**
     * SYSTEM SYNC REPLICA: copies the log now and waits until every entry in the queue at that moment is done;
     * false when {@code timeoutMs} passed first.
     */
    /** Whether this queue was stopped (the table shut down or opened again). */
    public boolean isClosed() {
        return closed;
    }

    public boolean syncReplica(long timeoutMs) throws Exception {
        pullLogsToQueue();
        long deadline = System.currentTimeMillis() + timeoutMs;
        List<Entry> waitFor;
        synchronized (this) {
            waitFor = new ArrayList<>(queue);
            wakeUp();
            while (true) {
                waitFor.retainAll(queue);
                if (waitFor.isEmpty()) {
                    return true;
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0 || closed) {
                    return false;
                }
                wait(Math.min(left, 100));
            }
        }
    }

    /**
     * Copies the log and waits until the entries copied from {@code logNodes} ({@code log-NNNNNNNNNN}) are done here
     * (or were passed over because this replica had their parts); false when {@code timeoutMs} passed first.
     */
    boolean waitForLogEntries(List<String> logNodes, long timeoutMs) throws Exception {
        long last = -1;
        for (String n : logNodes) {
            last = Math.max(last, Long.parseLong(n.substring("log-".length())));
        }
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (true) {
            pullLogsToQueue();
            synchronized (this) {
                boolean pending = logPointer <= last;
                for (Entry e : queue) {
                    pending |= e.sourceLog != null && logNodes.contains(e.sourceLog);
                }
                if (!pending) {
                    return true;
                }
                long left = deadline - System.currentTimeMillis();
                if (left <= 0 || closed) {
                    return false;
                }
                wakeUp();
                wait(Math.min(left, 50));
            }
        }
    }

    /** Active local parts, for the executor. */
    MergeTreeData data() {
        return table.parts();
    }

    List<IMergeTreeDataPart> activeParts() {
        return table.parts().activeParts();
    }

    @Override
    public void close() {
        close(false);
    }

    /** Stops the queue; {@code abrupt} interrupts its thread (a ZooKeeper call waiting for a connection that will not come). */
    void close(boolean abrupt) {
        closed = true;
        wakeUp();
        Thread t;
        synchronized (this) {
            notifyAll();
            t = thread;
        }
        if (abrupt && t != null && t != Thread.currentThread()) {
            t.interrupt();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // entries already in a pool finish (or see closed and give up) before the table's files go
        long deadline = System.currentTimeMillis() + 10_000;
        synchronized (this) {
            while (running > 0 && System.currentTimeMillis() < deadline) {
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
