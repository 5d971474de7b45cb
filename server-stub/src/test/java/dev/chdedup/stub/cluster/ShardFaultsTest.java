package dev.chdedup.stub.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The faults a sharded cluster suffers, through {@link ClusterFaults}: the link from the Distributed table's server to
 * a shard cut (its sends and reads refused while the shard serves everyone else; background files wait and land once
 * the link is back) and a whole shard down (reads fail, or leave it out under skip_unavailable_shards).
 */
class ShardFaultsTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static StubCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = StubCluster.builder().shards(2).replicas(1).build().start();
        for (int s = 1; s <= 2; s++) {
            query(url(s), "CREATE TABLE sf_local (k UInt64) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100");
        }
        query(url(1), "CREATE TABLE sf AS sf_local ENGINE = Distributed(" + cluster.name() + ", default, sf_local, k)");
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    private static String url(int shard) {
        return cluster.replica(shard, 1).httpUrl();
    }

    @Test
    void aCutLinkRefusesSendsAndReadsAndBackgroundFilesLandOnceItIsBack() throws Exception {
        cluster.faults().cutLink(1, 2);
        try {
            HttpResponse<String> fg = send(url(1), "INSERT INTO sf SETTINGS distributed_foreground_insert = 1 VALUES (11)");
            assertTrue(fg.body().startsWith("Code: 279."), "a foreground send over the cut link: " + fg.body());
            HttpResponse<String> read = send(url(1), "SELECT count() FROM sf");
            assertTrue(read.body().startsWith("Code: 279."), "a read over the cut link: " + read.body());
            assertEquals("0\n", query(url(2), "SELECT count() FROM sf_local WHERE k < 30"), "the shard itself still answers others");
            query(url(1), "INSERT INTO sf VALUES (20), (21)");
            assertEquals("1\n", query(url(1), "SELECT sum(data_files) FROM system.distribution_queue WHERE table = 'sf'"),
                "the far shard's file waits");
        } finally {
            cluster.faults().healLinks();
        }
        query(url(1), "SYSTEM FLUSH DISTRIBUTED sf");
        assertEquals("21\n", query(url(2), "SELECT k FROM sf_local WHERE k < 30 ORDER BY k"), "the waiting file landed, once");
        assertEquals("20\n", query(url(1), "SELECT k FROM sf_local WHERE k = 20"));
    }

    @Test
    void aShardDownFailsReadsOrIsSkipped() throws Exception {
        query(url(1), "INSERT INTO sf SETTINGS distributed_foreground_insert = 1 VALUES (30), (31)");
        cluster.faults().killShard(2);
        try {
            HttpResponse<String> read = send(url(1), "SELECT count() FROM sf WHERE k >= 30");
            assertTrue(read.body().startsWith("Code: 279."), read.body());
            assertEquals("30\n", query(url(1), "SELECT k FROM sf WHERE k >= 30 ORDER BY k SETTINGS skip_unavailable_shards = 1"));
        } finally {
            cluster.faults().restartShard(2);
        }
        assertEquals("30\n31\n", query(url(1), "SELECT k FROM sf WHERE k >= 30 ORDER BY k"));
    }

    private static HttpResponse<String> send(String url, String sql) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String query(String url, String sql) throws Exception {
        HttpResponse<String> r = send(url, sql);
        if (r.statusCode() != 200) {
            throw new AssertionError(sql + ": " + r.body());
        }
        return r.body();
    }
}
