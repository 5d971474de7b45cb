package dev.chdedup.stub.replicated;

import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a replica that cannot replay the log back in line by copying a live one, after ClickHouse's
 * {@code StorageReplicatedMergeTree::cloneReplicaIfNeeded}/{@code cloneReplica}: a replica the cleanup thread marked
 * lost ({@code is_lost} = 1: the log was trimmed past its pointer while it was away), or a new replica of a table whose
 * log no longer starts at 0. The source is an active replica that is not lost; its log pointer is read first, then its
 * queue, then its parts, so nothing between them is missed. In one multi the replica's own queue is replaced by the
 * source's entries plus a GET_PART for every source part it does not have, its log pointer set to the source's and
 * {@code is_lost} to 0. Local parts that no source part covers (dropped or merged away meanwhile, or never replicated)
 * leave the active set for {@code detached/clone_<name>}, as ClickHouse's cloneReplica detaches them.
 */
final class CloneReplica {
    private static final Logger LOG = LoggerFactory.getLogger(CloneReplica.class);

    private CloneReplica() {
    }

    static boolean isLost(StorageReplicatedMergeTree t) throws Exception {
        return "1".equals(t.zk().get(t.paths().replicaNode("is_lost")));
    }

    /**
     * Clones if this replica is lost, or {@code newReplica} and the log is trimmed; returns whether it cloned. A new
     * replica while the whole log is still there replays it instead, as before the layout of 26.7, which creates every
     * replica after the first lost: it is marked not lost (its pointer and queue are empty), so it also applies the
     * ALTERs the log holds, which a clone would not copy.
     */
    static boolean cloneReplicaIfNeeded(StorageReplicatedMergeTree t, boolean newReplica) throws Exception {
        ZooKeeperClient zk = t.zk();
        if (newReplica) {
            List<String> log = new ArrayList<>(zk.children(t.paths().log()));
            log.sort(null);
            if (log.isEmpty() || log.get(0).equals("log-0000000000")) {
                if (isLost(t)) {
                    zk.set(t.paths().replicaNode("is_lost"), "0");
                }
                return false;
            }
        } else if (!isLost(t)) {
            return false;
        }
        for (String source : zk.children(t.paths().replicas())) {
            String sp = t.paths().replica(source);
            if (source.equals(t.replicaName()) || zk.exists(sp + "/is_active") == null || "1".equals(zk.get(sp + "/is_lost"))) {
                continue;
            }
            clone(t, zk, source);
            return true;
        }
        LOG.warn("Replica {} must be cloned but no active replica that is not lost exists; it stays lost", t.replicaPath());
        return false;
    }

    private static void clone(StorageReplicatedMergeTree t, ZooKeeperClient zk, String source) throws Exception {
        String sp = t.paths().replica(source);
        String pointer = zk.get(sp + "/log_pointer");
        List<String> entries = new ArrayList<>();
        List<String> queued = new ArrayList<>(zk.children(sp + "/queue"));
        queued.sort(null);
        for (String q : queued) {
            String text = zk.get(sp + "/queue/" + q);
            if (text != null) {
                entries.add(text);
            }
        }
        List<MergeTreePartInfo> sourceParts = new ArrayList<>();
        for (String part : zk.children(sp + "/parts")) {
            MergeTreePartInfo info = MergeTreePartInfo.tryParse(part);
            if (info != null) {
                sourceParts.add(info);
            }
        }
        List<IMergeTreeDataPart> local = t.parts().activeParts();
        for (MergeTreePartInfo p : sourceParts) {
            if (local.stream().noneMatch(l -> l.info().contains(p))) {
                entries.add(ReplicatedMergeTreeLogEntry.getPart(source, "", p.name(), 0).toText());
            }
        }
        List<IMergeTreeDataPart> orphans = local.stream().filter(l -> sourceParts.stream().noneMatch(p -> p.contains(l.info()))).toList();
        List<CuratorOp> ops = new ArrayList<>();
        for (String q : zk.children(t.paths().queue())) {
            ops.add(zk.op().delete().forPath(t.paths().queue() + "/" + q));
        }
        for (String text : entries) {
            ops.add(zk.op().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(t.paths().queue() + "/queue-", ZooKeeperClient.bytes(text)));
        }
        for (IMergeTreeDataPart o : orphans) {
            ops.addAll(t.removePartNodeOps(zk, o.name()));
        }
        ops.add(zk.op().setData().forPath(t.paths().replicaNode("log_pointer"), ZooKeeperClient.bytes(pointer == null ? "0" : pointer)));
        ops.add(zk.op().setData().forPath(t.paths().replicaNode("is_lost"), ZooKeeperClient.bytes("0")));
        zk.multi(ops);
        for (IMergeTreeDataPart o : orphans) {
            t.parts().detachPart(o.name(), "clone");
        }
        LOG.info("Replica {} cloned from {}: {} entries, log pointer {}, {} local parts no longer active: {}", t.replicaPath(), source,
            entries.size(), pointer, orphans.size(), orphans.stream().map(IMergeTreeDataPart::name).toList());
    }
}
