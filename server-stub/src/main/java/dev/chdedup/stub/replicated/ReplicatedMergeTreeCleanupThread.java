package dev.chdedup.stub.replicated;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trims what ZooKeeper keeps for a replicated table, after ClickHouse's {@code ReplicatedMergeTreeCleanupThread}, on
 * the leader every {@code cleanup_delay_period} seconds (plus up to {@code cleanup_delay_period_random_add}): log
 * entries every replica has copied to its queue (at least {@code min_replicated_logs_to_keep} stay; an inactive replica
 * more than {@code max_replicated_logs_to_keep} behind is marked lost and no longer holds the log), and block ids
 * beyond the deduplication window: all but the newest {@code replicated_deduplication_window}, and those older than
 * {@code replicated_deduplication_window_seconds} before the newest one's ctime (ZooKeeper's clock, not this
 * server's). Block ids are removed with parallel asynchronous deletes.
 */
final class ReplicatedMergeTreeCleanupThread implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedMergeTreeCleanupThread.class);

    private final StorageReplicatedMergeTree table;
    private final Thread thread;
    private volatile boolean closed;

    ReplicatedMergeTreeCleanupThread(StorageReplicatedMergeTree table) {
        this.table = table;
        this.thread = new Thread(this::run, "replication-cleanup-" + table.database() + "." + table.name() + "-" + table.replicaName());
        thread.setDaemon(true);
    }

    ReplicatedMergeTreeCleanupThread start() {
        thread.start();
        return this;
    }

    private void run() {
        while (!closed) {
            long periodMs = table.setting("cleanup_delay_period") * 1000
                + ThreadLocalRandom.current().nextLong(table.setting("cleanup_delay_period_random_add") * 1000 + 1);
            synchronized (this) {
                long deadline = System.currentTimeMillis() + Math.max(100, periodMs);
                while (!closed && System.currentTimeMillis() < deadline) {
                    try {
                        wait(Math.max(1, deadline - System.currentTimeMillis()));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            if (closed) {
                return;
            }
            try {
                if (!table.isReadonly() && table.isLeader()) {
                    clearOldLogs();
                    clearOldBlocks();
                }
            } catch (Exception e) {
                LOG.debug("Cleanup of {}: {}", table.replicaPath(), e.toString());
            }
        }
    }

    /**
     * What ClickHouse's {@code cleanup_thread.wakeup()} after a DROP_RANGE does for the block ids: on the leader, applies
     * the deduplication window now, in the calling thread (so the next statement finds it applied, as it does on a real
     * server, where the woken task runs at once). The periodic run goes on as before.
     */
    void wakeup() {
        if (closed || table.isReadonly() || !table.isLeader()) {
            return;
        }
        try {
            clearOldBlocks();
        } catch (Exception e) {
            LOG.debug("Cleanup of {} after a drop: {}", table.replicaPath(), e.toString());
        }
    }

    /**
     * Removes the log entries every replica that is not lost has copied, keeping the newest
     * {@code min_replicated_logs_to_keep}, as ClickHouse's {@code clearOldLogs}. An inactive replica may hold the log back
     * only while it has at most {@code max_replicated_logs_to_keep} entries: past that the log is trimmed beyond its
     * pointer (never beyond an active replica's) and it is marked lost ({@code is_lost} = 1, in a multi that checks its
     * {@code host} node is unchanged, so a replica that came back meanwhile is not marked), to clone a live replica when
     * it returns. Returns the replicas it marked lost.
     */
    List<String> clearOldLogs() throws Exception {
        ZooKeeperClient zk = table.zk();
        List<String> entries = new ArrayList<>(zk.children(table.paths().log()));
        entries.sort(null);
        long minKeep = table.setting("min_replicated_logs_to_keep");
        long maxKeep = Math.max(minKeep, table.setting("max_replicated_logs_to_keep"));
        if (entries.size() <= minKeep) {
            return List.of();
        }
        record Replica(String name, long pointer, boolean active, int hostVersion) {
        }
        List<Replica> replicas = new ArrayList<>();
        long minActive = Long.MAX_VALUE;
        long minAll = Long.MAX_VALUE;
        for (String r : zk.children(table.paths().replicas())) {
            String rp = table.paths().replica(r);
            Stat host = new Stat();
            if (zk.get(rp + "/host", host) == null || "1".equals(zk.get(rp + "/is_lost"))) {
                continue;
            }
            String p = zk.get(rp + "/log_pointer");
            long pointer = p == null || p.isBlank() ? 0 : Long.parseLong(p.trim());
            boolean active = zk.exists(rp + "/is_active") != null;
            replicas.add(new Replica(r, pointer, active, host.getVersion()));
            minAll = Math.min(minAll, pointer);
            if (active) {
                minActive = Math.min(minActive, pointer);
            }
        }
        long minSaved = minAll;
        if (entries.size() > maxKeep) {
            minSaved = Math.max(minSaved, index(entries.get((int) (entries.size() - maxKeep))));
        }
        minSaved = Math.min(minSaved, Math.min(minActive, index(entries.get((int) (entries.size() - minKeep)))));
        List<String> lost = new ArrayList<>();
        List<org.apache.curator.framework.api.transaction.CuratorOp> marks = new ArrayList<>();
        for (Replica r : replicas) {
            if (!r.active() && r.pointer() < minSaved) {
                String rp = table.paths().replica(r.name());
                marks.add(zk.op().check().withVersion(r.hostVersion()).forPath(rp + "/host"));
                marks.add(zk.op().setData().forPath(rp + "/is_lost", ZooKeeperClient.bytes("1")));
                lost.add(r.name());
            }
        }
        if (!marks.isEmpty()) {
            zk.multi(marks);
            LOG.warn("Replicas {} of {} are marked lost: the log is trimmed to entry {} past their pointers", lost, table.zookeeperPath(), minSaved);
        }
        List<String> gone = new ArrayList<>();
        for (String e : entries) {
            if (index(e) < minSaved) {
                gone.add(table.paths().log() + "/" + e);
            }
        }
        deleteInParallel(zk, gone);
        return lost;
    }

    private static long index(String logEntry) {
        return Long.parseLong(logEntry.substring("log-".length()));
    }

    /** Removes the block ids outside the deduplication window, by count and by age from the newest id's ctime. */
    void clearOldBlocks() throws Exception {
        ZooKeeperClient zk = table.zk();
        long window = table.setting("replicated_deduplication_window");
        long windowSeconds = table.setting("replicated_deduplication_window_seconds");
        record Block(String path, long ctime) {
        }
        List<Block> blocks = new ArrayList<>();
        for (String id : zk.children(table.paths().blocks())) {
            Stat st = zk.exists(table.paths().blockId(id));
            if (st != null) {
                blocks.add(new Block(table.paths().blockId(id), st.getCtime()));
            }
        }
        if (blocks.isEmpty()) {
            return;
        }
        blocks.sort(Comparator.comparingLong(Block::ctime).reversed().thenComparing(Block::path));
        long newest = blocks.get(0).ctime();
        List<String> gone = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            if (i >= window || newest - b.ctime() > windowSeconds * 1000) {
                gone.add(b.path());
            }
        }
        deleteInParallel(zk, gone);
    }

    private static void deleteInParallel(ZooKeeperClient zk, List<String> paths) throws Exception {
        if (paths.isEmpty()) {
            return;
        }
        CountDownLatch done = new CountDownLatch(paths.size());
        for (String p : paths) {
            zk.curator().delete().inBackground((client, event) -> done.countDown()).forPath(p);
        }
        if (!done.await(30, TimeUnit.SECONDS)) {
            LOG.warn("Cleanup: {} of {} deletes not answered in 30 s", done.getCount(), paths.size());
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            notifyAll();
        }
    }
}
