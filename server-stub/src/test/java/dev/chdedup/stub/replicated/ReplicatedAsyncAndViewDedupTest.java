package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Async inserts and materialized-view output into a replicated table carry block ids into ZooKeeper, so a retry on
 * another replica (async or not) is a duplicate, and in an async batch only the queries already stored are dropped.
 */
class ReplicatedAsyncAndViewDedupTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    private String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    private static final String ASYNC = "async_insert=1&wait_for_async_insert=1&async_insert_deduplicate=1";

    private void create(String table) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table
                + "', '{replica}') ORDER BY k");
        }
    }

    private static void ok(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void anAsyncInsertRetriedOnAnotherReplicaIsADuplicateAsyncOrNot() throws Exception {
        create("a");
        ok(Http.send(url(1), "INSERT INTO a VALUES (1), (2)", ASYNC));
        ok(Http.send(url(2), "INSERT INTO a VALUES (1), (2)", ASYNC));
        ok(Http.send(url(2), "INSERT INTO a VALUES (1), (2)", ""));
        Http.query(url(1), "SYSTEM SYNC REPLICA a");
        Http.query(url(2), "SYSTEM SYNC REPLICA a");
        assertEquals("1\n2\n", Http.query(url(1), "SELECT k FROM a ORDER BY k"));
        assertEquals("1\n2\n", Http.query(url(2), "SELECT k FROM a ORDER BY k"));
        assertEquals("1\n", Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/a/deduplication_hashes'"));
        // and the other way round: a sync insert retried as an async one
        ok(Http.send(url(1), "INSERT INTO a VALUES (3)", ""));
        ok(Http.send(url(2), "INSERT INTO a VALUES (3)", ASYNC));
        Http.query(url(2), "SYSTEM SYNC REPLICA a");
        assertEquals("3\n", Http.query(url(2), "SELECT count() FROM a"));
    }

    @Test
    void inAnAsyncBatchOnlyTheQueriesAlreadyStoredAreDropped() throws Exception {
        create("b");
        ok(Http.send(url(2), "INSERT INTO b VALUES (10)", ""));
        String noWait = "async_insert=1&wait_for_async_insert=0&async_insert_deduplicate=1&async_insert_busy_timeout_ms=600000";
        ok(Http.send(url(1), "INSERT INTO b VALUES (10)", noWait));
        ok(Http.send(url(1), "INSERT INTO b VALUES (20)", noWait));
        // the third query fills the batch (its own data does not pass async_insert_max_data_size, the batch's reaches it):
        // one flush of (10) stored on r2 already, (20), and (20) again
        ok(Http.send(url(1), "INSERT INTO b VALUES (20)", ASYNC + "&async_insert_busy_timeout_ms=600000&async_insert_max_data_size=8"));
        assertEquals("DuplicatedAsyncInserts\t1\nSelfDuplicatedAsyncInserts\t1\n", Http.query(url(1), "SELECT event, value FROM system.events"
            + " WHERE event IN ('DuplicatedAsyncInserts', 'SelfDuplicatedAsyncInserts') ORDER BY event"));
        assertEquals("1\n", Http.query(url(1), "SELECT count() FROM system.parts WHERE table = 'b' AND active AND rows = 1"
            + " AND name LIKE 'all\\_1\\_1\\_%'"), "one part for the batch, with the one new row");
        Http.query(url(1), "SYSTEM SYNC REPLICA b");
        assertEquals("10\n20\n", Http.query(url(1), "SELECT k FROM b ORDER BY k"));
        Http.query(url(2), "SYSTEM SYNC REPLICA b");
        assertEquals("10\n20\n", Http.query(url(2), "SELECT k FROM b ORDER BY k"));
    }

    @Test
    void aViewsOutputRetriedThroughAnotherReplicaIsADuplicate() throws Exception {
        create("target");
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE src (k UInt64) ENGINE = MergeTree ORDER BY k");
            Http.query(url(i), "CREATE MATERIALIZED VIEW mv TO target AS SELECT k * 10 AS k FROM src");
        }
        String params = "insert_deduplication_token=batch-7&deduplicate_blocks_in_dependent_materialized_views=1";
        ok(Http.send(url(1), "INSERT INTO src VALUES (1), (2)", params));
        ok(Http.send(url(2), "INSERT INTO src VALUES (1), (2)", params));
        Http.query(url(1), "SYSTEM SYNC REPLICA target");
        Http.query(url(2), "SYSTEM SYNC REPLICA target");
        assertEquals("10\n20\n", Http.query(url(1), "SELECT k FROM target ORDER BY k"));
        assertEquals("10\n20\n", Http.query(url(2), "SELECT k FROM target ORDER BY k"));
        assertEquals("2\n", Http.query(url(1), "SELECT count() FROM src"));
        assertEquals("2\n", Http.query(url(2), "SELECT count() FROM src"), "each replica's own source table took the block");
    }
}
