package dev.chdedup.stub.replicated;

import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The quorum insert protocol of ClickHouse ({@code ReplicatedMergeTreeSink::checkQuorumPrecondition} and
 * {@code waitForQuorum}, {@code StorageReplicatedMergeTree::updateQuorum}, the lost-part branch of {@code executeFetch},
 * {@code getMaxAddedBlocks}). The insert's commit multi also creates the quorum node ({@link #createOp}:
 * {@code quorum/status} when not parallel, {@code quorum/parallel/<part>} when parallel) naming the writer; every
 * replica that fetches the part adds itself in one versioned set ({@link #updateQuorum}); the replica that completes
 * the quorum removes the node (and, when not parallel, records the part in {@code quorum/last_part}) in one multi; the
 * waiting insert wakes on the node's removal through a watch ({@link #waitForQuorum}). A part that no replica has any
 * more before its quorum is reached is recorded under {@code quorum/failed_parts} and its block id removed
 * ({@link #markFailedIfLost}), so that a retry of the block writes it anew.
 */
final class ReplicatedMergeTreeQuorum {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicatedMergeTreeQuorum.class);
    /** What one quorum insert asks for; {@code isActiveCzxid} identifies the writer's {@code is_active} node when it began. */
    record Insert(int required, boolean parallel, long timeoutMs, CompatibilityProfile compat, long isActiveCzxid) {
        Insert withActiveNode(long czxid) {
            return new Insert(required, parallel, timeoutMs, compat, czxid);
        }
    }

    private ReplicatedMergeTreeQuorum() {
    }

    /**
     * The quorum an insert's settings ask for ({@code insert_quorum}: 0 or 1 off, N, {@code auto} = a majority of the
     * table's replicas), or null when it asks for none.
     */
    static Insert fromSettings(Settings s, StorageReplicatedMergeTree table, CompatibilityProfile compat) {
        String raw = s.get("insert_quorum").strip();
        long n = s.getLong("insert_quorum");
        if (raw.equalsIgnoreCase("auto")) {
            n = table.totalReplicas() / 2 + 1;
        }
        if (n <= 1) {
            return null;
        }
        // 18.16 has no insert_quorum_parallel: its quorum inserts are all non-parallel
        boolean parallel = s.getBool("insert_quorum_parallel") && (compat == null || !compat.unknownSettings().contains("insert_quorum_parallel"));
        return new Insert((int) Math.min(Integer.MAX_VALUE, n), parallel, s.getLong("insert_quorum_timeout"), compat, 0);
    }

    /**
     * Before anything is written: this replica must be active, at least {@code required} replicas must be active
     * (else TOO_FEW_LIVE_REPLICAS), and a non-parallel insert refuses to start while {@code quorum/status} exists
     * (UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE). Reads only. Returns the insert with this replica's {@code is_active} noted.
     */
    static Insert checkPrecondition(StorageReplicatedMergeTree table, Insert q) {
        ZooKeeperClient zk = table.zk();
        ReplicatedPaths paths = table.paths();
        try {
            // the replicas' is_active nodes and quorum/status in one round trip after the list of replicas
            List<String> replicas = table.replicaNames();
            List<String> read = new ArrayList<>(replicas.size() + 2);
            read.add(paths.replicaNode("is_active"));
            read.add(paths.quorumStatus());
            for (String r : replicas) {
                read.add(paths.replica(r) + "/is_active");
            }
            List<ZooKeeperClient.Node> nodes = zk.getNodes(read);
            ZooKeeperClient.Node mine = nodes.get(0);
            if (mine == null) {
                throw new ChException(ErrorCode.READONLY, "Replica is not active right now");
            }
            int active = 0;
            for (ZooKeeperClient.Node n : nodes.subList(2, nodes.size())) {
                if (n != null) {
                    active++;
                }
            }
            if (active < q.required()) {
                throw new ChException(ErrorCode.TOO_FEW_LIVE_REPLICAS, "Number of alive replicas (" + active + ") is less than requested quorum ("
                    + q.required() + ").");
            }
            if (!q.parallel() && nodes.get(1) != null) {
                throw unsatisfiedPrevious(nodes.get(1).value());
            }
            return q.withActiveNode(mine.stat().getCzxid());
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("checking the quorum's precondition", e);
        }
    }

    static ChException unsatisfiedPrevious(String status) {
        return new ChException(ErrorCode.UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE, "Quorum for previous write has not been satisfied yet. Status: "
            + status);
    }

    static String nodePath(ReplicatedPaths paths, boolean parallel, String part) {
        return parallel ? paths.quorumParallel(part) : paths.quorumStatus();
    }

    /** The op of the commit multi that starts the quorum of {@code part}, with the writer as its first replica. */
    static CuratorOp createOp(ZooKeeperClient zk, ReplicatedPaths paths, Insert q, String part) throws Exception {
        return zk.op().create().forPath(nodePath(paths, q.parallel(), part),
            ZooKeeperClient.bytes(ReplicatedMergeTreeQuorumEntry.of(part, q.required(), paths.replicaName()).toText()));
    }

    /**
     * Waits until the quorum of {@code part} is reached: its node is gone (or {@code quorum/status} names another part
     * by now). A timeout is UNKNOWN_STATUS_OF_INSERT wrapping TIMEOUT_EXCEEDED; this replica's {@code is_active} going
     * (or being re-created) meanwhile is UNKNOWN_STATUS_OF_INSERT wrapping NO_ACTIVE_REPLICAS, and a lost session or any
     * ZooKeeper error wraps KEEPER_EXCEPTION: the part stays in every case, and may still reach its quorum later. The
     * watches on the node, {@code is_active} and {@code failed_parts/<part>} are set in one round trip; when the node's
     * removal is the first event, that is the answer, else the three are read again. The watches that did not fire are
     * taken off after each wait, so a long-running server does not pile up one per insert.
     */
    static void waitForQuorum(StorageReplicatedMergeTree table, Insert q, String part) {
        ZooKeeperClient zk = table.zk();
        ReplicatedPaths paths = table.paths();
        String node = nodePath(paths, q.parallel(), part);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(q.timeoutMs());
        try {
            long session = sessionId(zk);
            boolean woken = false;
            while (true) {
                if (woken) {
                    // after a wake-up the node is usually gone: is_active, the node and failed_parts in one round trip
                    List<ZooKeeperClient.Node> now = zk.getNodes(List.of(paths.replicaNode("is_active"), node, paths.quorumFailedPart(part)));
                    String value = now.get(1) == null ? null : now.get(1).value();
                    if (now.get(0) != null && now.get(0).stat().getCzxid() == q.isActiveCzxid() && sessionId(zk) == session
                        && (value == null || !q.parallel() && !ReplicatedMergeTreeQuorumEntry.parse(value).partName().equals(part))) {
                        if (now.get(2) != null) {
                            throw failedQuorum(part);
                        }
                        return;
                    }
                }
                Watches watches = Watches.set(zk, paths.quorumFailedPart(part), paths.replicaNode("is_active"), node);
                try {
                    if (waitOnce(zk, q, part, session, deadline, watches)) {
                        return;
                    }
                } finally {
                    watches.remove(zk);
                }
                woken = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unknownStatus(q, new ChException(ErrorCode.QUERY_WAS_CANCELLED, "Query was cancelled"));
        } catch (ChException e) {
            throw unknownStatus(q, e);
        } catch (KeeperException e) {
            // as ClickHouse's Coordination::Exception: "Session expired", "Connection loss", ...
            String m = e.getMessage() == null ? e.code().name() : e.getMessage().replaceFirst("^KeeperErrorCode = ", "");
            throw unknownStatus(q, new ChException(ErrorCode.KEEPER_EXCEPTION, m, e));
        } catch (Exception e) {
            throw unknownStatus(q, StorageReplicatedMergeTree.zookeeperError("waiting for quorum", e));
        }
    }

    /**
     * One wait on {@code watches}: true when the quorum is reached (the node was gone when read, or its removal was the
     * first event), false when an event came that needs a read to understand.
     */
    private static boolean waitOnce(ZooKeeperClient zk, Insert q, String part, long session, long deadline, Watches watches) throws Exception {
        // the session the insert began with is gone: what was read may come from a new one
        if (sessionId(zk) != session) {
            throw new ChException(ErrorCode.KEEPER_EXCEPTION, "Session expired");
        }
        Stat activeNow = watches.active();
        if (activeNow == null || activeNow.getCzxid() != q.isActiveCzxid()) {
            throw new ChException(ErrorCode.NO_ACTIVE_REPLICAS, "Replica become inactive while waiting for quorum");
        }
        ZooKeeperClient.Node value = watches.quorum();
        if (value == null || !q.parallel() && !ReplicatedMergeTreeQuorumEntry.parse(value.value()).partName().equals(part)) {
            // the node also goes when the part was lost before its quorum (markFailedIfLost): that is no success
            if (watches.failed() != null) {
                throw failedQuorum(part);
            }
            return true;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || !watches.await(left)) {
            throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Timeout while waiting for quorum");
        }
        if (watches.quorumNodeWentFirst() && sessionId(zk) == session) {
            // ZooKeeper delivers a session's events in the order of its transactions: nothing came before the
            // node's removal, so is_active stayed and no failure was recorded (markFailedIfLost creates its
            // failed_parts node before it removes the quorum node, in the same multi)
            return true;
        }
        return false;
    }

    private static long sessionId(ZooKeeperClient zk) throws Exception {
        return zk.curator().getZookeeperClient().getZooKeeper().getSessionId();
    }

    /**
     * The three watches of a quorum wait, set in one round trip (the reads are sent together and answered in order):
     * {@code failed_parts/<part>}, this replica's {@code is_active} and the quorum node. It remembers which event came
     * first, so that a wait woken by the quorum node's removal, and by nothing before it, needs no read to know the
     * quorum was reached.
     */
    private static final class Watches implements Watcher {
        private final CountDownLatch fired = new CountDownLatch(1);
        private final String quorumNode;
        private volatile WatchedEvent first;
        private CompletableFuture<Stat> failed;
        private CompletableFuture<Stat> active;
        private CompletableFuture<ZooKeeperClient.Node> quorum;
        private final List<String> paths;

        private Watches(String quorumNode, List<String> paths) {
            this.quorumNode = quorumNode;
            this.paths = paths;
        }

        static Watches set(ZooKeeperClient zk, String failedPath, String activePath, String quorumPath) throws Exception {
            Watches w = new Watches(quorumPath, List.of(failedPath, activePath, quorumPath));
            ZooKeeper z = zk.curator().getZookeeperClient().getZooKeeper();
            w.failed = exists(z, failedPath, w);
            w.active = exists(z, activePath, w);
            w.quorum = new CompletableFuture<>();
            z.getData(quorumPath, w, (rc, path, ctx, data, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    w.quorum.complete(new ZooKeeperClient.Node(data == null ? "" : ZooKeeperClient.text(data), stat));
                } else if (rc == KeeperException.Code.NONODE.intValue()) {
                    w.quorum.complete(null);
                } else {
                    w.quorum.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
                }
            }, null);
            return w;
        }

        private static CompletableFuture<Stat> exists(ZooKeeper z, String path, Watches w) {
            CompletableFuture<Stat> f = new CompletableFuture<>();
            z.exists(path, w, (rc, at, ctx, stat) -> {
                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
                    f.complete(stat);
                } else {
                    f.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), at));
                }
            }, null);
            return f;
        }

        private static <T> T answer(CompletableFuture<T> f) throws Exception {
            try {
                return f.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception c ? c : e;
            }
        }

        Stat failed() throws Exception {
            return answer(failed);
        }

        Stat active() throws Exception {
            return answer(active);
        }

        ZooKeeperClient.Node quorum() throws Exception {
            return answer(quorum);
        }

        @Override
        public synchronized void process(WatchedEvent event) {
            if (first == null) {
                first = event;
            }
            fired.countDown();
        }

        boolean await(long nanos) throws InterruptedException {
            return fired.await(nanos, TimeUnit.NANOSECONDS);
        }

        /** Takes the watches that did not fire off the session (asynchronously: the answers are not waited for). */
        void remove(ZooKeeperClient zk) {
            try {
                ZooKeeper z = zk.curator().getZookeeperClient().getZooKeeper();
                for (String path : paths) {
                    z.removeWatches(path, this, Watcher.WatcherType.Any, true, (rc, at, ctx) -> { }, null);
                }
            } catch (Exception ignored) {
                // the session's end takes them
            }
        }

        boolean quorumNodeWentFirst() {
            WatchedEvent e = first;
            return e != null && e.getType() == Watcher.Event.EventType.NodeDeleted && quorumNode.equals(e.getPath());
        }
    }

    private static ChException failedQuorum(String part) {
        return new ChException(ErrorCode.UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE, "Quorum for part " + part
            + " failed: no replica has the part any more (quorum/failed_parts); its block id was removed, so a retry writes it again");
    }

    /** UNKNOWN_STATUS_OF_INSERT with the reason worded as the server words errors. */
    static ChException unknownStatus(Insert q, ChException reason) {
        String text = q.compat() != null && q.compat().legacyErrorText() ? "Code: " + reason.code().code + ", e.displayText() = DB::Exception: "
            + reason.getMessage() + ", e.what() = DB::Exception" : reason.displayText();
        return new ChException(ErrorCode.UNKNOWN_STATUS_OF_INSERT, "Unknown status, client must retry. Reason: " + text, reason);
    }

    /**
     * After this replica got {@code part} for a quorum entry of the log: adds this replica to the part's quorum node
     * in one versioned set, or, when that makes the quorum, removes the node (updating {@code quorum/last_part} for a
     * non-parallel quorum) in one versioned multi; a concurrent change (BadVersion, NoNode, NodeExists) re-reads and
     * tries again. Nothing to do when the node is gone or belongs to another part.
     */
    static void updateQuorum(StorageReplicatedMergeTree table, String part) throws Exception {
        ZooKeeperClient zk = table.zk();
        ReplicatedPaths paths = table.paths();
        while (true) {
            OpenQuorum open = openQuorum(zk, paths, part);
            if (open == null || open.entry().replicas().contains(table.replicaName())) {
                return;
            }
            String node = open.node();
            ReplicatedMergeTreeQuorumEntry entry = open.entry();
            boolean parallel = !node.equals(paths.quorumStatus());
            entry = entry.withReplica(table.replicaName());
            try {
                List<CuratorOp> ops = new ArrayList<>(2);
                ops.add(countOp(zk, node, entry, open.version()));
                if (!entry.satisfied()) {
                    zk.multi(ops);
                    return;
                }
                if (!parallel) {
                    Stat lastStat = new Stat();
                    byte[] last = zk.get(paths.quorumLastPart(), lastStat);
                    ReplicatedMergeTreeQuorumAddedParts added = ReplicatedMergeTreeQuorumAddedParts.parse(last == null ? "" : ZooKeeperClient.text(last))
                        .with(MergeTreePartInfo.parse(part).partitionId(), part);
                    ops.add(last == null ? zk.op().create().forPath(paths.quorumLastPart(), ZooKeeperClient.bytes(added.toText()))
                        : zk.op().setData().withVersion(lastStat.getVersion()).forPath(paths.quorumLastPart(), ZooKeeperClient.bytes(added.toText())));
                }
                zk.multi(ops);
                LOG.debug("{}: quorum of part {} reached with replicas {}", table.replicaPath(), part, entry.replicas());
                return;
            } catch (KeeperException.BadVersionException | KeeperException.NoNodeException | KeeperException.NodeExistsException e) {
                // another replica updated the node meanwhile: read it again
            }
        }
    }

    /**
     * The ops that add this replica to {@code part}'s parallel quorum node as read ({@code node}: its value and stat),
     * for the fetch's own commit multi: a versioned set, or a versioned delete when this replica makes the quorum;
     * null when the node names this replica already or another part. A concurrent change fails the multi on these
     * ops (BadVersion, NoNode), and the caller then commits without them and updates the quorum on its own.
     */
    static List<CuratorOp> addReplicaOps(StorageReplicatedMergeTree table, String part, ZooKeeperClient.Node node) throws Exception {
        ReplicatedMergeTreeQuorumEntry entry = ReplicatedMergeTreeQuorumEntry.parse(node.value());
        if (!entry.partName().equals(part) || entry.replicas().contains(table.replicaName())) {
            return null;
        }
        ZooKeeperClient zk = table.zk();
        return List.of(countOp(zk, table.paths().quorumParallel(part), entry.withReplica(table.replicaName()), node.stat().getVersion()));
    }

    /**
     * The op that records {@code counted} (the entry with this replica added) at {@code node}, read at {@code version}:
     * a versioned set, or a versioned delete when it makes the quorum.
     */
    private static CuratorOp countOp(ZooKeeperClient zk, String node, ReplicatedMergeTreeQuorumEntry counted, int version) throws Exception {
        return counted.satisfied() ? zk.op().delete().withVersion(version).forPath(node)
            : zk.op().setData().withVersion(version).forPath(node, ZooKeeperClient.bytes(counted.toText()));
    }

    /** The node of an open quorum, its entry and the node's version as read. */
    private record OpenQuorum(String node, ReplicatedMergeTreeQuorumEntry entry, int version) {
    }

    /**
     * {@code part}'s open quorum: its parallel node, read first because the default
     * quorum is parallel, else {@code quorum/status} when that names the part; null when neither is open.
     */
    private static OpenQuorum openQuorum(ZooKeeperClient zk, ReplicatedPaths paths, String part) throws Exception {
        for (String node : List.of(paths.quorumParallel(part), paths.quorumStatus())) {
            Stat stat = new Stat();
            ReplicatedMergeTreeQuorumEntry entry = entryOf(zk, node, part, stat);
            if (entry != null) {
                return new OpenQuorum(node, entry, stat.getVersion());
            }
        }
        return null;
    }

    /** The entry at {@code node} (its stat into {@code stat}) when it is {@code part}'s; null when gone or another part's. */
    private static ReplicatedMergeTreeQuorumEntry entryOf(ZooKeeperClient zk, String node, String part, Stat stat) throws Exception {
        byte[] value = zk.get(node, stat);
        if (value == null) {
            return null;
        }
        ReplicatedMergeTreeQuorumEntry entry = ReplicatedMergeTreeQuorumEntry.parse(ZooKeeperClient.text(value));
        return entry.partName().equals(part) ? entry : null;
    }

    /**
     * The parts whose quorum insert is still open ({@code quorum/status} and {@code quorum/parallel/*}): no merge may
     * take them, as ClickHouse's merge predicate refuses ("Quorum insert for part ... is currently in progress"), so a
     * replica that fetches one counts itself for that part and not for a merged one. Read it after the local parts: a
     * part's node exists from its commit until its quorum is reached.
     */
    static java.util.Set<String> partsInProgress(ZooKeeperClient zk, ReplicatedPaths paths) throws Exception {
        java.util.Set<String> parts = new java.util.HashSet<>();
        byte[] status = zk.get(paths.quorumStatus(), new Stat());
        if (status != null) {
            parts.add(ReplicatedMergeTreeQuorumEntry.parse(ZooKeeperClient.text(status)).partName());
        }
        if (zk.exists(paths.node("quorum/parallel")) != null) {
            parts.addAll(zk.children(paths.node("quorum/parallel")));
        }
        return parts;
    }

    /** Whether the quorum of {@code part} failed (it was lost first): such a GET_PART is skipped. */
    static boolean failed(StorageReplicatedMergeTree table, String part) throws Exception {
        return table.zk().exists(table.paths().quorumFailedPart(part)) != null;
    }

    /**
     * When no replica has {@code part} in ZooKeeper any more and its quorum is still open: removes the quorum node,
     * creates {@code quorum/failed_parts/<part>} and removes the block id that names the part, in one multi, so a retry
     * of the block is not taken for a duplicate of a part that is gone. Returns whether it marked the part failed.
     */
    static boolean markFailedIfLost(StorageReplicatedMergeTree table, String part, String blockId) throws Exception {
        ZooKeeperClient zk = table.zk();
        ReplicatedPaths paths = table.paths();
        OpenQuorum open = openQuorum(zk, paths, part);
        if (open == null) {
            return false;
        }
        String node = open.node();
        for (String r : zk.children(paths.replicas())) {
            if (zk.exists(paths.part(r, part)) != null) {
                return false;
            }
        }
        List<CuratorOp> ops = new ArrayList<>(3);
        // failed_parts first: a waiting insert is told of the failure before it sees the quorum node go (waitForQuorum)
        ops.add(zk.op().create().forPath(paths.quorumFailedPart(part), new byte[0]));
        ops.add(zk.op().delete().withVersion(open.version()).forPath(node));
        if (blockId != null && !blockId.isEmpty()) {
            Stat idStat = new Stat();
            byte[] id = zk.get(paths.blockId(blockId), idStat);
            if (id != null && ZooKeeperClient.text(id).equals(part)) {
                ops.add(zk.op().delete().withVersion(idStat.getVersion()).forPath(paths.blockId(blockId)));
            }
        }
        try {
            zk.multi(ops);
            LOG.warn("{}: quorum of part {} failed: no replica has the part", table.replicaPath(), part);
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException | KeeperException.NodeExistsException e) {
            return false;
        }
    }

    /**
     * For {@code select_sequential_consistency}: the highest block number to read in each partition, after ClickHouse's
     * {@code getMaxAddedBlocks}. A partition's local parts are read, but not past the part whose quorum is in progress
     * ({@code quorum/status}) nor past the last part that reached its quorum ({@code quorum/last_part}); a replica that
     * lacks one of those last parts is REPLICA_IS_NOT_IN_QUORUM.
     */
    static Map<String, Long> maxAddedBlocks(StorageReplicatedMergeTree table, List<MergeTreePartInfo> localParts,
                                            java.util.function.Predicate<String> hasCoveringPart) {
        ZooKeeperClient zk = table.zk();
        ReplicatedPaths paths = table.paths();
        Map<String, Long> max = new HashMap<>();
        for (MergeTreePartInfo p : localParts) {
            max.merge(p.partitionId(), p.maxBlock(), Math::max);
        }
        try {
            String status = zk.get(paths.quorumStatus());
            if (status != null) {
                MergeTreePartInfo inProgress = MergeTreePartInfo.parse(ReplicatedMergeTreeQuorumEntry.parse(status).partName());
                max.put(inProgress.partitionId(), inProgress.minBlock() - 1);
            }
            String last = zk.get(paths.quorumLastPart());
            for (Map.Entry<String, String> e : ReplicatedMergeTreeQuorumAddedParts.parse(last).parts().entrySet()) {
                if (!hasCoveringPart.test(e.getValue())) {
                    throw new ChException(ErrorCode.REPLICA_IS_NOT_IN_QUORUM, "Replica doesn't have part " + e.getValue()
                        + " which was successfully written to quorum of other replicas. Send query to another replica or disable"
                        + " 'select_sequential_consistency' setting.");
                }
                max.put(e.getKey(), MergeTreePartInfo.parse(e.getValue()).maxBlock());
            }
            return max;
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("reading the quorum's last parts", e);
        }
    }
}
