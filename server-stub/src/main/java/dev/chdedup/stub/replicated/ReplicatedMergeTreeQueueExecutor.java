package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.DataPartStorageOnDisk;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeData;
import dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator;
import dev.chdedup.stub.mergetree.MergeTreeDataPartReader;
import dev.chdedup.stub.mergetree.MergeTreeDataPartWriter;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one queue entry on the local parts, after {@code StorageReplicatedMergeTree::executeLogEntry}: GET_PART
 * fetches the part from an active replica that has it ({@link DataPartsExchange}, checked against the checksum that
 * replica stored), MERGE_PARTS merges the sources here when they are all present (the merged file is the same on
 * every replica) or else fetches the merged part, DROP_RANGE removes the parts inside the range, MUTATE_PART rewrites
 * its source part with the mutation's row function when the source is here (else fetches the result). Returns the ZooKeeper
 * ops that record the change under this replica, or null when the entry cannot run yet ({@link #lastPostponeReason}).
 * A GET_PART of a quorum insert whose quorum failed is skipped; one that finds no replica having the part marks its
 * quorum failed ({@link ReplicatedMergeTreeQuorum#markFailedIfLost}); once one is done, {@link #afterGetPart} adds this
 * replica to the part's quorum.
 */
final class ReplicatedMergeTreeQueueExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedMergeTreeQueueExecutor.class);
    /** Set by a GET_PART's fetch for {@link #takeQuorumOps}; one executor per queue thread. */
    private List<CuratorOp> pendingQuorumOps;
    private final StorageReplicatedMergeTree table;
    private volatile String postponeReason = "";

    ReplicatedMergeTreeQueueExecutor(StorageReplicatedMergeTree table) {
        this.table = table;
    }

    String lastPostponeReason() {
        return postponeReason;
    }

    /** Whether an active local part covers {@code partName}. */
    boolean hasPartLocally(String partName) {
        MergeTreePartInfo info = MergeTreePartInfo.tryParse(partName);
        if (info == null) {
            return false;
        }
        for (IMergeTreeDataPart p : table.parts().activeParts()) {
            if (p.info().partitionId().equals(info.partitionId()) && p.info().contains(info)) {
                return true;
            }
        }
        return false;
    }

    List<CuratorOp> execute(ReplicatedMergeTreeLogEntry e) throws Exception {
        switch (e.type()) {
            case GET_PART: {
                Origin origin = readOrigin(e);
                if (e.quorum() > 0 && (origin != null ? origin.quorumFailed() : ReplicatedMergeTreeQuorum.failed(table, e.newPartName()))) {
                    return List.of();
                }
                List<CuratorOp> local = opsIfLocal(e.newPartName());
                if (local != null) {
                    return local;
                }
                List<CuratorOp> fetched = fetch(e.newPartName(), e, origin);
                if (fetched != null && e.quorum() > 0 && origin != null && origin.quorumNode() != null) {
                    pendingQuorumOps = ReplicatedMergeTreeQuorum.addReplicaOps(table, e.newPartName(), origin.quorumNode());
                }
                return fetched;
            }
            case MERGE_PARTS:
                return merge(e);
            case DROP_RANGE:
                return dropRange(e);
            case MUTATE_PART:
                return mutate(e);
            case ALTER_METADATA:
                return ReplicatedMergeTreeAlter.execute(table, e);
            default:
                throw new IllegalStateException(e.type().name());
        }
    }

    /**
     * What a GET_PART needs from the replica that wrote the part, read in one round trip (with whether the part's
     * quorum failed and whether this replica lists the part already); null when this replica wrote it.
     */
    private record Origin(String replica, String isActive, String checksums, String host, boolean listedHere, boolean quorumFailed,
                          ZooKeeperClient.Node quorumNode) {
        boolean serves() {
            return isActive != null && checksums != null && host != null;
        }
    }

    private Origin readOrigin(ReplicatedMergeTreeLogEntry e) throws Exception {
        String origin = e.sourceReplica();
        if (origin == null || origin.isEmpty() || origin.equals(table.replicaName())) {
            return null;
        }
        String r = table.paths().replica(origin);
        List<ZooKeeperClient.Node> v = table.zk().getNodes(List.of(r + "/is_active", table.paths().part(origin, e.newPartName()) + "/checksums",
            r + "/host", table.paths().part(table.replicaName(), e.newPartName()), table.paths().quorumFailedPart(e.newPartName()),
            table.paths().quorumParallel(e.newPartName())));
        return new Origin(origin, value(v.get(0)), value(v.get(1)), value(v.get(2)), v.get(3) != null, v.get(4) != null, v.get(5));
    }

    private static String value(ZooKeeperClient.Node n) {
        return n == null ? null : n.value();
    }

    /**
     * The ops that count this replica in the parallel quorum of the part the last {@link #execute} fetched (read with
     * the fetch's other nodes, so they go in the same multi as the part's node); null when there are none, and the
     * quorum is then updated on its own ({@link #afterGetPart}).
     */
    List<CuratorOp> takeQuorumOps() {
        List<CuratorOp> ops = pendingQuorumOps;
        pendingQuorumOps = null;
        return ops;
    }

    /** Fetches {@code partName} for a merge that cannot run here. */
    private List<CuratorOp> fetch(String partName, ReplicatedMergeTreeLogEntry quorumEntry) throws Exception {
        return fetch(partName, quorumEntry, null);
    }

    /**
     * Fetches {@code partName}; {@code quorumEntry} is the GET_PART entry when it is one (null for a merge's fallback),
     * {@code origin} what its writer's nodes said (null: not read).
     */
    private List<CuratorOp> fetch(String partName, ReplicatedMergeTreeLogEntry quorumEntry, Origin origin) throws Exception {
        ZooKeeperClient zk = table.zk();
        MergeTreePartInfo info = MergeTreePartInfo.parse(partName);
        if (table.committingHere(partName)) {
            // this replica's own insert makes it active in a moment: fetching it back from a replica that already got
            // it would make that insert fail on a part that is there
            postponeReason = "Part " + partName + " is being committed by an insert on this replica";
            return null;
        }
        MergeTreeData.TempPart uncertain = table.takeUncertainPart(partName);
        if (uncertain != null) {
            return addPart(zk, info, uncertain, DataPartStorageOnDisk.bytesOf(uncertain.file().tmp()));
        }
        // the replica that wrote the part usually has it
        if (origin != null && origin.serves()) {
            List<CuratorOp> ops = fetchFrom(zk, origin.replica(), partName, origin.checksums(), origin.host(), origin.listedHere());
            if (ops != null) {
                return ops;
            }
        }
        for (String replica : zk.children(table.paths().replicas())) {
            if (replica.equals(table.replicaName()) || zk.exists(table.paths().replica(replica) + "/is_active") == null) {
                continue;
            }
            String source = coveringPart(zk, replica, info);
            if (source == null) {
                continue;
            }
            String checksums = zk.get(table.paths().part(replica, source) + "/checksums");
            String host = zk.get(table.paths().replica(replica) + "/host");
            if (checksums == null || host == null) {
                continue;
            }
            List<CuratorOp> ops = fetchFrom(zk, replica, source, checksums, host, null);
            if (ops != null) {
                return ops;
            }
        }
        if (quorumEntry != null && quorumEntry.quorum() > 0 && ReplicatedMergeTreeQuorum.markFailedIfLost(table, partName, quorumEntry.blockId())) {
            return List.of();
        }
        if (isLostForever(zk, info)) {
            LOG.warn("{}.{}: part {} is lost forever: no replica has it, a part covering it or a part inside it; an empty part takes its place",
                table.database(), table.name(), partName);
            return emptyPartInsteadOfLost(zk, info, quorumEntry == null ? "" : quorumEntry.blockId());
        }
        postponeReason = "No active replica has part " + partName + " or covering part (yet)";
        return null;
    }

    /**
     * Downloads {@code source} from {@code replica} (its {@code checksums} and {@code host} nodes read) and makes it
     * active here; null when that replica does not serve it. {@code listedHere}: whether this replica's node of the
     * part exists (null: not read yet).
     */
    private List<CuratorOp> fetchFrom(ZooKeeperClient zk, String replica, String source, String checksums, String host, Boolean listedHere)
        throws Exception {
        byte[] file = DataPartsExchange.fetch(field(host, "host"), Integer.parseInt(field(host, "port")), table.paths().replica(replica), source);
        if (file == null) {
            return null;
        }
        if (!DataPartsExchange.checksum(file).equals(checksums)) {
            throw new ChException(ErrorCode.CHECKSUM_DOESNT_MATCH, "Checksum mismatch for part " + source + " fetched from " + replica);
        }
        MergeTreePartInfo sourceInfo = MergeTreePartInfo.parse(source);
        Path dir = table.parts().directory();
        Path tmp = DataPartStorageOnDisk.writeFetched(dir, "fetch_" + source + "_" + System.nanoTime(), file);
        IMergeTreeDataPart probe = DataPartStorageOnDisk.read(tmp, sourceInfo, table.columns());
        MergeTreeData.TempPart part = new MergeTreeData.TempPart(sourceInfo.partitionId(), new MergeTreeDataPartWriter.Written(dir, tmp, probe.rowCount(),
            probe.bytesOnDisk(), probe.layout().dataOffset(), probe.blockIds(), table.fsyncParts()), probe.layout().stored());
        return addPart(zk, sourceInfo, part, file, listedHere);
    }

    /**
     * The part of {@code replica} to fetch for {@code wanted}: the part itself, or else the largest part of that
     * replica that covers it (the part was merged away there meanwhile), after ClickHouse's
     * {@code findReplicaHavingCoveringPart}; null when it has neither.
     */
    private String coveringPart(ZooKeeperClient zk, String replica, MergeTreePartInfo wanted) throws Exception {
        if (zk.exists(table.paths().part(replica, wanted.name())) != null) {
            return wanted.name();
        }
        MergeTreePartInfo best = null;
        for (String name : zk.children(table.replicaPathOf(replica) + "/parts")) {
            MergeTreePartInfo p = MergeTreePartInfo.tryParse(name);
            if (p != null && p.partitionId().equals(wanted.partitionId()) && p.contains(wanted) && (best == null || p.contains(best))) {
                best = p;
            }
        }
        return best == null ? null : best.name();
    }

    /** Makes a fetched or merged part active, replacing the parts it covers; returns the ops recording it. */
    private List<CuratorOp> addPart(ZooKeeperClient zk, MergeTreePartInfo info, MergeTreeData.TempPart tmp, byte[] file) throws Exception {
        return addPart(zk, info, tmp, file, null);
    }

    /** {@link #addPart(ZooKeeperClient, MergeTreePartInfo, MergeTreeData.TempPart, byte[])}; {@code listedHere} as in {@link #fetchFrom}. */
    private List<CuratorOp> addPart(ZooKeeperClient zk, MergeTreePartInfo info, MergeTreeData.TempPart tmp, byte[] file, Boolean listedHere)
        throws Exception {
        MergeTreeData data = table.parts();
        List<IMergeTreeDataPart> covered = new ArrayList<>();
        for (IMergeTreeDataPart p : data.activeParts()) {
            if (p.info().partitionId().equals(info.partitionId()) && info.contains(p.info())) {
                covered.add(p);
            }
        }
        if (covered.isEmpty()) {
            data.renameTempPartAndAdd(tmp, info);
        } else if (!data.renameTempPartAndReplace(tmp, info, covered)) {
            throw new ChException(ErrorCode.LOGICAL_ERROR, "Parts covered by " + info.name() + " changed meanwhile");
        }
        List<CuratorOp> ops = new ArrayList<>();
        for (IMergeTreeDataPart p : covered) {
            ops.addAll(table.removePartNodeOps(zk, p.name()));
        }
        if (listedHere != null ? !listedHere : zk.exists(table.paths().part(table.replicaName(), info.name())) == null) {
            ops.addAll(table.partNodeOps(zk, info.name(), file));
        }
        return ops;
    }

    /**
     * When a local part covers {@code partName} already: the ops that make ZooKeeper list it under this replica if it
     * does not yet (the part was kept here and a crash came before its nodes were written, see
     * {@link ReplicatedMergeTreePartCheckThread}), else none; null when this replica has no such part.
     */
    private List<CuratorOp> opsIfLocal(String partName) throws Exception {
        if (!hasPartLocally(partName)) {
            return null;
        }
        ZooKeeperClient zk = table.zk();
        IMergeTreeDataPart exact = table.parts().activePart(partName);
        if (exact == null || zk.exists(table.paths().part(table.replicaName(), partName)) != null) {
            return List.of();
        }
        byte[] file = table.partFileForFetch(partName);
        if (file == null) {
            return List.of();
        }
        List<CuratorOp> ops = new ArrayList<>();
        for (String listed : zk.children(table.replicaPathOf(table.replicaName()) + "/parts")) {
            MergeTreePartInfo i = MergeTreePartInfo.tryParse(listed);
            if (i != null && !listed.equals(partName) && i.partitionId().equals(exact.info().partitionId()) && exact.info().contains(i)
                && table.parts().activePart(listed) == null) {
                ops.addAll(table.removePartNodeOps(zk, listed));
            }
        }
        ops.addAll(table.partNodeOps(zk, partName, file));
        return ops;
    }

    /**
     * Whether no replica, active or not, lists {@code wanted}, a part covering it or a part inside it: nothing can ever
     * be fetched or merged into it (its only copy was lost), after ClickHouse's {@code searchForMissingPartOnOtherReplicas}.
     */
    private boolean isLostForever(ZooKeeperClient zk, MergeTreePartInfo wanted) throws Exception {
        for (String replica : zk.children(table.paths().replicas())) {
            for (String name : zk.children(table.replicaPathOf(replica) + "/parts")) {
                MergeTreePartInfo p = MergeTreePartInfo.tryParse(name);
                if (p != null && p.partitionId().equals(wanted.partitionId()) && (p.contains(wanted) || wanted.contains(p))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Puts an empty part in place of a part lost forever, as ClickHouse's {@code createEmptyPartInsteadOfLost}, so the
     * queues of every replica move on: each replica that finds the part lost writes the same empty file. The block id
     * that named the lost part goes with it, so a retry of that block is written again rather than taken for a
     * duplicate of rows that exist nowhere.
     */
    private List<CuratorOp> emptyPartInsteadOfLost(ZooKeeperClient zk, MergeTreePartInfo info, String blockId) throws Exception {
        MergeTreeData.TempPart tmp = table.parts().writeTempPart(info.partitionId(), java.util.Collections.emptyIterator(), List.of(),
            table.fsyncParts());
        List<CuratorOp> ops = new ArrayList<>(addPart(zk, info, tmp, DataPartStorageOnDisk.bytesOf(tmp.file().tmp())));
        if (blockId != null && !blockId.isEmpty()) {
            org.apache.zookeeper.data.Stat st = new org.apache.zookeeper.data.Stat();
            byte[] named = zk.get(table.paths().blockId(blockId), st);
            if (named != null && ZooKeeperClient.text(named).equals(info.name())) {
                ops.add(zk.op().delete().withVersion(st.getVersion()).forPath(table.paths().blockId(blockId)));
            }
        }
        return ops;
    }

    private List<CuratorOp> merge(ReplicatedMergeTreeLogEntry e) throws Exception {
        List<CuratorOp> local = opsIfLocal(e.newPartName());
        if (local != null) {
            return local;
        }
        MergeTreeData data = table.parts();
        List<IMergeTreeDataPart> sources = new ArrayList<>();
        for (String s : e.partsToMerge()) {
            IMergeTreeDataPart p = data.activePart(s);
            if (p == null) {
                return fetch(e.newPartName(), null);
            }
            sources.add(p);
        }
        List<MergeTreeDataPartReader> readers = data.openIfActive(sources);
        if (readers == null) {
            postponeReason = "Source parts of " + e.newPartName() + " changed meanwhile";
            return null;
        }
        MergeTreeDataMergerMutator.Result r = table.merger().mergePartsToTemporaryPart(sources, readers, table.fsyncParts());
        if (!r.info().name().equals(e.newPartName())) {
            r.tmp().discard();
            throw new ChException(ErrorCode.LOGICAL_ERROR, "Merging " + e.partsToMerge() + " gave " + r.info().name() + ", expected " + e.newPartName());
        }
        for (IMergeTreeDataPart p : data.activeParts()) {
            if (p.info().partitionId().equals(r.info().partitionId()) && r.info().contains(p.info()) && !sources.contains(p)) {
                LOG.warn("{}.{}: merged part {} covers part {}, which is not one of its sources {}: that part's rows are dropped"
                    + " (the part is listed under this replica in ZooKeeper: {})", table.database(), table.name(), r.info().name(), p.name(),
                    e.partsToMerge(), table.zk().exists(table.paths().part(table.replicaName(), p.name())) != null);
            }
        }
        byte[] file = DataPartStorageOnDisk.bytesOf(r.tmp().file().tmp());
        return addPart(table.zk(), r.info(), r.tmp(), file);
    }

    /**
     * MUTATE_PART: rewrites the source with the mutation whose number is the new part's mutation version, as
     * {@code MergeTreeDataMergerMutator::mutatePartToTemporaryPart} (the same bytes on every replica); a mutation that
     * deletes every row leaves no part. Without the source here, fetches the result.
     */
    private List<CuratorOp> mutate(ReplicatedMergeTreeLogEntry e) throws Exception {
        List<CuratorOp> local = opsIfLocal(e.newPartName());
        if (local != null) {
            return local;
        }
        MergeTreeData data = table.parts();
        IMergeTreeDataPart source = data.activePart(e.partsToMerge().get(0));
        if (source == null) {
            return fetch(e.newPartName(), null);
        }
        MergeTreePartInfo target = MergeTreePartInfo.parse(e.newPartName());
        ReplicatedMergeTreeMutationEntry m = table.mutations().entryFor(target);
        if (m == null) {
            // killed (KILL MUTATION): take the result where a replica already made it, else leave the part as it is
            List<CuratorOp> fetched = fetch(e.newPartName(), null);
            return fetched == null ? List.of() : fetched;
        }
        MergeTreeDataMergerMutator.RowMutation fn = table.mutations().function(m);
        if (fn == null) {
            postponeReason = "Mutation " + m.znodeName() + " cannot be compiled yet (the server is starting)";
            return null;
        }
        List<MergeTreeDataPartReader> readers = data.openIfActive(List.of(source));
        if (readers == null) {
            postponeReason = "Source part " + source.name() + " of " + e.newPartName() + " changed meanwhile";
            return null;
        }
        MergeTreeDataMergerMutator.Result r = table.merger().mutatePartToTemporaryPart(source, readers.get(0), fn, target.mutation(),
            table.fsyncParts());
        if (r.tmp() == null) {
            if (!data.renameTempPartAndReplace(null, null, List.of(source))) {
                throw new ChException(ErrorCode.LOGICAL_ERROR, "Part " + source.name() + " changed while it was mutated");
            }
            return table.removePartNodeOps(table.zk(), source.name());
        }
        byte[] file = DataPartStorageOnDisk.bytesOf(r.tmp().file().tmp());
        return addPart(table.zk(), r.info(), r.tmp(), file);
    }

    private List<CuratorOp> dropRange(ReplicatedMergeTreeLogEntry e) throws Exception {
        MergeTreePartInfo range = MergeTreePartInfo.parse(e.newPartName());
        table.queue().removeEntriesCoveredBy(range, null);
        List<IMergeTreeDataPart> removed = table.parts().removeParts(p -> p.info().partitionId().equals(range.partitionId()) && range.contains(p.info()));
        List<CuratorOp> ops = new ArrayList<>();
        for (IMergeTreeDataPart p : removed) {
            ops.addAll(table.removePartNodeOps(table.zk(), p.name()));
        }
        // as ClickHouse's executeDropRange, which wakes the cleanup thread: on the leader the deduplication window is
        // applied to the block ids left now, before the entry is done (a real 18.16 has done so before the next insert)
        table.cleanupThread().wakeup();
        return ops;
    }

    /** After a GET_PART entry is done here: counts this replica in the part's quorum, if the entry was a quorum insert. */
    void afterGetPart(ReplicatedMergeTreeLogEntry e) throws Exception {
        if (e.type() == ReplicatedMergeTreeLogEntry.Type.GET_PART && e.quorum() > 0 && hasPartLocally(e.newPartName())) {
            ReplicatedMergeTreeQuorum.updateQuorum(table, e.newPartName());
        }
    }

    private static String field(String text, String name) {
        for (String line : text.split("\n")) {
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2);
            }
        }
        throw new ChException(ErrorCode.LOGICAL_ERROR, "No '" + name + "' in host node: " + text);
    }
}
