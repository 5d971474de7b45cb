package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.StubProcess;
import dev.chdedup.stub.junit.GeneratedRows;
import dev.chdedup.stub.server.StubServer;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory limits refuse a block before it is allocated and write nothing of it: {@code max_memory_usage} per query,
 * and the server's own limit, a share of the JVM heap, so an insert whose block cannot fit is a clean 241 in a
 * server that goes on serving, while the same rows in blocks of the default size stream through a small heap.
 */
class MemoryLimitTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(String url, String sql, InputStream body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofInputStream(() -> body)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private String ok(String url, String sql) throws Exception {
        HttpResponse<String> r = post(url, sql, null);
        assertEquals(200, r.statusCode(), r.body());
        return r.body().trim();
    }

    @Test
    void maxMemoryUsageRefusesTheBlockAndWritesNothing(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            ok(s.httpUrl(), "CREATE TABLE m (id UInt64, s String, x Float64) ENGINE = MergeTree ORDER BY id");
            HttpResponse<String> r = post(s.httpUrl(), "INSERT INTO m SETTINGS max_memory_usage = 1000000 FORMAT TSV", rows(100_000));
            assertEquals(500, r.statusCode(), r.body());
            assertTrue(r.body().contains("Code: 241.") && r.body().contains("(MEMORY_LIMIT_EXCEEDED)"), r.body());
            assertEquals("0", ok(s.httpUrl(), "SELECT count() FROM m"));
            assertEquals(0, MemoryTracker.serverUsage(), "what the failed query counted is released");
            assertEquals(200, post(s.httpUrl(), "INSERT INTO m SETTINGS max_memory_usage = 100000000 FORMAT TSV", rows(100_000)).statusCode());
            assertEquals("100000", ok(s.httpUrl(), "SELECT count() FROM m"));
        }
    }

    @Test
    void aBlockThatCannotFitTheHeapIsRefusedAndTheServerKeepsServing(@TempDir Path data) throws Exception {
        StubProcess stub = StubProcess.start(data, "-Xmx200m");
        try {
            ok(stub.url(), "CREATE TABLE big (id UInt64, s String, x Float64) ENGINE = MergeTree ORDER BY id");
            // a block of this table's columns takes about 26 bytes a row, so about 3 M rows of it fit the server's share
            // (100 MB) of a 200 MB heap; the columns ask before they grow, so the block is refused before it is held
            try {
                HttpResponse<String> r = post(stub.url(), "INSERT INTO big SETTINGS max_insert_block_size = 1000000000000 FORMAT TSV",
                    rows(5_000_000));
                assertEquals(500, r.statusCode(), r.body());
                assertTrue(r.body().contains("(MEMORY_LIMIT_EXCEEDED)"), r.body());
            } catch (java.io.IOException answeredWhileSending) {
                // the server answers as soon as the block is refused, while the client still sends the rest of the
                // body; a loaded machine may show that as a closed connection instead of the answer
                assertTrue(stub.process().isAlive(), "the server is still running");
            }
            assertEquals("0", ok(stub.url(), "SELECT count() FROM big"), "nothing of the refused block is written");
            // the same rows in blocks of the default size stream through the same heap
            assertEquals(200, post(stub.url(), "INSERT INTO big FORMAT TSV", rows(3_000_000)).statusCode());
            assertEquals("3000000\t4499998500000", ok(stub.url(), "SELECT count(), sum(id) FROM big"));
        } finally {
            stub.kill();
        }
    }

    /** Rows (id, s, x) generated as they are sent, so the sender holds none. */
    private static InputStream rows(long n) {
        return GeneratedRows.lines(n, i -> i + "\tstr" + i % 1000 + "\t" + i * 0.5);
    }
}
