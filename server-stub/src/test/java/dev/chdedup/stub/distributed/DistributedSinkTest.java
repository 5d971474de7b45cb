package dev.chdedup.stub.distributed;

import static dev.chdedup.stub.distributed.ShardedServers.rows;
import static dev.chdedup.stub.distributed.ShardedServers.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.server.StubServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Inserts through a Distributed table over three single-replica shards (the first one the server of the table itself):
 * the rows each shard holds are those the key sends it (the key's value as unsigned, modulo the total weight, as the
 * engine's selector), foreground and background; a retry with the same token lands once on every shard; the engine's
 * error without a key.
 */
class DistributedSinkTest {
    private static ShardedServers servers;
    private static int table;

    @BeforeAll
    static void start() throws Exception {
        servers = new ShardedServers(3, 1, true);
    }

    @AfterAll
    static void stop() throws Exception {
        servers.close();
    }

    /** Fresh local tables on every shard and a Distributed table over them on the first shard's server; its name. */
    private static String tables(String keyType, String key, String localSettings) {
        String n = "t" + (++table);
        for (StubServer s : servers.all()) {
            sql(s, "CREATE TABLE " + n + "_local (k " + keyType + ", v String) ENGINE = MergeTree ORDER BY tuple()" + localSettings);
        }
        sql(first(), "CREATE TABLE " + n + " AS " + n + "_local ENGINE = Distributed(c, default, " + n + "_local" + (key == null ? "" : ", " + key)
            + ")");
        return n;
    }

    private static StubServer first() {
        return servers.server(0, 0);
    }

    /** Each shard's keys, sorted, shard by shard. */
    private static List<List<String>> perShard(String n) {
        List<List<String>> out = new ArrayList<>();
        for (List<StubServer> shard : servers.shards) {
            out.add(rows(shard.get(0), "SELECT k FROM " + n + "_local ORDER BY k"));
        }
        return out;
    }

    /** The keys -5..5 as the engine places them over three shards of weight 1: slot = (unsigned key) mod 3. */
    private static List<List<String>> expectedForInt64() {
        List<List<String>> out = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (long k = -5; k <= 5; k++) {
            out.get((int) Long.remainderUnsigned(k, 3)).add(Long.toString(k));
        }
        return out;
    }

    private static boolean landed(String n, int rows) {
        return perShard(n).stream().mapToInt(List::size).sum() == rows;
    }

    @Test
    void foregroundRowsLandOnTheShardTheirKeyPicks() {
        String n = tables("Int64", "k", "");
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", Map.of("distributed_foreground_insert", "1"));
        assertEquals(expectedForInt64(), perShard(n));
    }

    @Test
    void backgroundRowsLandOnTheShardTheirKeyPicks() throws Exception {
        String n = tables("Int64", "k", "");
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)");
        assertTrue(ShardedServers.await(Duration.ofSeconds(30), () -> landed(n, 11)), "the queued files were sent");
        assertEquals(expectedForInt64(), perShard(n));
    }

    @Test
    void aSelectOverTheTableReadsTheUnionOfTheShards() {
        String n = tables("Int64", "k", "");
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", Map.of("distributed_foreground_insert", "1"));
        List<String> all = new ArrayList<>();
        for (long k = -5; k <= 5; k++) {
            all.add(Long.toString(k));
        }
        assertEquals(all, rows(first(), "SELECT k FROM " + n + " ORDER BY k"));
        List<String> perShardCounts = new ArrayList<>();
        List<List<String>> expected = expectedForInt64();
        for (int i = 0; i < expected.size(); i++) {
            perShardCounts.add((i + 1) + "\t" + expected.get(i).size());
        }
        assertEquals(perShardCounts, rows(first(), "SELECT _shard_num, count() FROM " + n + " GROUP BY _shard_num ORDER BY _shard_num"));
    }

    @Test
    void aSignedKeyNarrowerThan64BitsIsWidenedTo32BitsWithItsSign() {
        // the engine casts an Int8 key to UInt32: -1 is 4294967295, slot 0 of 3, where a signed remainder would say -1 (or 2)
        String n = tables("Int8", "k", "");
        sql(first(), "INSERT INTO " + n + " VALUES (-1, 'a'), (-2, 'b'), (-7, 'c'), (7, 'd')", Map.of("distributed_foreground_insert", "1"));
        List<List<String>> expected = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (long k : new long[] {-7, -2, -1, 7}) {
            expected.get((int) ((k & 0xFFFFFFFFL) % 3)).add(Long.toString(k));
        }
        assertEquals(expected, perShard(n));
    }

    @Test
    void shardsTakeRowsByTheirWeights() {
        List<Cluster.ShardInfo> shards = new ArrayList<>();
        int[] weights = {1, 2, 0};
        for (int i = 0; i < 3; i++) {
            shards.add(new Cluster.ShardInfo(i + 1, weights[i], true,
                List.of(new Cluster.Address("127.0.0.1", servers.server(i, 0).port(), null, null, null, false, i + 1, 1))));
        }
        first().clusters().define(new Cluster("weighted", shards));
        String n = tables("UInt64", "k", "");
        sql(first(), "CREATE TABLE " + n + "_w AS " + n + "_local ENGINE = Distributed(weighted, default, " + n + "_local, k)");
        sql(first(), "INSERT INTO " + n + "_w SELECT number, 'x' FROM numbers(9)", Map.of("distributed_foreground_insert", "1"));
        // slots 0 | 1 2 (weights 1 and 2; the third shard, of weight 0, has none): key mod 3
        assertEquals(List.of(List.of("0", "3", "6"), List.of("1", "2", "4", "5", "7", "8"), List.of()), perShard(n));
    }

    @Test
    void withoutAKeyAnInsertOverSeveralShardsIsRefused() {
        String n = tables("Int64", null, "");
        ChException e = assertThrows(ChException.class, () -> sql(first(), "INSERT INTO " + n + " VALUES (1, 'a')"));
        assertEquals(ErrorCode.STORAGE_REQUIRES_PARAMETER, e.code());
        assertTrue(e.getMessage().contains("Method write is not supported by storage Distributed with more than one shard and no sharding key"
            + " provided"), e.getMessage());
        assertEquals(0, perShard(n).stream().mapToInt(List::size).sum());
    }

    @Test
    void aForegroundRetryWithTheSameTokenLandsOnceOnEveryShard() {
        String n = tables("Int64", "k", " SETTINGS non_replicated_deduplication_window = 100");
        Map<String, String> s = Map.of("distributed_foreground_insert", "1", "insert_deduplication_token", "tok-1");
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", s);
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", s);
        assertEquals(expectedForInt64(), perShard(n));
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", Map.of("distributed_foreground_insert", "1",
            "insert_deduplication_token", "tok-2"));
        assertEquals(22, perShard(n).stream().mapToInt(List::size).sum(), "another token lands again");
    }

    @Test
    void aBackgroundRetryWithTheSameTokenLandsOnceOnEveryShard() throws Exception {
        String n = tables("Int64", "k", " SETTINGS non_replicated_deduplication_window = 100");
        Map<String, String> s = Map.of("insert_deduplication_token", "tok-1");
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", s);
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", s);
        sql(first(), "SYSTEM FLUSH DISTRIBUTED " + n);
        assertEquals(expectedForInt64(), perShard(n));
    }

    @Test
    void aForegroundInsertOverItsTimeoutFailsAfterTheShardsAnswered() {
        String n = tables("Int64", "k", "");
        // the third shard commits and answers 2.1 s later: the engine checks the elapsed whole seconds once every shard answered
        sql(servers.server(2, 0), "SYSTEM ENABLE FAILPOINT stub_insert_delay_response DELAY 2100 ON TABLE default." + n + "_local FOR 1 INSERTS");
        ChException e = assertThrows(ChException.class, () -> sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)",
            Map.of("distributed_foreground_insert", "1", "distributed_background_insert_timeout", "1")));
        assertEquals(ErrorCode.TIMEOUT_EXCEEDED, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("Synchronous distributed insert timeout exceeded."), e.getMessage());
        assertEquals(expectedForInt64(), perShard(n), "the rows landed all the same");
    }

    @Test
    void the18_16SettingNameMakesTheInsertForeground() {
        String n = tables("Int64", "k", "");
        sql(first(), "SYSTEM STOP DISTRIBUTED SENDS " + n); // a background insert would stay queued
        sql(first(), "INSERT INTO " + n + " SELECT number - 5, 'x' FROM numbers(11)", Map.of("insert_distributed_sync", "1"));
        assertEquals(expectedForInt64(), perShard(n));
    }
}
