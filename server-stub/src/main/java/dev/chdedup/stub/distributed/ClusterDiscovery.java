package dev.chdedup.stub.distributed;

import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.replicated.DDLWorker;
import dev.chdedup.stub.replicated.DistributedDDL;
import dev.chdedup.stub.replicated.ReplicationContext;
import dev.chdedup.stub.replicated.ZooKeeperClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.curator.framework.api.CuratorWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clusters the servers sharing this server's ZooKeeper make up, as ClickHouse's {@code ClusterDiscovery} finds
 * them: each server registers {@code <DDLWorker.CLUSTERS>/<cluster>/<shard>/<replica>} = its host id (DDLWorker), and a
 * cluster is its shards in shard order (01, 02, ...), each of its replicas in name order (r1, r2, ...), with weight 1
 * and {@code internal_replication} (the servers replicate through ReplicatedMergeTree), reached on the HTTP port
 * they registered as the server's cluster user (default, or the first user of a server without it: the servers of a
 * StubCluster share their users). The answer is kept until a ZooKeeper watch says the registrations changed, and at
 * most {@link #TTL_MS} (a missed watch, a changed port), so a lookup costs no ZooKeeper round trip. A server that
 * does not use ZooKeeper (none named and none started) knows only its own cluster: one shard of itself, as does a
 * server whose cluster has no registration yet; while ZooKeeper cannot be read the last answer stands.
 */
public final class ClusterDiscovery implements Supplier<List<Cluster>> {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterDiscovery.class);
    /** How long a read of the registrations is trusted without a watch saying otherwise. */
    static final long TTL_MS = 2_000;

    private final ReplicationContext context;
    private final Cluster.Address self;
    private final String user;
    private final String password;
    private final CuratorWatcher invalidate = event -> this.dirty = true;
    private volatile boolean dirty = true;
    private volatile long readAtNanos;
    private volatile List<Cluster> cached = List.of();

    /** Discovery for the server of {@code context} serving HTTP on {@code host:port}, reaching the others as {@code user}. */
    public ClusterDiscovery(ReplicationContext context, String host, int port, String user, String password) {
        this.context = context;
        this.user = user;
        this.password = password;
        this.self = new Cluster.Address(host, port, user, password, "", false, 1, 1);
    }

    @Override
    public List<Cluster> get() {
        if (context.config().zookeeper() == null && !context.started()) {
            return List.of(ownCluster());
        }
        if (!dirty && System.nanoTime() - readAtNanos < TTL_MS * 1_000_000) {
            return cached;
        }
        synchronized (this) {
            if (!dirty && System.nanoTime() - readAtNanos < TTL_MS * 1_000_000) {
                return cached;
            }
            dirty = false;
            readAtNanos = System.nanoTime();
            try {
                cached = read(context.zookeeper());
            } catch (Exception e) {
                LOG.debug("cluster discovery: registrations unreadable, keeping the last answer: {}", e.toString());
                if (cached.isEmpty()) {
                    cached = List.of(ownCluster());
                }
            }
            return cached;
        }
    }

    /** This server's cluster as one shard of itself. */
    private Cluster ownCluster() {
        return Cluster.of(context.config().cluster(), true, List.of(List.of(self)));
    }

    private List<Cluster> read(ZooKeeperClient zk) throws Exception {
        List<Cluster> out = new ArrayList<>();
        boolean ownFound = false;
        for (String name : zk.children(DDLWorker.CLUSTERS, invalidate)) {
            String clusterPath = DDLWorker.CLUSTERS + "/" + name;
            List<List<Cluster.Address>> shards = new ArrayList<>();
            for (String shard : DistributedDDL.naturalOrder(zk.children(clusterPath, invalidate))) {
                String shardPath = clusterPath + "/" + shard;
                List<String> replicas = DistributedDDL.naturalOrder(zk.children(shardPath, invalidate));
                List<String> paths = replicas.stream().map(r -> shardPath + "/" + r).toList();
                List<Cluster.Address> addresses = new ArrayList<>();
                for (String id : paths.isEmpty() ? List.<String>of() : zk.getAll(paths)) {
                    Cluster.Address a = address(id);
                    if (a != null) {
                        addresses.add(new Cluster.Address(a.host(), a.port(), user, password, "", false, 1, 1));
                    }
                }
                if (!addresses.isEmpty()) {
                    shards.add(addresses);
                }
            }
            if (!shards.isEmpty()) {
                out.add(Cluster.of(name, true, shards));
                ownFound |= name.equals(context.config().cluster());
            }
        }
        if (!ownFound) {
            out.add(ownCluster());
        }
        return List.copyOf(out);
    }

    /** The address a host id ({@code escaped host:port}) names, or null for a value that is not one. */
    public static Cluster.Address address(String hostId) {
        if (hostId == null) {
            return null;
        }
        int colon = hostId.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        try {
            int port = Integer.parseInt(hostId.substring(colon + 1));
            return new Cluster.Address(FileNames.unescapeForFileName(hostId.substring(0, colon)), port, "default", "", "", false, 1, 1);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
