package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.common.FileNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server's worker of the distributed DDL queue, after ClickHouse's {@code DDLWorker}: it watches
 * {@code /clickhouse/task_queue/ddl}, and runs, in queue order, every {@code query-N} whose hosts name this server
 * and that has no {@code finished/<host id>} of it yet (so a server that was down runs what it missed when it is
 * back): {@code active/<host id>} (ephemeral) while it runs, then {@code finished/<host id>} holding the status as
 * {@code ExecutionStatus::serializeText} writes it ({@code <code>\n<escaped message>}). The initiator's side is
 * {@link DistributedDDL}. Every server registers itself under {@link #CLUSTERS} as {@code <cluster>/<shard>/<replica>}
 * = host id, the stub's stand-in for a {@code remote_servers} entry listing it (its {@code {shard}} macro and replica
 * name place it); a cluster's hosts are what the server's clusters say ({@link #clusterHosts}), by default these
 * registrations. A task is this server's when one of its hosts is this server ({@link #matchLocalHostsWith}): its own
 * host id, or another name of it (localhost, the machine's name) as a configuration may list it.
 */
public final class DDLWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DDLWorker.class);
    public static final String QUEUE = "/clickhouse/task_queue/ddl";
    /**
     * Where servers list themselves per cluster: {@code <CLUSTERS>/<cluster>/<shard>/<replica name>} = host id;
     * outside {@code /clickhouse}, which holds only what a real server writes.
     */
    public static final String CLUSTERS = "/chdedup_stub/clusters";

    /** Runs one query locally; an error is thrown as it would reach a client. */
    @FunctionalInterface
    public interface LocalExecutor {
        void execute(String sql, String queryId) throws Exception;
    }

    private final ReplicationContext context;
    private final String hostId;
    private final LocalExecutor executor;
    /** The last task this worker has finished or found not meant for it; tasks are taken in name order. */
    private String lastTask = "";
    private volatile boolean closed;
    private boolean wake;
    private volatile Thread thread;
    private volatile boolean registered;
    /** A cluster's host ids, shard by shard; CLUSTER_DOESNT_EXIST for an unknown one. */
    private volatile java.util.function.Function<String, List<String>> clusterHosts = this::registeredHosts;
    /** Whether a host id of a task names this server. */
    private volatile java.util.function.Predicate<String> localHost = id -> false;

    public DDLWorker(ReplicationContext context, String host, int port, LocalExecutor executor) {
        this.context = context;
        this.hostId = hostId(host, port);
        this.executor = executor;
    }

    /** ClickHouse's {@code HostID::toString}: the escaped host name and the port. */
    public static String hostId(String host, int port) {
        return FileNames.escapeForFileName(host) + ":" + port;
    }

    public String hostId() {
        return hostId;
    }

    ReplicationContext context() {
        return context;
    }

    /** Where a cluster's hosts come from (the server's clusters); without it, the registrations under {@link #CLUSTERS}. */
    public void clusterHostsFrom(java.util.function.Function<String, List<String>> source) {
        this.clusterHosts = source;
    }

    /** Other host ids that name this server besides its own (a cluster configured with localhost, say). */
    public void matchLocalHostsWith(java.util.function.Predicate<String> isLocal) {
        this.localHost = isLocal;
    }

    /** The host ids of {@code cluster}, in its shard and replica order; CLUSTER_DOESNT_EXIST when it has none. */
    List<String> clusterHosts(String cluster) {
        return clusterHosts.apply(cluster);
    }

    /** The host id of {@code hosts} that is this server, or null. */
    private String mine(List<String> hosts) {
        if (hosts.contains(hostId)) {
            return hostId;
        }
        for (String h : hosts) {
            if (localHost.test(h)) {
                return h;
            }
        }
        return null;
    }

    private List<String> registeredHosts(String cluster) {
        try {
            return DistributedDDL.hosts(context.zookeeper(), cluster);
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("reading the hosts of cluster " + cluster, e);
        }
    }

    /** The path this server registers at: {@code <CLUSTERS>/<cluster>/<shard>/<replica>}. */
    private String registration() {
        return CLUSTERS + "/" + context.config().cluster() + "/" + context.macros().get("shard") + "/" + context.replicaName();
    }

    public synchronized boolean started() {
        return thread != null;
    }

    /**
     * Registers this server in its cluster (so an ON CLUSTER query sent anywhere right after the start finds it) and
     * starts the worker thread; when ZooKeeper cannot be reached now, the thread keeps trying to register, so the
     * server starts all the same.
     */
    public synchronized DDLWorker start() {
        try {
            register();
        } catch (Exception e) {
            LOG.warn("DDLWorker of {}: cannot register in cluster {} yet, retrying in the background: {}", hostId,
                context.config().cluster(), e.toString());
        }
        thread = new Thread(this::run, "ddl-worker-" + context.replicaName());
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    /** {@code <CLUSTERS>/<cluster>/<shard>/<replica>} = this host id, and the queue node; throws while ZooKeeper is away. */
    private void register() throws Exception {
        ZooKeeperClient zk = context.zookeeper();
        String me = registration();
        if (zk.exists(me) == null) {
            try {
                zk.curator().create().creatingParentsIfNeeded().forPath(me, ZooKeeperClient.bytes(hostId));
            } catch (KeeperException.NodeExistsException ignored) {
                // made meanwhile: set below
            }
        }
        if (!hostId.equals(zk.get(me))) {
            zk.set(me, hostId);
        }
        if (zk.exists(QUEUE) == null) {
            try {
                zk.curator().create().creatingParentsIfNeeded().forPath(QUEUE);
            } catch (KeeperException.NodeExistsException ignored) {
                // another server made it
            }
        }
        registered = true;
    }

    /** Registers now if the thread has not yet (an ON CLUSTER query must find its own server in the cluster). */
    void ensureRegistered() {
        if (registered) {
            return;
        }
        try {
            register();
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("registering in cluster " + context.config().cluster(), e);
        }
    }

    synchronized void wakeUp() {
        wake = true;
        notifyAll();
    }

    private void run() {
        while (!closed) {
            boolean notReady = false;
            try {
                if (!registered) {
                    register();
                }
                List<String> tasks = new ArrayList<>(context.zookeeper().children(QUEUE, event -> wakeUp()));
                tasks.sort(null);
                for (String t : tasks) {
                    if (closed || t.compareTo(lastTask) <= 0) {
                        continue;
                    }
                    if (!process(t)) {
                        notReady = true;
                        break;
                    }
                    lastTask = t;
                }
            } catch (Exception e) {
                if (!closed) {
                    LOG.debug("DDLWorker of {}: {}", hostId, e.toString());
                }
            }
            synchronized (this) {
                if (!wake && !closed) {
                    try {
                        // a task seen before its initiator made active/ and finished/ is looked at again soon
                        wait(notReady ? 20 : 500);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                wake = false;
            }
        }
    }

    /** Runs one task if it is meant for this host and not finished here; false when it is not ready yet (retry later). */
    private boolean process(String task) throws Exception {
        ZooKeeperClient zk = context.zookeeper();
        String path = QUEUE + "/" + task;
        String text = zk.get(path);
        if (text == null) {
            return true;
        }
        DDLLogEntry entry;
        try {
            entry = DDLLogEntry.parse(text);
        } catch (RuntimeException e) {
            LOG.warn("DDLWorker of {}: skipping task {} it cannot read: {}", hostId, task, e.getMessage());
            return true;
        }
        String me = mine(entry.hosts());
        if (me == null || zk.exists(path + "/finished/" + me) != null) {
            return true;
        }
        if (zk.exists(path + "/finished") == null) {
            return false; // the initiator has not made active/ and finished/ yet
        }
        try {
            zk.create(path + "/active/" + me, "", CreateMode.EPHEMERAL);
        } catch (KeeperException.NodeExistsException ignored) {
            // left by this server's previous session
        }
        String status;
        try {
            Object st = dev.chdedup.stub.sql.Parser.parse(entry.query());
            String local = st instanceof dev.chdedup.stub.sql.Statement.OnCluster
                ? ((dev.chdedup.stub.sql.Statement.OnCluster) st).localQuery() : entry.query();
            if (!firstReplicaOfItsTable(zk, path, st)) {
                status = "0\n"; // another replica of the table ran the ALTER for all of them, as ClickHouse's DDLWorker
            } else {
                executor.execute(local, task);
                status = "0\n";
            }
        } catch (ChException e) {
            status = e.code().code + "\n" + ReplicatedMergeTreeMutationEntry.escape(e.displayText());
        } catch (Exception e) {
            status = ErrorCode.UNKNOWN_EXCEPTION.code + "\n" + ReplicatedMergeTreeMutationEntry.escape("Code: 1002. DB::Exception: " + e);
        }
        List<org.apache.curator.framework.api.transaction.CuratorOp> ops = List.of(
            zk.op().create().forPath(path + "/finished/" + me, ZooKeeperClient.bytes(status)),
            zk.op().delete().forPath(path + "/active/" + me));
        zk.multi(ops);
        LOG.info("DDLWorker of {}: task {} done: {}", hostId, task, status.trim());
        return true;
    }

    /**
     * An ALTER ON CLUSTER of a replicated table runs on one of its replicas only, which replicates it to the others,
     * as ClickHouse's DDLWorker executes such a query once per shard: the replica that makes the task's
     * {@code shards/<table's ZooKeeper path>} node runs it. Any other statement runs on every host.
     */
    private boolean firstReplicaOfItsTable(ZooKeeperClient zk, String task, Object st) throws Exception {
        if (!(st instanceof dev.chdedup.stub.sql.Statement.OnCluster)
            || !(((dev.chdedup.stub.sql.Statement.OnCluster) st).statement() instanceof dev.chdedup.stub.sql.Statement.Alter)) {
            return true;
        }
        dev.chdedup.stub.sql.Statement.OnCluster oc = (dev.chdedup.stub.sql.Statement.OnCluster) st;
        dev.chdedup.stub.sql.Statement.Alter a = (dev.chdedup.stub.sql.Statement.Alter) oc.statement();
        // the path, not the table object: an ALTER being applied here opens the table again, when no object is registered
        String zookeeperPath = context.zookeeperPathOf(a.database() != null ? a.database() : "default", a.table());
        if (zookeeperPath == null) {
            return true;
        }
        String node = task + "/shards/" + dev.chdedup.stub.common.FileNames.escapeForFileName(zookeeperPath);
        try {
            zk.curator().create().creatingParentsIfNeeded().forPath(node, ZooKeeperClient.bytes(hostId));
            return true;
        } catch (KeeperException.NodeExistsException taken) {
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
        wakeUp();
        Thread t = thread;
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
