package dev.chdedup.stub.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The stub plays ClickHouse 18.16 and 22.1 as ../shared/clickhouse-observed/03-http*.txt shows them: error text and
 * status, no exception-code or summary headers (18.16), unknown settings, no {@code INSERT ... SETTINGS}, missing
 * formats, the ignored format header, the empty body of a compressed SELECT; and nothing refused is written.
 */
class CompatibilityProfileTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> post(StubServer s, String params, String body, String... headers) throws IOException,
        InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.httpUrl() + "/" + (params.isEmpty() ? "" : "?" + params)))
            .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String count(StubServer s, String table) throws Exception {
        return post(s, "", "SELECT count() FROM " + table).body().strip();
    }

    @Test
    void playsClickHouse1816() throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate("18.16").build().start()) {
            assertEquals(200, post(s, "", "CREATE TABLE t (id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/t', 'r1') ORDER BY id").statusCode());

            HttpResponse<String> token = post(s, "insert_deduplication_token=tok-1", "INSERT INTO t VALUES (5, 'five')");
            assertEquals(404, token.statusCode());
            assertEquals("Code: 115, e.displayText() = DB::Exception: Unknown setting insert_deduplication_token, e.what() = DB::Exception\n",
                token.body());
            assertTrue(token.headers().firstValue("X-ClickHouse-Exception-Code").isEmpty(), "18.16 sends no exception-code header");
            for (String absent : new String[] {"deduplicate_insert", "async_insert", "non_replicated_deduplication_window"}) {
                HttpResponse<String> r = post(s, absent + "=1", "SELECT 1");
                assertEquals(404, r.statusCode(), absent);
                assertTrue(r.body().contains("Unknown setting " + absent), r.body());
            }

            HttpResponse<String> clause = post(s, "", "INSERT INTO t (id, s) SETTINGS insert_deduplicate=1 VALUES (5,'five')");
            assertEquals(400, clause.statusCode());
            assertTrue(clause.body().startsWith("Code: 62, e.displayText() = DB::Exception: Syntax error: failed at position 23:"
                + " SETTINGS insert_deduplicate=1"), clause.body());

            HttpResponse<String> format = post(s, "", "SELECT 1 FORMAT RowBinaryWithNamesAndTypes");
            assertEquals(404, format.statusCode());
            assertTrue(format.body().startsWith("Code: 73, e.displayText() = DB::Exception: Unknown format RowBinaryWithNamesAndTypes"));
            assertEquals(404, post(s, "query=" + URLEncoder.encode("INSERT INTO t FORMAT RowBinaryWithNamesAndTypes", StandardCharsets.UTF_8),
                "x").statusCode());
            assertEquals("0", count(s, "t"), "nothing refused was written");

            HttpResponse<String> ok = post(s, "insert_deduplicate=1", "INSERT INTO t VALUES (1, 'a')");
            assertEquals(200, ok.statusCode());
            assertEquals("", ok.body());
            assertTrue(ok.headers().firstValue("X-ClickHouse-Summary").isEmpty(), "18.16 sends no summary");
            assertTrue(ok.headers().firstValue("X-ClickHouse-Query-Id").isEmpty());

            HttpResponse<String> ignored = post(s, "", "SELECT id, s FROM t", "X-ClickHouse-Format", "RowBinaryWithNamesAndTypes");
            assertEquals("1\ta\n", ignored.body(), "the format header is ignored: TabSeparated");
            HttpResponse<String> compressed = post(s, "compress=1", "SELECT id FROM t");
            assertEquals(200, compressed.statusCode());
            assertEquals("", compressed.body(), "18.16 answers a compressed SELECT with an empty body");

            assertEquals(200, post(s, "", "INSERT INTO t VALUES (1, 'a')").statusCode());
            assertEquals("1", count(s, "t"), "the same block again is dropped by its content");
        }
    }

    @Test
    void playsClickHouse221() throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate("22.1").build().start()) {
            HttpResponse<String> token = post(s, "insert_deduplication_token=tok-1", "SELECT 1");
            assertEquals(404, token.statusCode());
            assertEquals("Code: 115. DB::Exception: Setting insert_deduplication_token is neither a builtin setting nor started with the"
                + " prefix 'custom_' registered for user-defined settings. (UNKNOWN_SETTING) (version 22.1.3.7 (official build))\n", token.body());
            assertEquals("115", token.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""));
            assertEquals(200, post(s, "async_insert=0", "SELECT 1").statusCode(), "22.1 has async_insert");
            assertEquals(200, post(s, "", "SELECT 1 FORMAT RowBinaryWithNamesAndTypes").statusCode());
        }
    }

    @Test
    void theCurrentServerIsUnchangedAndAnUnknownVersionIsRefused() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            HttpResponse<String> r = post(s, "insert_deduplication_token=x", "SELECT 1");
            assertEquals(200, r.statusCode());
            assertFalse(r.headers().firstValue("X-ClickHouse-Summary").isEmpty());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StubServer.builder().emulate("9.9"));
        assertTrue(e.getMessage().contains("18.16"), e.getMessage());
    }
}
