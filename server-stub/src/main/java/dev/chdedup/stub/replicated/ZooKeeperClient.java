package dev.chdedup.stub.replicated;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The server's ZooKeeper session through Curator, after ClickHouse's {@code zkutil::ZooKeeper}: thin calls that
 * count every write round trip ({@link #writeRoundTrips}: one per create, set, delete or multi sent), so a test can
 * prove what an insert costs. Curator does not retry here: an operation interrupted by a lost connection surfaces
 * as a {@link KeeperException}, and the caller decides whether its outcome is unknown (a commit multi) or the
 * operation can be repeated (a read). Paths are absolute; values are UTF-8 text.
 */
public final class ZooKeeperClient implements AutoCloseable {
    private final CuratorFramework curator;
    private final AtomicLong writes = new AtomicLong();
    private volatile boolean readMultiUnsupported;
    private volatile boolean persistentWatchUnsupported;
    /** The paths under a persistent watch, with the session that holds it (a new session has none). */
    private final java.util.Map<String, Long> persistentWatches = new java.util.concurrent.ConcurrentHashMap<>();
    /** The same count, per calling thread: what one insert sent, whatever the background threads do meanwhile. */
    private final ThreadLocal<long[]> threadWrites = ThreadLocal.withInitial(() -> new long[1]);

    public ZooKeeperClient(String connectString, int sessionTimeoutMs) throws InterruptedException {
        this.curator = CuratorFrameworkFactory.builder().connectString(connectString).sessionTimeoutMs(sessionTimeoutMs)
            .connectionTimeoutMs(Math.min(15_000, sessionTimeoutMs)).retryPolicy(new RetryNTimes(0, 0)).build();
        curator.start();
        if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
            curator.close();
            throw new IllegalStateException("Cannot connect to ZooKeeper at " + connectString);
        }
    }

    public CuratorFramework curator() {
        return curator;
    }

    /** Write round trips sent so far (creates, sets, deletes and multis; reads are not counted). */
    public long writeRoundTrips() {
        return writes.get();
    }

    /** Write round trips the calling thread sent through this client so far. */
    public long writeRoundTripsOfThisThread() {
        return threadWrites.get()[0];
    }

    private void countWrite() {
        writes.incrementAndGet();
        threadWrites.get()[0]++;
    }

    public TransactionOp op() {
        return curator.transactionOp();
    }

    /** Sends {@code ops} as one multi: all of them apply or none. */
    public void multi(List<CuratorOp> ops) throws Exception {
        countWrite();
        curator.transaction().forOperations(ops);
    }

    /** Sends {@code ops} as one multi and returns the path each op created or touched, in order. */
    public List<String> multiPaths(List<CuratorOp> ops) throws Exception {
        countWrite();
        return curator.transaction().forOperations(ops).stream().map(r -> r.getResultPath()).toList();
    }

    public String create(String path, String value, CreateMode mode) throws Exception {
        countWrite();
        return curator.create().withMode(mode).forPath(path, bytes(value));
    }

    /** Creates a persistent node unless it exists; returns whether this call created it. */
    public boolean tryCreate(String path, String value) throws Exception {
        try {
            create(path, value, CreateMode.PERSISTENT);
            return true;
        } catch (KeeperException.NodeExistsException e) {
            return false;
        }
    }

    public void set(String path, String value) throws Exception {
        countWrite();
        curator.setData().forPath(path, bytes(value));
    }

    public void delete(String path) throws Exception {
        countWrite();
        curator.delete().forPath(path);
    }

    public boolean tryDelete(String path) throws Exception {
        try {
            delete(path);
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
    }

    /** The node's value, or null when it does not exist. */
    public String get(String path) throws Exception {
        try {
            return new String(curator.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /**
     * The values of several nodes in one round trip (ZooKeeper's read-only multi, as ClickHouse batches its
     * {@code tryGet} calls), in order, each null when its node does not exist. A server older than 3.6 does not know
     * read multis: the values are then read one by one.
     */
    public List<String> getAll(List<String> paths) throws Exception {
        List<String> values = new java.util.ArrayList<>(paths.size());
        for (Node n : getNodes(paths)) {
            values.add(n == null ? null : n.value());
        }
        return values;
    }

    /** A node's value and stat, as {@link #getNodes} reads them. */
    public record Node(String value, Stat stat) {
    }

    /** {@link #getAll} with each node's stat: null for a node that does not exist. */
    public List<Node> getNodes(List<String> paths) throws Exception {
        if (readMultiUnsupported) {
            return getOneByOne(paths);
        }
        List<Op> ops = new java.util.ArrayList<>(paths.size());
        for (String path : paths) {
            ops.add(Op.getData(path));
        }
        List<OpResult> results;
        try {
            results = curator.getZookeeperClient().getZooKeeper().multi(ops);
        } catch (KeeperException.UnimplementedException e) {
            readMultiUnsupported = true;
            return getOneByOne(paths);
        }
        List<Node> values = new java.util.ArrayList<>(paths.size());
        for (int i = 0; i < results.size(); i++) {
            OpResult r = results.get(i);
            if (r instanceof OpResult.GetDataResult d) {
                values.add(new Node(d.getData() == null ? "" : new String(d.getData(), StandardCharsets.UTF_8), d.getStat()));
            } else if (r instanceof OpResult.ErrorResult err && err.getErr() == KeeperException.Code.NONODE.intValue()) {
                values.add(null);
            } else {
                int code = r instanceof OpResult.ErrorResult err ? err.getErr() : KeeperException.Code.SYSTEMERROR.intValue();
                throw KeeperException.create(KeeperException.Code.get(code), paths.get(i));
            }
        }
        return values;
    }

    /**
     * Keeps a persistent watch ({@code addWatch} in PERSISTENT mode) on {@code path} in the current session: {@code
     * watcher} then hears of every change of the node and of its children without reading them again. Adds it when
     * this session has none yet. Returns true when it added the watch now (what changed before is not known to the
     * caller), false when the session held it already, null when the server is older than 3.6 and has none.
     */
    /** For tests: behave as against a server without persistent watches (false), or find out again (true). */
    void usePersistentWatches(boolean use) {
        persistentWatchUnsupported = !use;
        persistentWatches.clear();
    }

    public Boolean watchPersistently(String path, CuratorWatcher watcher) throws Exception {
        if (persistentWatchUnsupported) {
            return null;
        }
        long session = curator.getZookeeperClient().getZooKeeper().getSessionId();
        Long held = persistentWatches.get(path);
        if (held != null && held == session) {
            return Boolean.FALSE;
        }
        try {
            curator.watchers().add().withMode(org.apache.zookeeper.AddWatchMode.PERSISTENT).usingWatcher(watcher).forPath(path);
        } catch (KeeperException.UnimplementedException e) {
            persistentWatchUnsupported = true;
            return null;
        }
        persistentWatches.put(path, session);
        return Boolean.TRUE;
    }

    private List<Node> getOneByOne(List<String> paths) throws Exception {
        List<Node> values = new java.util.ArrayList<>(paths.size());
        for (String path : paths) {
            Stat stat = new Stat();
            byte[] value = get(path, stat);
            values.add(value == null ? null : new Node(new String(value, StandardCharsets.UTF_8), stat));
        }
        return values;
    }

    /** The node's value and stat, or null when it does not exist. */
    public byte[] get(String path, Stat stat) throws Exception {
        try {
            return curator.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** The node's value and stat, or null when it does not exist; {@code watcher} fires once when it changes or goes. */
    public byte[] get(String path, Stat stat, CuratorWatcher watcher) throws Exception {
        try {
            return curator.getData().storingStatIn(stat).usingWatcher(watcher).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** The node's stat, or null; {@code watcher} fires once when it is created, changed or removed. */
    public Stat exists(String path, CuratorWatcher watcher) throws Exception {
        return curator.checkExists().usingWatcher(watcher).forPath(path);
    }

    public Stat exists(String path) throws Exception {
        return curator.checkExists().forPath(path);
    }

    /** The children's names, or an empty list when the node does not exist. */
    public List<String> children(String path) throws Exception {
        try {
            return curator.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    /** The children's names and the node's stat (its cversion is the next sequence number), or an empty list when it does not exist. */
    public List<String> children(String path, Stat stat) throws Exception {
        try {
            return curator.getChildren().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    /** The children's names; {@code watcher} fires once when they change next. */
    public List<String> children(String path, CuratorWatcher watcher) throws Exception {
        try {
            return curator.getChildren().usingWatcher(watcher).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    /** Removes a node and everything under it (not counted per node: a table drop is not a hot path). */
    public void deleteRecursive(String path) throws Exception {
        try {
            curator.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException ignored) {
            // already gone
        }
    }

    public boolean connected() {
        return curator.getZookeeperClient().isConnected();
    }

    /**
     * Ends this client as a crashed process would: the server is not told, so its ephemeral nodes stay until the
     * session times out there. The connection is marked closed before the expiry is injected, so that neither
     * ZooKeeper's client nor Curator's reaction to the expiry can still send a closeSession.
     */
    public void abandon() {
        try {
            ZooKeeper z = curator.getZookeeperClient().getZooKeeper();
            markClosed(z);
            z.getTestable().injectSessionExpiration();
        } catch (Exception ignored) {
            // the client is going away either way
        }
        curator.close();
    }

    /** Sets the connection's state to CLOSED (a field ZooKeeper's own test hook sets, a moment too late for us). */
    private static void markClosed(ZooKeeper z) {
        try {
            java.lang.reflect.Field cnxnField = ZooKeeper.class.getDeclaredField("cnxn");
            cnxnField.setAccessible(true);
            Object cnxn = cnxnField.get(z);
            java.lang.reflect.Field state = cnxn.getClass().getDeclaredField("state");
            state.setAccessible(true);
            state.set(cnxn, ZooKeeper.States.CLOSED);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // an other ZooKeeper build: the injected expiry alone still abandons the session almost always
        }
    }

    @Override
    public void close() {
        curator.close();
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The index of the op that made a multi fail (ZooKeeper reports OK before it and RUNTIMEINCONSISTENCY after), or -1. */
    static int failedOp(KeeperException e) {
        List<org.apache.zookeeper.OpResult> results = e.getResults();
        if (results == null) {
            return -1;
        }
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof org.apache.zookeeper.OpResult.ErrorResult r && r.getErr() != 0
                && r.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                return i;
            }
        }
        return -1;
    }

    static byte[] bytes(String s) {
        return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
    }
}
