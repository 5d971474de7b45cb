package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.StubProcess;
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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Distributed table's server killed for real (SIGKILL, a child JVM reading its cluster from a ClickHouse config file)
 * with background inserts queued or being sent: after its restart on the same data directory every acknowledged row is
 * on its shard exactly once. A file sent before the kill but not yet removed is sent again and dropped by the shard's
 * deduplication (the shards' tables keep a deduplication log); a file half written is never sent.
 */
class DistributedKillNineTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final int INSERTS = 30;
    private static final int ROWS = 40;

    @TempDir
    Path dir;
    private StubServer shard1;
    private StubServer shard2;
    private StubProcess head;

    @BeforeEach
    void start() throws Exception {
        shard1 = StubServer.builder().port(0).build().start();
        shard2 = StubServer.builder().port(0).build().start();
        for (StubServer s : List.of(shard1, shard2)) {
            query(s.httpUrl(), "CREATE TABLE kn_local (k UInt64, v String) ENGINE = MergeTree ORDER BY k"
                + " SETTINGS non_replicated_deduplication_window = 1000");
        }
        Files.writeString(dir.resolve("config.xml"), "<clickhouse><remote_servers><two>"
            + "<shard><replica><host>127.0.0.1</host><port>" + shard1.port() + "</port></replica></shard>"
            + "<shard><replica><host>127.0.0.1</host><port>" + shard2.port() + "</port></replica></shard>"
            + "</two></remote_servers></clickhouse>");
        head = startHead();
        query(head.url(), "CREATE TABLE kn (k UInt64, v String) ENGINE = Distributed(two, default, kn_local, k)");
    }

    private StubProcess startHead() throws Exception {
        return StubProcess.start(dir.resolve("head"), List.of("-Xmx256m"), List.of("--config-file", dir.resolve("config.xml").toString()));
    }

    @AfterEach
    void stop() throws Exception {
        if (head != null) {
            head.kill();
        }
        shard1.close();
        shard2.close();
    }

    private void insertAll() throws Exception {
        for (int i = 0; i < INSERTS; i++) {
            StringBuilder values = new StringBuilder();
            for (int r = 0; r < ROWS; r++) {
                long k = (long) i * ROWS + r;
                values.append(r == 0 ? "" : ", ").append('(').append(k).append(", 'v").append(k).append("')");
            }
            query(head.url(), "INSERT INTO kn VALUES " + values);
        }
    }

    private long stored() throws Exception {
        return Long.parseLong(query(shard1.httpUrl(), "SELECT count() FROM kn_local").strip())
            + Long.parseLong(query(shard2.httpUrl(), "SELECT count() FROM kn_local").strip());
    }

    /** Waits until both shards hold every row (or the deadline), then checks each key is stored once, on its shard. */
    private void assertEveryRowOnceOnItsShard() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (stored() < (long) INSERTS * ROWS && System.nanoTime() < deadline) {
            Thread.sleep(100); // polling the restarted server's sends, with a deadline
        }
        Thread.sleep(500); // a resend that would duplicate lands within the senders' next round
        assertEquals((long) INSERTS * ROWS, stored(), "every acknowledged row stored, none twice");
        assertEquals("0\n", query(shard1.httpUrl(), "SELECT count() FROM kn_local WHERE k % 2 != 0"), "shard 1 holds even keys only");
        assertEquals("0\n", query(shard2.httpUrl(), "SELECT count() FROM kn_local WHERE k % 2 != 1"), "shard 2 holds odd keys only");
        assertEquals("0\n", query(shard1.httpUrl(), "SELECT count() FROM (SELECT k FROM kn_local GROUP BY k HAVING count() > 1)"));
        assertEquals("0\n", query(shard2.httpUrl(), "SELECT count() FROM (SELECT k FROM kn_local GROUP BY k HAVING count() > 1)"));
        assertEquals("0\n", query(head.url(), "SELECT sum(data_files) FROM system.distribution_queue WHERE table = 'kn'"),
            "nothing left queued");
    }

    @Test
    void queuedFilesSurviveAKillAndLandOnce() throws Exception {
        query(head.url(), "SYSTEM STOP DISTRIBUTED SENDS kn");
        insertAll();
        assertEquals(Integer.toString(2 * INSERTS) + "\n",
            query(head.url(), "SELECT sum(data_files) FROM system.distribution_queue WHERE table = 'kn'"), "a file per insert and shard");
        assertEquals(0, stored(), "nothing sent while sends are stopped");
        head.kill();
        head = startHead(); // the stop lived in memory: the restarted server sends what it finds
        assertEveryRowOnceOnItsShard();
    }

    @Test
    void aKillWhileSendingLandsEveryRowOnce() throws Exception {
        query(head.url(), "SYSTEM STOP DISTRIBUTED SENDS kn");
        insertAll();
        query(head.url(), "SYSTEM START DISTRIBUTED SENDS kn");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (stored() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5); // waiting for the first files to land, to kill the server amid its sends
        }
        head.kill();
        long atKill = stored();
        assertTrue(atKill > 0, "the kill came after some sends");
        head = startHead();
        assertEveryRowOnceOnItsShard();
        System.out.printf("DISTRIBUTED kill -9 amid sends: %d of %d rows on the shards at the kill, all %d once after the restart%n",
            atKill, INSERTS * ROWS, INSERTS * ROWS);
    }

    private static String query(String url, String sql) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError(sql + ": " + r.body());
        }
        return r.body();
    }
}
