package dev.chdedup.stub.replicated;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a replica usable across ZooKeeper trouble, after ClickHouse's {@code ReplicatedMergeTreeRestartingThread}:
 * when the connection is suspended or lost the table turns read-only (inserts answer TABLE_IS_READ_ONLY); when it
 * is back, the replica is activated again ({@code is_active} and its leader-election node are re-created if the old
 * session took them away) and the queue is woken, then the table is writable again. Runs on Curator's event thread.
 */
final class ReplicatedMergeTreeRestartingThread implements ConnectionStateListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedMergeTreeRestartingThread.class);

    private final StorageReplicatedMergeTree table;
    private final CuratorFramework curator;
    private volatile boolean closed;

    ReplicatedMergeTreeRestartingThread(StorageReplicatedMergeTree table, CuratorFramework curator) {
        this.table = table;
        this.curator = curator;
        curator.getConnectionStateListenable().addListener(this);
    }

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState state) {
        if (closed) {
            return;
        }
        switch (state) {
            case SUSPENDED:
            case LOST:
                table.setReadonly(true);
                LOG.warn("{}: ZooKeeper connection {}: the table is read-only", table.replicaPath(), state);
                break;
            case RECONNECTED:
            case CONNECTED:
                Thread t = new Thread(this::reactivate, "restarting-" + table.replicaName());
                t.setDaemon(true);
                t.start();
                break;
            default:
                break;
        }
    }

    /** Activates the replica again, retrying with backoff while the connection stays up (a new session may lag). */
    private void reactivate() {
        long backoffMs = 50;
        while (!closed && curator.getZookeeperClient().isConnected()) {
            try {
                table.activateReplicaIfInactive();
                table.setReadonly(false);
                table.queue().wakeUp();
                LOG.info("{}: ZooKeeper is back: the replica is active again", table.replicaPath());
                return;
            } catch (RuntimeException e) {
                LOG.warn("{}: could not activate the replica again, retrying: {}", table.replicaPath(), e.toString());
                java.util.concurrent.locks.LockSupport.parkNanos(backoffMs * 1_000_000);
                backoffMs = Math.min(1_000, backoffMs * 2);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        curator.getConnectionStateListenable().removeListener(this);
    }
}
