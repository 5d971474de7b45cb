package dev.chdedup.stub.distributed;

import static dev.chdedup.stub.distributed.ShardedServers.await;
import static dev.chdedup.stub.distributed.ShardedServers.rows;
import static dev.chdedup.stub.distributed.ShardedServers.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Distributed table over two shards of two replicas each (plain MergeTree tables, so each replica shows what it was
 * sent), on the first replica of the first shard: with {@code internal_replication} a shard's rows go to one replica,
 * the next one when the first cannot be reached, and the insert fails when none can; without it every replica gets
 * them, foreground and background (a directory per replica), the local one written directly.
 */
class DistributedReplicasTest {
    private static final Map<String, String> FOREGROUND = Map.of("distributed_foreground_insert", "1");
    private ShardedServers servers;

    private void start(boolean internalReplication) throws Exception {
        servers = new ShardedServers(2, 2, internalReplication);
        for (StubServer s : servers.all()) {
            sql(s, "CREATE TABLE local (k UInt64) ENGINE = MergeTree ORDER BY k");
        }
        sql(servers.server(0, 0), "CREATE TABLE d AS local ENGINE = Distributed(c, default, local, k)");
    }

    @AfterEach
    void stop() throws Exception {
        servers.close();
    }

    /** The number of rows on each server, shard by shard. */
    private List<Long> counts() {
        List<Long> out = new ArrayList<>();
        for (StubServer s : servers.all()) {
            out.add(Long.parseLong(rows(s, "SELECT count() FROM local").get(0)));
        }
        return out;
    }

    @Test
    void withInternalReplicationOneReplicaTakesTheRowsTheNextWhenTheFirstIsDown() throws Exception {
        start(true);
        sql(servers.server(0, 0), "INSERT INTO d SELECT number FROM numbers(10)", FOREGROUND);
        assertEquals(List.of(5L, 0L, 5L, 0L), counts());
        servers.server(1, 0).stop();
        sql(servers.server(0, 0), "INSERT INTO d SELECT number FROM numbers(10)", FOREGROUND);
        servers.server(1, 0).start();
        assertEquals(List.of(10L, 0L, 5L, 5L), counts());
        servers.server(1, 0).stop();
        servers.server(1, 1).stop();
        ChException e = assertThrows(ChException.class, () -> sql(servers.server(0, 0), "INSERT INTO d SELECT number FROM numbers(10)", FOREGROUND));
        assertEquals(ErrorCode.ALL_CONNECTION_TRIES_FAILED, e.code(), e.getMessage());
    }

    @Test
    void withoutInternalReplicationEveryReplicaGetsTheRowsForeground() throws Exception {
        start(false);
        sql(servers.server(0, 0), "INSERT INTO d SELECT number FROM numbers(10)", FOREGROUND);
        assertEquals(List.of(5L, 5L, 5L, 5L), counts());
    }

    @Test
    void withoutInternalReplicationEveryReplicaHasItsDirectoryInTheBackground() throws Exception {
        start(false);
        sql(servers.server(0, 0), "SYSTEM STOP DISTRIBUTED SENDS d");
        sql(servers.server(0, 0), "INSERT INTO d SELECT number FROM numbers(10)");
        List<String> dirs;
        try (var s = Files.list(servers.server(0, 0).dataDir().resolve("data").resolve("default").resolve("d"))) {
            dirs = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of("shard1_replica2", "shard2_replica1", "shard2_replica2"), dirs, "the local replica is written directly");
        assertEquals(List.of(5L, 0L, 0L, 0L), counts());
        sql(servers.server(0, 0), "SYSTEM START DISTRIBUTED SENDS d");
        assertTrue(await(Duration.ofSeconds(30), () -> counts().equals(List.of(5L, 5L, 5L, 5L))), () -> counts().toString());
    }
}
