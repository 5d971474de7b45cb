package dev.chdedup.stub.replicated;

import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this replica's parts and what ZooKeeper lists under it in agreement, after ClickHouse's
 * {@code StorageReplicatedMergeTree::checkParts} (at start) and {@code ReplicatedMergeTreePartCheckThread} (while
 * running). At start, before the queue runs: a local part that ZooKeeper does not list and that no queue entry will
 * produce is unexpected (an insert whose commit never reached ZooKeeper because the process died first) and is
 * detached to {@code detached/unexpected_<name>}; a part ZooKeeper lists and this replica lacks has its nodes
 * removed and a GET_PART queued for it in one multi, so it is fetched again. While running, every
 * {@link #CHECK_PERIOD_MS} it settles the inserts whose commit outcome was unknown (319): one whose part ZooKeeper does
 * not list under this replica did not land (after a reconnect ZooKeeper has applied or dropped the multi for good), so
 * its file is deleted and its block number released; one that landed is left to the queue, which makes it active when
 * it reaches the part's own GET_PART entry.
 */
final class ReplicatedMergeTreePartCheckThread implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedMergeTreePartCheckThread.class);
    static final long CHECK_PERIOD_MS = 500;

    private final StorageReplicatedMergeTree table;
    private Thread thread;
    private volatile boolean closed;

    ReplicatedMergeTreePartCheckThread(StorageReplicatedMergeTree table) {
        this.table = table;
    }

    /** The start-up check; then the thread that settles unknown commit outcomes. */
    ReplicatedMergeTreePartCheckThread start() {
        try {
            checkPartsAtStartup();
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("checking the parts against ZooKeeper", e);
        }
        thread = new Thread(this::run, "replication-part-check-" + table.database() + "." + table.name() + "-" + table.replicaName());
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    void checkPartsAtStartup() throws Exception {
        ZooKeeperClient zk = table.zk();
        ReplicatedPaths paths = table.paths();
        Set<String> listed = new HashSet<>(zk.children(paths.replica() + "/parts"));
        Set<String> queued = new HashSet<>();
        for (String n : zk.children(paths.queue())) {
            String text = zk.get(paths.queue() + "/" + n);
            if (text != null) {
                queued.add(ReplicatedMergeTreeLogEntry.parse(text).newPartName());
            }
        }
        for (IMergeTreeDataPart p : table.parts().activeParts()) {
            if (!listed.contains(p.name()) && !queued.contains(p.name())) {
                LOG.warn("{}.{}: unexpected part {} (not in ZooKeeper): detaching it as unexpected_{}", table.database(), table.name(), p.name(), p.name());
                table.parts().detachPart(p.name(), "unexpected");
            }
        }
        List<IMergeTreeDataPart> local = table.parts().activeParts();
        for (String name : listed) {
            MergeTreePartInfo info = MergeTreePartInfo.tryParse(name);
            if (info == null || covered(local, info)) {
                continue;
            }
            LOG.warn("{}.{}: part {} is in ZooKeeper and missing here: queueing its fetch", table.database(), table.name(), name);
            List<CuratorOp> ops = new ArrayList<>(table.removePartNodeOps(zk, name));
            ops.add(zk.op().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(paths.queue() + "/queue-",
                ZooKeeperClient.bytes(ReplicatedMergeTreeLogEntry.getPart(table.replicaName(), "", name, 0).toText())));
            zk.multi(ops);
        }
    }

    private static boolean covered(List<IMergeTreeDataPart> local, MergeTreePartInfo info) {
        for (IMergeTreeDataPart p : local) {
            if (p.info().partitionId().equals(info.partitionId()) && p.info().contains(info)) {
                return true;
            }
        }
        return false;
    }

    private void run() {
        while (!closed) {
            synchronized (this) {
                try {
                    wait(CHECK_PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (closed || table.uncertainParts().isEmpty() || !table.zk().connected()) {
                continue;
            }
            try {
                settleUncertainParts();
            } catch (Exception e) {
                LOG.debug("{}.{}: settling unknown commit outcomes failed, will retry: {}", table.database(), table.name(), e.toString());
            }
        }
    }

    /** Discards the parts whose unknown commit turned out not to have landed; returns how many. */
    int settleUncertainParts() throws Exception {
        ZooKeeperClient zk = table.zk();
        int discarded = 0;
        for (Map.Entry<String, StorageReplicatedMergeTree.UncertainPart> e : table.uncertainParts().entrySet()) {
            String part = e.getKey();
            if (zk.exists(table.paths().part(table.replicaName(), part)) != null) {
                continue;
            }
            StorageReplicatedMergeTree.UncertainPart u = e.getValue();
            // the lock goes first: a commit multi still in flight removes it too, so once it is gone here that multi
            // can no longer apply; when it was gone already, the multi either applied (the part node is there by now)
            // or never will (the session that held the lock ended)
            if (!zk.tryDelete(u.lock().path()) && zk.exists(table.paths().part(table.replicaName(), part)) != null) {
                continue;
            }
            if (table.uncertainParts().remove(part, u)) {
                u.tmp().discard();
                discarded++;
                LOG.info("{}.{}: the commit of part {} did not reach ZooKeeper: its file is removed", table.database(), table.name(), part);
            }
        }
        return discarded;
    }

    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
    }
}
