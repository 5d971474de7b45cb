package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.RemoteTables;
import dev.chdedup.stub.exec.ServerInfo;
import dev.chdedup.stub.exec.TableSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * What {@code cluster()}, {@code clusterAllReplicas()}, {@code remote()} and {@code remoteSecure()} read, as
 * ClickHouse's {@code TableFunctionRemote::executeImpl}: the cluster they name (one of the server's {@link Clusters};
 * {@code default}, when none is defined, is this server alone, as the engine's stock configuration has it) or the one
 * an address pattern describes ({@link RemoteDescription}: shards of replicas, a port left out being ClickHouse's
 * 9000, or 9440 for remoteSecure), for {@code clusterAllReplicas} every replica as a shard of its own; the table's
 * columns from the servers ({@link RemoteTableStructure}); rows by {@link ReadFromRemote}. The stub's servers speak
 * HTTP only, so an address's port is a server's HTTP port (HTTPS for remoteSecure); a loopback address on one of
 * ClickHouse's default ports (9000, 9440, 8123, 8443) names this server, as it does on a stock ClickHouse.
 */
public final class RemoteTableFunctions implements RemoteTables {
    private static final Set<Integer> DEFAULT_PORTS = Set.of(9000, 9440, 8123, 8443);

    private final Clusters clusters;
    private final Catalog local;
    private final IntSupplier port;

    /** The functions of a server whose clusters are {@code clusters}, its own tables {@code local}, its HTTP port {@code port}. */
    public RemoteTableFunctions(Clusters clusters, Catalog local, IntSupplier port) {
        this.clusters = clusters;
        this.local = local;
        this.port = port;
    }

    @Override
    public TableSource table(Arguments args, QueryContext ctx) {
        Cluster cluster = args.clusterName() != null ? named(args.clusterName(), ctx) : described(args, ctx);
        if (args.allReplicas()) {
            cluster = replicasAsShards(cluster);
        }
        RemoteTableStructure.Structure s = RemoteTableStructure.of(cluster, args.database(), args.table(), clusters, local, ctx);
        return new ReadFromRemote(cluster, args.database(), args.table(), s.columns(), s.starColumns(), clusters, local, ctx);
    }

    private Cluster named(String name, QueryContext ctx) {
        Cluster c = clusters.find(name);
        if (c == null && name.equals("default")) {
            return Cluster.of("default", false, List.of(List.of(self())));
        }
        if (c == null && RemoteTables.legacy(ctx)) {
            throw new ChException(ErrorCode.BAD_GET, "Requested cluster '" + name + "' not found");
        }
        return c != null ? c : clusters.get(name);
    }

    /** The cluster of {@code remote()}'s addresses: shard {@code i} of the pattern is shard {@code i + 1}. */
    private Cluster described(Arguments args, QueryContext ctx) {
        int defaultPort = args.secure() ? 9440 : 9000;
        long max = ctx.settings().getLong("table_function_remote_max_addresses");
        List<List<Cluster.Address>> shards = new ArrayList<>();
        for (List<RemoteDescription.HostPort> replicas : RemoteDescription.shards(args.addresses(), defaultPort, max, args.function())) {
            List<Cluster.Address> addresses = new ArrayList<>();
            for (RemoteDescription.HostPort hp : replicas) {
                addresses.add(isLoopback(hp.host()) && DEFAULT_PORTS.contains(hp.port()) ? self()
                    : new Cluster.Address(hp.host(), hp.port(), args.user(), args.password(), null, args.secure(), 0, 0));
            }
            shards.add(addresses);
        }
        return Cluster.of("", false, shards);
    }

    /** This server, as {@link Clusters#isLocal} knows it. */
    private Cluster.Address self() {
        return new Cluster.Address("127.0.0.1", port.getAsInt(), null, null, null, false, 0, 0);
    }

    private static boolean isLoopback(String host) {
        return host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("::1") || host.equalsIgnoreCase(ServerInfo.hostName());
    }

    /**
     * Every replica of {@code c} as a shard of its own, numbered in order, a server named twice kept once: ClickHouse's
     * {@code getClusterWithReplicasAsShards}.
     */
    static Cluster replicasAsShards(Cluster c) {
        List<Cluster.ShardInfo> shards = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Cluster.Address a : c.addresses()) {
            if (seen.add(a.hostPort())) {
                int n = shards.size() + 1;
                shards.add(new Cluster.ShardInfo(n, 1, false, List.of(a.at(n, 1))));
            }
        }
        return new Cluster(c.name(), shards);
    }
}
