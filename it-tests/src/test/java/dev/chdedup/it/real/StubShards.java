package dev.chdedup.it.real;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.distributed.Cluster;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stub's side of {@link DebianDistributedDifferentialTest}: two shards of one replica each (macros {@code {shard}} 01
 * and 02, {@code {replica}} r1) on one ZooKeeper, each server knowing the cluster of both under the reference's name, as
 * {@link DebianClickHouse.Layout#SHARDS} lays out the real servers.
 */
final class StubShards implements DebianDistributedDifferentialTest.Side, AutoCloseable {
    private final List<StubCluster> shards = new ArrayList<>();

    private StubShards() {
    }

    static StubShards start(String clusterName, String emulate) throws Exception {
        StubShards s = new StubShards();
        try {
            for (int shard = 1; shard <= 2; shard++) {
                StubCluster.Builder b = StubCluster.builder().replicas(1).shard(String.format("%02d", shard)).cluster(clusterName).emulate(emulate);
                if (shard > 1) {
                    b.zookeeper(s.shards.get(0).zookeeperConnectString());
                }
                s.shards.add(b.build().start());
            }
            List<List<Cluster.Address>> addresses = new ArrayList<>();
            for (StubCluster c : s.shards) {
                addresses.add(List.of(new Cluster.Address("127.0.0.1", c.replica(1).port(), null, null, null, false, 0, 0)));
            }
            Cluster cluster = Cluster.of(clusterName, true, addresses);
            for (StubCluster c : s.shards) {
                c.replica(1).clusters().define(cluster);
            }
            return s;
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
    }

    private StubServer server(int node) {
        return shards.get(node).replica(1);
    }

    @Override
    public String url(int node) {
        return server(node).httpUrl();
    }

    @Override
    public boolean alive(int node) {
        return true;
    }

    @Override
    public Path distributedDirectory(int node, String table) {
        return server(node).dataDir().resolve("data").resolve("default").resolve(table);
    }

    @Override
    public void close() throws Exception {
        for (int i = shards.size() - 1; i >= 0; i--) {
            shards.get(i).close();
        }
    }
}
