package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** KILL QUERY cancels a running query between blocks; system.processes lists running queries; ids are unique. */
class KillQueryTest {
    private static StubServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        server = StubServer.builder().port(0).build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static CompletableFuture<HttpResponse<String>> post(String sql, String queryId) {
        String url = server.httpUrl() + "/" + (queryId == null ? "" : "?query_id=" + URLEncoder.encode(queryId, StandardCharsets.UTF_8));
        return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static String query(String sql) throws Exception {
        HttpResponse<String> r = post(sql, null).get(30, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        return r.body().trim();
    }

    private static void awaitRunning(String queryId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!query("SELECT count() FROM system.processes WHERE query_id = '" + queryId + "'").equals("1")) {
            assertTrue(System.nanoTime() < deadline, "query " + queryId + " never showed up in system.processes");
            Thread.onSpinWait();
        }
    }

    @Test
    void killQueryCancelsAnEndlessQuery() throws Exception {
        CompletableFuture<HttpResponse<String>> endless = post("SELECT count() FROM system.numbers", "endless-1");
        awaitRunning("endless-1");
        // a second query with the same id is refused while the first runs
        HttpResponse<String> dup = post("SELECT 1", "endless-1").get(10, TimeUnit.SECONDS);
        assertTrue(dup.body().contains("(QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING)"), dup.body());
        String killed = query("KILL QUERY WHERE query_id = 'endless-1' SYNC");
        assertTrue(killed.startsWith("finished\tendless-1\tdefault\t"), killed);
        HttpResponse<String> r = endless.get(10, TimeUnit.SECONDS);
        assertTrue(r.body().contains("(QUERY_WAS_CANCELLED)"), r.body());
        assertEquals("0", query("SELECT count() FROM system.processes WHERE query_id = 'endless-1'"));
    }

    @Test
    void killQueryWithoutAMatchAnswersNoRows() throws Exception {
        assertEquals("", query("KILL QUERY WHERE query_id = 'nothing-runs-with-this-id'"));
    }
}
