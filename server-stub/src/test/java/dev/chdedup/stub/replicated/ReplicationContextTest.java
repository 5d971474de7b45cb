package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-server replication context: ZooKeeper only when a replicated table needs it, macros, defaults, restarts. */
class ReplicationContextTest {
    @TempDir
    Path dir;

    @Test
    void plainMergeTreeStartsNoZooKeeper() throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dir).build().start()) {
            Http.query(s.httpUrl(), "CREATE TABLE p (k UInt8) ENGINE = MergeTree ORDER BY k");
            Http.query(s.httpUrl(), "INSERT INTO p VALUES (1)");
            assertEquals("0\n", Http.query(s.httpUrl(), "SELECT count() FROM system.zookeeper"));
            assertFalse(s.replication().started(), "a ZooKeeper session was started for a plain MergeTree table");
            assertFalse(Files.exists(dir.resolve("zookeeper")));
        }
    }

    @Test
    void oneServerRunsAReplicatedTableOnItsEmbeddedZooKeeperAcrossRestarts() throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dir).replicaName("only").macro("shard", "s7").build().start()) {
            Http.query(s.httpUrl(), "CREATE TABLE r (k UInt8) ENGINE = ReplicatedMergeTree ORDER BY k");
            Http.query(s.httpUrl(), "INSERT INTO r VALUES (1), (2)");
            assertTrue(s.replication().started());
            assertEquals("/clickhouse/tables/s7/default/r\tonly\n", Http.query(s.httpUrl(), "SELECT zookeeper_path, replica_name FROM system.replicas"));
            s.restart();
            Http.query(s.httpUrl(), "INSERT INTO r VALUES (1), (2)");
            Http.query(s.httpUrl(), "INSERT INTO r VALUES (3)");
            assertEquals("1\n2\n3\n", Http.query(s.httpUrl(), "SELECT k FROM r ORDER BY k"), "the block ids survived the restart");
            assertEquals("all_0_0_0\nall_1_1_0\n", Http.query(s.httpUrl(), "SELECT name FROM system.parts WHERE table = 'r' ORDER BY name"));
        }
    }

    @Test
    void macrosAreSubstitutedAndAnUnknownOneIsRefused() throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dir).replicaName("x1").build().start()) {
            Http.query(s.httpUrl(), "CREATE DATABASE d1");
            Http.query(s.httpUrl(), "CREATE TABLE d1.m (k UInt8) ENGINE = ReplicatedMergeTree('/ch/{shard}/{database}/{table}', '{replica}_a') ORDER BY k");
            assertEquals("/ch/01/d1/m\tx1_a\t/ch/01/d1/m/replicas/x1_a\n",
                Http.query(s.httpUrl(), "SELECT zookeeper_path, replica_name, replica_path FROM system.replicas"));
            HttpResponse<String> r = Http.send(s.httpUrl(), "CREATE TABLE d1.n (k UInt8) ENGINE = ReplicatedMergeTree('/ch/{nope}/n', 'r') ORDER BY k", "");
            assertTrue(r.statusCode() != 200 && r.body().contains("No macro 'nope'"), r.body());
            r = Http.send(s.httpUrl(), "CREATE TABLE d1.o (k UInt8) ENGINE = ReplicatedMergeTree('/ch/o') ORDER BY k", "");
            assertTrue(r.statusCode() != 200 && r.body().contains("NUMBER_OF_ARGUMENTS_DOESNT_MATCH"), r.body());
            assertEquals("m\n", Http.query(s.httpUrl(), "SHOW TABLES FROM d1"), "a refused CREATE leaves no table");
        }
    }
}
