package dev.chdedup.stub.system;

import dev.chdedup.stub.distributed.Cluster;
import dev.chdedup.stub.distributed.Clusters;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code system.clusters}, as ClickHouse's {@code StorageSystemClusters}: one row per replica of every cluster the
 * server knows ({@link Clusters}: configured, defined or discovered), clusters by name, then shard and replica order;
 * {@code host_address} the host resolved (empty when it does not resolve), {@code port} the port the stub reaches
 * that server on (its HTTP port, HTTPS when secure), {@code is_local} whether the address is this server. Under the
 * 18.16 emulation the table has 18.16's ten columns and {@code is_local} is that release's: whether the replica's
 * shard has a local replica (recorded on Debian's 18.16: a remote replica of the server's own shard shows 1).
 */
public final class StorageSystemClusters implements SystemTables.Extra {
    private final Clusters clusters;

    public StorageSystemClusters(Clusters clusters) {
        this.clusters = clusters;
    }

    @Override
    public List<String> names() {
        return List.of("clusters");
    }

    @Override
    public TableSource table(String name, QueryContext ctx) {
        if (!name.equals("clusters")) {
            return null;
        }
        boolean legacy = SystemTableSchema.differs("clusters", ctx.compat());
        SystemTable out = SystemTable.of("clusters", ctx.compat());
        for (Map.Entry<String, Cluster> e : new TreeMap<>(clusters.all()).entrySet()) {
            for (Cluster.ShardInfo shard : e.getValue().shards()) {
                boolean shardIsLocal = !clusters.localReplicas(shard).isEmpty();
                for (Cluster.Address a : shard.replicas()) {
                    SystemTable.Row row = out.add().set("cluster", e.getKey()).set("shard_num", (long) shard.shardNum())
                        .set("shard_weight", (long) shard.weight()).set("replica_num", (long) a.replicaIndex())
                        .set("host_name", a.host()).set("host_address", resolve(a.host())).set("port", (long) a.port())
                        .set("is_local", legacy ? shardIsLocal : clusters.isLocal(a)).set("user", a.user())
                        .set("default_database", a.defaultDatabase());
                    if (!legacy) {
                        row.set("shard_name", shard.name()).set("internal_replication", shard.internalReplication());
                    }
                }
            }
        }
        return out.source();
    }

    /** The host's IP address as text, or empty when it does not resolve (the engine's resolved address, or nothing). */
    private static String resolve(String host) {
        try {
            return InetAddress.getByName(host).getHostAddress();
        } catch (UnknownHostException e) {
            return "";
        }
    }
}
