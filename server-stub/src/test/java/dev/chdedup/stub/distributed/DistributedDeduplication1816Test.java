package dev.chdedup.stub.distributed;

import static dev.chdedup.stub.distributed.ShardedServers.await;
import static dev.chdedup.stub.distributed.ShardedServers.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.replicated.EmbeddedZooKeeper;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two stub servers playing 18.16, each a shard of {@code test_cluster} with a ReplicatedMergeTree table, and a
 * Distributed table on the first keyed by {@code k}: the same four inserts as on a real 18.16.1 two-shard cluster
 * (recorded with it-tests' DebianClickHouse, Layout.SHARDS): an insert, the same again, a subset whose odd rows are
 * the second shard's earlier block, and a subset that gives the first shard a new block. Each shard hashes the block
 * it gets, so the repeats and the equal sub-block are dropped, the new one lands: foreground (insert_distributed_sync)
 * and background alike. Recorded: shard 1 {10, 12, 12} and shard 2 {11, 13}; background {20, 22, 22} and {21, 23}.
 */
class DistributedDeduplication1816Test {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path data;
    private static TestingServer zk;
    private static final List<StubServer> shards = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        zk = EmbeddedZooKeeper.start(Files.createDirectories(data.resolve("zk")).toFile());
        for (int s = 1; s <= 2; s++) {
            shards.add(StubServer.builder().port(0).dataDir(data.resolve("s" + s)).zookeeper(zk.getConnectString()).replicaName("r1")
                .macro("shard", "0" + s).emulate("18.16").build().start());
        }
        List<List<Cluster.Address>> addresses = new ArrayList<>();
        for (StubServer s : shards) {
            addresses.add(List.of(new Cluster.Address("127.0.0.1", s.port(), null, null, null, false, 0, 0)));
        }
        for (StubServer s : shards) {
            s.clusters().define(Cluster.of("test_cluster", true, addresses));
            post(s, "CREATE TABLE l (k Int64, v String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/l', '{replica}') ORDER BY k", "");
        }
        post(shards.get(0), "CREATE TABLE e AS l ENGINE = Distributed(test_cluster, default, l, k)", "");
    }

    @AfterAll
    static void stop() throws Exception {
        for (StubServer s : shards) {
            s.close();
        }
        zk.close();
    }

    private static void post(StubServer s, String sql, String params) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?" + params))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), sql + ": " + r.body());
    }

    private static String shard(int i, int from, int to) {
        return String.join("|", rows(shards.get(i), "SELECT k FROM l WHERE k >= " + from + " AND k < " + to + " ORDER BY k"));
    }

    private static void fourInserts(int base, String params) throws Exception {
        String all = "(" + base + ", 'a'), (" + (base + 1) + ", 'b'), (" + (base + 2) + ", 'c'), (" + (base + 3) + ", 'd')";
        post(shards.get(0), "INSERT INTO e VALUES " + all, params);
        post(shards.get(0), "INSERT INTO e VALUES " + all, params);
        post(shards.get(0), "INSERT INTO e VALUES (" + (base + 1) + ", 'b'), (" + (base + 3) + ", 'd')", params);
        post(shards.get(0), "INSERT INTO e VALUES (" + (base + 1) + ", 'b'), (" + (base + 2) + ", 'c'), (" + (base + 3) + ", 'd')", params);
    }

    @Test
    void foregroundInsertsDeduplicateAsOnA1816Cluster() throws Exception {
        fourInserts(10, "insert_distributed_sync=" + URLEncoder.encode("1", StandardCharsets.UTF_8));
        assertEquals("10|12|12", shard(0, 10, 20));
        assertEquals("11|13", shard(1, 10, 20));
    }

    @Test
    void backgroundInsertsDeduplicateAsOnA1816Cluster() throws Exception {
        fourInserts(20, "");
        assertEquals("20|22|22", shard(0, 20, 30), "the local shard is written at once");
        assertTrue(await(Duration.ofSeconds(30), () -> shard(1, 20, 30).equals("21|23")), shard(1, 20, 30));
        Path dir = queue();
        assertTrue(Files.isDirectory(dir), "18.16 names the directory after the replica: " + dir);
        assertTrue(awaitQueueEmpty(), "every file sent and removed");
        assertEquals("21|23", shard(1, 20, 30), "the repeated and equal blocks were dropped, not sent late");
    }

    /**
     * 18.16 wrote a background insert's local shard with the server's settings and sent its files with them too, so
     * insert_deduplicate=0 held only in the foreground. Recorded on 18.16.1 (DebianDistributedDifferentialTest's cluster):
     * the same two rows twice with insert_deduplicate=0 leave one row on each shard in the background, two in the foreground.
     */
    @Test
    void aBackgroundInsertDeduplicatesWhateverItsQuerySaysAsOnA1816Cluster() throws Exception {
        for (int i = 0; i < 2; i++) {
            post(shards.get(0), "INSERT INTO e VALUES (30, 'a'), (31, 'b')", "insert_deduplicate=0");
        }
        assertEquals("30", shard(0, 30, 40), "the local shard's write deduplicated");
        assertTrue(awaitQueueEmpty(), "every file sent and removed");
        assertEquals("31", shard(1, 30, 40), "the sent block deduplicated");
        for (int i = 0; i < 2; i++) {
            post(shards.get(0), "INSERT INTO e VALUES (40, 'a'), (41, 'b')", "insert_deduplicate=0&insert_distributed_sync=1");
        }
        assertEquals("40|40", shard(0, 40, 50));
        assertEquals("41|41", shard(1, 40, 50));
    }

    /**
     * An insert reaches a Distributed table block by block as its input gives them (max_insert_block_size), each block split
     * and written on its own, so two equal one-row blocks of one insert are one block to each shard: recorded on 18.16.1,
     * {@code (50, 'a'), (52, 'b'), (50, 'a'), (51, 'a'), (53, 'b'), (51, 'a')} in one-row blocks leaves 50|52 and 51|53, in
     * the background and in the foreground alike.
     */
    @Test
    void eachInputBlockIsWrittenOnItsOwnAsOnA1816Cluster() throws Exception {
        String oneRowBlocks = "max_insert_block_size=1&min_insert_block_size_rows=0&min_insert_block_size_bytes=0";
        post(shards.get(0), "INSERT INTO e VALUES (50, 'a'), (52, 'b'), (50, 'a'), (51, 'a'), (53, 'b'), (51, 'a')", oneRowBlocks);
        assertTrue(awaitQueueEmpty(), "every file sent and removed");
        assertEquals("50|52", shard(0, 50, 60));
        assertEquals("51|53", shard(1, 50, 60));
        post(shards.get(0), "INSERT INTO e VALUES (60, 'a'), (62, 'b'), (60, 'a'), (61, 'a'), (63, 'b'), (61, 'a')",
            oneRowBlocks + "&insert_distributed_sync=1");
        assertEquals("60|62", shard(0, 60, 70));
        assertEquals("61|63", shard(1, 60, 70));
    }

    /** The first shard's queue of files for the second. */
    private static Path queue() {
        return shards.get(0).dataDir().resolve("data").resolve("default").resolve("e").resolve("default@127%2E0%2E0%2E1:" + shards.get(1).port());
    }

    private static boolean awaitQueueEmpty() throws InterruptedException {
        return await(Duration.ofSeconds(30), () -> {
            try (var files = Files.list(queue())) {
                return files.noneMatch(f -> f.getFileName().toString().endsWith(".bin"));
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }
}
