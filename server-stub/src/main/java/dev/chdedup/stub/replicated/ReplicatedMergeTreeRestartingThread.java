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
    /** Connection events seen so far, under this object's lock: a reactivation from before the latest one is stale. */
    private long events;

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
        long event;
        synchronized (this) {
            event = ++events;
            if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
                table.setReadonly(true);
            }
        }
        switch (state) {
            case SUSPENDED:
            case LOST:
                LOG.warn("{}: ZooKeeper connection {}: the table is read-only", table.replicaPath(), state);
                break;
            case RECONNECTED:
            case CONNECTED:
                Thread t = new Thread(() -> reactivate(event), "restarting-" + table.replicaName());
                t.setDaemon(true);
                t.start();
                break;
            default:
                break;
        }
    }

    /**
     * Activates the replica again, retrying with backoff while the connection stays up (a new session may lag). The
     * table becomes writable only if no connection event came after {@code event}: a reactivation that raced with a
     * new loss of the connection leaves the table read-only.
     */
    private void reactivate(long event) {
        long backoffMs = 50;
        while (!closed && curator.getZookeeperClient().isConnected() && !stale(event)) {
            try {
                table.activateReplicaIfInactive();
                synchronized (this) {
                    if (events != event || !curator.getZookeeperClient().isConnected()) {
                        return;
                    }
                    table.setReadonly(false);
                }
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

    private synchronized boolean stale(long event) {
        return events != event;
    }

    @Override
    public void close() {
        closed = true;
        curator.getConnectionStateListenable().removeListener(this);
    }
}
