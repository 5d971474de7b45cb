package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * system.clusters on a lone server and under the 18.16 emulation. A server without ZooKeeper knows its own cluster
 * as one shard of itself. The 18.16 expectations were recorded on Debian's 18.16.1 with a remote_servers of
 * {@code two}: shard 1 (weight 2, internal replication) of localhost:its port and 127.0.0.1:another port as user bob
 * with default database db1, shard 2 of 127.0.0.2:its port; {@code DESCRIBE system.clusters} gave ten columns and
 * the rows {@code two 1 2 1 localhost 127.0.0.1 P 1 default ''}, {@code two 1 2 2 127.0.0.1 127.0.0.1 P2 1 bob db1}
 * (18.16 marks every replica of a shard that has a local one), {@code two 2 1 1 127.0.0.2 127.0.0.2 P 0 default ''}.
 */
class StorageSystemClustersTest {
    @Test
    void aLoneServerKnowsItsClusterAsOneShardOfItself() throws Exception {
        try (StubServer s = StubServer.builder().port(0).cluster("solo").build().start()) {
            ConformanceClient c = new ConformanceClient(s.httpUrl());
            assertEquals("solo\t1\t1\t1\t1\t127.0.0.1\t127.0.0.1\t" + s.port() + "\t1\n", c.query("SELECT cluster, shard_num,"
                + " shard_weight, internal_replication, replica_num, host_name, host_address, port, is_local FROM system.clusters"));
            assertEquals(1, s.clusters().get("solo").addresses().size());
            c.query("CREATE TABLE t (k UInt64) ENGINE = MergeTree ORDER BY k");
            c.query("INSERT INTO t VALUES (1), (2)");
            assertEquals("2\n", c.query("SELECT count() FROM cluster('solo', default, t)"), "the cluster of itself serves cluster()");
            org.junit.jupiter.api.Assertions.assertFalse(s.replication().started(), "no ZooKeeper started for it");
        }
    }

    @Test
    void underTheEmulationOf1816TheTableHasItsColumnsAndMarksWholeLocalShards() throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate("18.16").build().start()) {
            int other = s.port() + 1;
            s.clusters().define(new Cluster("two", List.of(
                new Cluster.ShardInfo(1, 2, true, List.of(new Cluster.Address("localhost", s.port(), null, null, null, false, 1, 1),
                    new Cluster.Address("127.0.0.1", other, "bob", "", "db1", false, 1, 2))),
                new Cluster.ShardInfo(2, 1, false, List.of(new Cluster.Address("127.0.0.2", s.port(), null, null, null, false, 2, 1))))));
            ConformanceClient c = new ConformanceClient(s.httpUrl());
            assertEquals("cluster\tshard_num\tshard_weight\treplica_num\thost_name\thost_address\tport\tis_local\tuser\tdefault_database\n"
                + "two\t1\t2\t1\tlocalhost\t127.0.0.1\t" + s.port() + "\t1\tdefault\t\n"
                + "two\t1\t2\t2\t127.0.0.1\t127.0.0.1\t" + other + "\t1\tbob\tdb1\n"
                + "two\t2\t1\t1\t127.0.0.2\t127.0.0.2\t" + s.port() + "\t0\tdefault\t\n",
                c.query("SELECT * FROM system.clusters WHERE cluster = 'two' FORMAT TSVWithNames"));
            assertEquals("cluster\tString\nshard_num\tUInt32\nshard_weight\tUInt32\nreplica_num\tUInt32\nhost_name\tString\n"
                + "host_address\tString\nport\tUInt16\nis_local\tUInt8\nuser\tString\ndefault_database\tString\n",
                c.query("SELECT name, type FROM system.columns WHERE database = 'system' AND table = 'clusters'"));
            StringBuilder describe = new StringBuilder(); // the real 18.16's names and types (it prints five fields, the stub seven)
            for (String col : List.of("cluster\tString", "shard_num\tUInt32", "shard_weight\tUInt32", "replica_num\tUInt32",
                "host_name\tString", "host_address\tString", "port\tUInt16", "is_local\tUInt8", "user\tString", "default_database\tString")) {
                describe.append(col).append('\n');
            }
            StringBuilder described = new StringBuilder();
            for (String line : c.query("DESCRIBE system.clusters").split("\n")) {
                String[] f = line.split("\t");
                described.append(f[0]).append('\t').append(f[1]).append('\n');
            }
            assertEquals(describe.toString(), described.toString());
        }
    }

    @Test
    void theCurrentReleaseMarksOnlyTheServerItself() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            s.clusters().define(Cluster.of("two", false, List.of(
                List.of(new Cluster.Address("localhost", s.port(), null, null, null, false, 0, 0),
                    new Cluster.Address("127.0.0.1", s.port() + 1, null, null, null, false, 0, 0)),
                List.of(new Cluster.Address("127.0.0.2", s.port(), null, null, null, false, 0, 0)))));
            assertEquals("1\t1\t0\t1\n1\t2\t0\t0\n2\t1\t0\t0\n", new ConformanceClient(s.httpUrl()).query("SELECT shard_num, replica_num,"
                + " internal_replication, is_local FROM system.clusters WHERE name = 'two' ORDER BY shard_num, replica_num"));
        }
    }
}
