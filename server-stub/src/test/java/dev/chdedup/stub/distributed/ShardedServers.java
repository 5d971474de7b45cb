package dev.chdedup.stub.distributed;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Plain stub servers on free ports, shard by shard and replica by replica, with one cluster {@code c} defined on each
 * (what a remote_servers entry would give them), and the few calls the Distributed tests make: a statement on one
 * server, a query's rows as text, a wait for a condition with a deadline.
 */
final class ShardedServers implements AutoCloseable {
    static final String CLUSTER = "c";

    final List<List<StubServer>> shards = new ArrayList<>();
    private final boolean internalReplication;

    /** {@code shards} shards of {@code replicas} replicas each. */
    ShardedServers(int shards, int replicas, boolean internalReplication) throws IOException {
        this.internalReplication = internalReplication;
        for (int s = 0; s < shards; s++) {
            List<StubServer> rs = new ArrayList<>();
            for (int r = 0; r < replicas; r++) {
                rs.add(StubServer.builder().port(0).build().start());
            }
            this.shards.add(rs);
        }
        defineCluster();
    }

    /** The cluster on every server (again after a restart, which keeps the port). */
    void defineCluster() {
        List<List<Cluster.Address>> addresses = new ArrayList<>();
        for (List<StubServer> rs : shards) {
            List<Cluster.Address> as = new ArrayList<>();
            for (StubServer s : rs) {
                as.add(new Cluster.Address("127.0.0.1", s.port(), null, null, null, false, 0, 0));
            }
            addresses.add(as);
        }
        Cluster c = Cluster.of(CLUSTER, internalReplication, addresses);
        for (List<StubServer> rs : shards) {
            for (StubServer s : rs) {
                s.clusters().define(c);
            }
        }
    }

    StubServer server(int shard, int replica) {
        return shards.get(shard).get(replica);
    }

    /** Every server, shard by shard. */
    List<StubServer> all() {
        List<StubServer> out = new ArrayList<>();
        shards.forEach(out::addAll);
        return out;
    }

    static Connection to(StubServer s) {
        return new Connection(new Cluster.Address("127.0.0.1", s.port(), null, null, null, false, 1, 1), Duration.ofSeconds(2),
            Duration.ofSeconds(60));
    }

    static void sql(StubServer s, String sql) {
        to(s).execute(sql, Map.of());
    }

    static void sql(StubServer s, String sql, Map<String, String> settings) {
        to(s).execute(sql, settings);
    }

    /** Every row of a query, each as its values' text joined by tabs. */
    static List<String> rows(StubServer s, String sql) {
        List<String> out = new ArrayList<>();
        for (Block b : to(s).query(sql, Map.of()).blocks()) {
            for (Object[] r : b.rows()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < r.length; i++) {
                    sb.append(i == 0 ? "" : "\t").append(r[i] instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                        : String.valueOf(r[i]));
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    /** Waits until {@code condition} holds, at most {@code timeout}; false if it never did. */
    static boolean await(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return condition.getAsBoolean();
    }

    @Override
    public void close() throws IOException {
        for (StubServer s : all()) {
            s.close();
        }
    }
}
