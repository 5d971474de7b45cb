package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Replicated tables as the source and as the target of materialized views, and async inserts into them. */
class ReplicatedMergeTreeSinkTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    static void createReplicated(String table) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table
                + "', '{replica}') ORDER BY k");
        }
    }

    @Test
    void aViewOnAReplicatedSourceGetsEachBlockAndItsTargetDropsTheDuplicates() throws Exception {
        createReplicated("src");
        Http.query(url(1), "CREATE TABLE agg (k UInt64) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100");
        Http.query(url(1), "CREATE MATERIALIZED VIEW mv TO agg AS SELECT k * 10 AS k FROM src");
        Http.query(url(1), "INSERT INTO src VALUES (1), (2)");
        Http.query(url(1), "INSERT INTO src VALUES (1), (2)");
        // the duplicate reaches the view (deduplicate_blocks_in_dependent_materialized_views = 1), whose target drops it
        assertEquals("10\n20\n", Http.query(url(1), "SELECT k FROM agg ORDER BY k"));
        Http.send(url(1), "INSERT INTO src VALUES (3)", "");
        // with deduplicate_blocks_in_dependent_materialized_views = 0 the target takes the duplicate again, as in ClickHouse 26.x
        Http.send(url(1), "INSERT INTO src VALUES (3)", "deduplicate_blocks_in_dependent_materialized_views=0");
        assertEquals("10\n20\n30\n30\n", Http.query(url(1), "SELECT k FROM agg ORDER BY k"));
        Http.query(url(2), "SYSTEM SYNC REPLICA src");
        assertEquals("3\n", Http.query(url(2), "SELECT count() FROM src"));
    }

    @Test
    void aViewIntoAReplicatedTargetAndAsyncInsertsReplicate() throws Exception {
        createReplicated("dst");
        Http.query(url(1), "CREATE TABLE plain (k UInt64) ENGINE = MergeTree ORDER BY k");
        Http.query(url(1), "CREATE MATERIALIZED VIEW to_dst TO dst AS SELECT k + 100 AS k FROM plain");
        Http.query(url(1), "INSERT INTO plain VALUES (1)");
        assertEquals(200, Http.send(url(1), "INSERT INTO dst VALUES (7)", "async_insert=1&wait_for_async_insert=1").statusCode());
        Http.query(url(2), "SYSTEM SYNC REPLICA dst");
        assertEquals("7\n101\n", Http.query(url(2), "SELECT k FROM dst ORDER BY k"));
        assertEquals("all_0_0_0\nall_1_1_0\n", Http.query(url(1), "SELECT name FROM system.parts WHERE table = 'dst' ORDER BY name"),
            "block numbers come from ZooKeeper on every path");
    }
}
