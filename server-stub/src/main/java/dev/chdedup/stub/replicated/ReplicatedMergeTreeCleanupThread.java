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
 * entries every replica has copied to its queue (at least {@code min_replicated_logs_to_keep} stay), and block ids
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

    /** Removes the log entries below every replica's log_pointer, keeping the newest min_replicated_logs_to_keep. */
    void clearOldLogs() throws Exception {
        ZooKeeperClient zk = table.zk();
        long minPointer = Long.MAX_VALUE;
        for (String r : zk.children(table.paths().replicas())) {
            String p = zk.get(table.paths().replica(r) + "/log_pointer");
            minPointer = Math.min(minPointer, p == null || p.isBlank() ? 0 : Long.parseLong(p.trim()));
        }
        List<String> entries = new ArrayList<>(zk.children(table.paths().log()));
        entries.sort(null);
        long keep = table.setting("min_replicated_logs_to_keep");
        int removable = (int) Math.max(0, entries.size() - keep);
        List<String> gone = new ArrayList<>();
        for (int i = 0; i < removable; i++) {
            if (Long.parseLong(entries.get(i).substring("log-".length())) < minPointer) {
                gone.add(table.paths().log() + "/" + entries.get(i));
            }
        }
        deleteInParallel(zk, gone);
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
