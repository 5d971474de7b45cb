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
    void versionBuildOptionsFunctionsAndMergeTreeSettingsFollowTheRelease() throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate("18.16").build().start()) {
            assertEquals("18.16.1\n", post(s, "", "SELECT version()").body());
            assertEquals("18016001\n", post(s, "", "SELECT value FROM system.build_options WHERE name = 'VERSION_INTEGER'").body());
            HttpResponse<String> fn = post(s, "", "SELECT fromUnixTimestamp64Nano(1)");
            assertEquals(404, fn.statusCode());
            assertEquals("Code: 46, e.displayText() = DB::Exception: Unknown function fromUnixTimestamp64Nano, e.what() = DB::Exception\n",
                fn.body());
            assertEquals(200, post(s, "", "CREATE TABLE ts (t DateTime) ENGINE = MergeTree ORDER BY t").statusCode());
            assertEquals(404, post(s, "", "INSERT INTO ts VALUES (fromUnixTimestamp64Nano(1704164645000000000))").statusCode(),
                "the official driver's instant literal is refused in VALUES too");
            assertEquals(200, post(s, "", "INSERT INTO ts VALUES ('2024-01-02 03:04:05')").statusCode());
            assertEquals("1704164645\n", post(s, "", "SELECT toUnixTimestamp(t) FROM ts").body());
            assertEquals("0\n", post(s, "", "SELECT count() FROM system.merge_tree_settings WHERE name = 'non_replicated_deduplication_window'")
                .body(), "18.16 has no non-replicated window");
            assertEquals("1\n", post(s, "", "SELECT count() FROM system.merge_tree_settings WHERE name = 'replicated_deduplication_window'")
                .body(), "the replicated window is there");
        }
        try (StubServer s = StubServer.builder().port(0).emulate("22.1").build().start()) {
            assertEquals("22.1.3.7\n", post(s, "", "SELECT version()").body());
        }
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals(dev.chdedup.stub.exec.ServerInfo.VERSION + "\n", post(s, "", "SELECT version()").body());
            assertEquals(200, post(s, "", "SELECT fromUnixTimestamp64Nano(1)").statusCode());
            assertEquals("1\n", post(s, "", "SELECT count() FROM system.merge_tree_settings WHERE name = 'non_replicated_deduplication_window'")
                .body());
        }
    }

    @Test
    void framesResponsesAs1816Does() throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate("18.16").build().start()) {
            assertEquals(200, post(s, "", "CREATE TABLE t (id UInt64) ENGINE = MergeTree ORDER BY id").statusCode());
            RawHttp.Response insert = RawHttp.post(s.port(), "/", "INSERT INTO t VALUES (1)");
            assertEquals("chunked", insert.header("Transfer-Encoding"), insert.head());
            assertEquals(null, insert.header("Content-Length"), insert.head());
            RawHttp.Response select = RawHttp.post(s.port(), "/", "SELECT id FROM t");
            assertEquals("chunked", select.header("Transfer-Encoding"), select.head());
            assertEquals(null, select.header("X-ClickHouse-Format"), select.head());
            assertEquals(null, select.header("X-ClickHouse-Summary"), select.head());
            assertEquals("1\n", new String(select.body(), StandardCharsets.UTF_8));
            RawHttp.Response error = RawHttp.post(s.port(), "/?compress=1", "SELECT nosuch FROM t");
            assertEquals(404, error.status());
            byte[] b = error.body();
            assertEquals((byte) 0x82, b[16], "an LZ4 block after its 16-byte checksum");
            String text = new String(new dev.chdedup.stub.compress.CompressedBlockInputStream(new java.io.ByteArrayInputStream(b))
                .readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(text.startsWith("Code: 47, e.displayText() = DB::Exception: "), text);
        }
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            RawHttp.Response select = RawHttp.post(s.port(), "/", "SELECT 1");
            assertEquals("2", select.header("Content-Length"), select.head());
            assertEquals("TabSeparated", select.header("X-ClickHouse-Format"), select.head());
            RawHttp.Response error = RawHttp.post(s.port(), "/?compress=1", "SELECT nosuch");
            assertTrue(new String(error.body(), StandardCharsets.UTF_8).startsWith("Code: 47. DB::Exception:"), "a current server's error is plain");
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
