package dev.chdedup.stub.replicated;

import java.util.List;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;

/**
 * A block number held while an insert commits, after ClickHouse's {@code EphemeralLockInZooKeeper}: an
 * ephemeral-sequential node {@code block_numbers/<partition>/block-NNNNNNNNNN}, whose sequence number is the block
 * number. It is created in the same multi as the insert's block id checks ({@link #acquire}), so a duplicate takes no
 * number, and removed in the insert's commit multi ({@link #unlockOp}); if the inserting server dies, the session
 * expires and the number is released. While it exists no merge may span the number.
 */
public final class EphemeralLockInZooKeeper {
    private final String path;
    private final long number;

    private EphemeralLockInZooKeeper(String path) {
        this.path = path;
        this.number = Long.parseLong(path.substring(path.length() - 10));
    }

    /**
     * Sends one multi: {@code checks} (the block id checks) and the lock's creation under {@code prefix}
     * ({@code .../block_numbers/<partition>/block-}); throws what the multi threw (NodeExists names a duplicate).
     */
    public static EphemeralLockInZooKeeper acquire(ZooKeeperClient zk, String prefix, List<CuratorOp> checks) throws Exception {
        List<CuratorOp> ops = new java.util.ArrayList<>(checks);
        ops.add(zk.op().create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(prefix));
        List<String> paths = zk.multiPaths(ops);
        return new EphemeralLockInZooKeeper(paths.get(paths.size() - 1));
    }

    public long number() {
        return number;
    }

    public String path() {
        return path;
    }

    /** The op that releases the number, for the commit multi. */
    public CuratorOp unlockOp(ZooKeeperClient zk) throws Exception {
        return zk.op().delete().forPath(path);
    }

    /** Releases the number in a round trip of its own (the insert did not commit). */
    public void unlock(ZooKeeperClient zk) {
        try {
            zk.tryDelete(path);
        } catch (Exception ignored) {
            // the session's end removes it
        }
    }
}
