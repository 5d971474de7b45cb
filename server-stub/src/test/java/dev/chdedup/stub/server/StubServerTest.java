package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * The embedded server: its users (without any configured, {@code default} is open; configuring one closes
 * {@code default}) and per-query send timeouts.
 */
class StubServerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> query(StubServer s, String user, String password, String sql) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql));
        if (user != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** No credentials at all: the client is asked for them, as ClickHouse does since 24.12. */
    private static void assertAskedForPassword(HttpResponse<String> r) {
        assertEquals(401, r.statusCode(), r.body());
        assertEquals("194", r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""), r.body());
        assertTrue(r.body().contains("default: Authentication failed") && r.body().contains("(REQUIRED_PASSWORD)"), r.body());
        assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic realm="), r.headers().map().toString());
    }

    private static void assertRefused(HttpResponse<String> r) {
        assertEquals(403, r.statusCode(), r.body());
        assertEquals("516", r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""), r.body());
        assertTrue(r.body().contains("(AUTHENTICATION_FAILED)"), r.body());
    }

    @Test
    void withoutUsersDefaultIsOpen() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals("1\n", query(s, null, null, "SELECT 1").body());
            assertEquals("1\n", query(s, "default", "", "SELECT 1").body());
        }
    }

    @Test
    void configuringAUserClosesDefault() throws Exception {
        try (StubServer s = StubServer.builder().port(0).user("alice", "pw").build().start()) {
            assertAskedForPassword(query(s, null, null, "CREATE TABLE t (k Int32) ENGINE = MergeTree ORDER BY k"));
            assertRefused(query(s, "default", "", "SELECT 1"));
            assertRefused(query(s, "alice", "wrong", "SELECT 1"));
            HttpResponse<String> ok = query(s, "alice", "pw", "SHOW TABLES");
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals("", ok.body(), "the refused CREATE wrote nothing");
        }
    }

    @Test
    void defaultConfiguredTooStaysWithItsPassword() throws Exception {
        try (StubServer s = StubServer.builder().port(0).user("alice", "pw").user("default", "secret").build().start()) {
            assertAskedForPassword(query(s, null, null, "SELECT 1"));
            assertRefused(query(s, "default", "wrong", "SELECT 1"));
            assertEquals("1\n", query(s, "default", "secret", "SELECT 1").body());
            assertEquals("1\n", query(s, "alice", "pw", "SELECT 1").body());
        }
    }

    @Test
    void aKeyHeaderHasItsEncodedWordsDecodedBeforeItIsChecked() throws Exception {
        // ClickHouse decodes RFC 2047 words in every header (Poco's decodeWord): "S3Cr=?t" arrives as "S3Crt" and is
        // refused, as the official client-v2 suite expects of the server (HttpTransportTests.testPasswordAuthentication)
        try (StubServer s = StubServer.builder().port(0).user("default", "").build().start()) {
            for (String pw : new String[] {"S3Cr=?t", "S3Crt", "S3Cr?=t"}) {
                String user = "u_" + pw.length() + (pw.indexOf('=') < 0 ? "n" : pw.indexOf('=') < pw.indexOf('?') ? "a" : "b");
                assertEquals("", query(s, "default", "", "CREATE USER " + user + " IDENTIFIED BY '" + pw + "'").body());
                assertEquals(user + "\n", query(s, user, pw, "SELECT currentUser()").body(), "Basic authorization carries " + pw);
            }
            assertRefused(withKeyHeader(s, "u_7a", "S3Cr=?t"));
            assertEquals("u_5n\n", withKeyHeader(s, "u_5n", "S3Cr=?t").body());
            assertEquals("u_7b\n", withKeyHeader(s, "u_7b", "S3Cr?=t").body());
            assertEquals("u_5n\n", withKeyHeader(s, "u_5n", "=?UTF-8?B?UzNDcnQ=?=").body());
        }
    }

    @Test
    void anUnknownPathIsAnsweredWithTheWholeUri() throws Exception {
        // NotFoundHandler writes request.getURI(), the path with its query string (client-v2's suite looks for it)
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/some-path?database=d&a=1")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(404, r.statusCode(), r.body());
            assertTrue(r.body().startsWith("There is no handle /some-path?database=d&a=1\n\n"), r.body());
        }
    }

    private static HttpResponse<String> withKeyHeader(StubServer s, String user, String key) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).header("X-ClickHouse-User", user)
            .header("X-ClickHouse-Key", key).POST(HttpRequest.BodyPublishers.ofString("SELECT currentUser()")).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void httpSendTimeoutAsAQuerySettingDropsAClientThatStopsReading() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            try (java.net.Socket stalled = new java.net.Socket()) {
                stalled.setReceiveBufferSize(4096);
                stalled.connect(new java.net.InetSocketAddress("127.0.0.1", s.port()));
                String q = java.net.URLEncoder.encode("SELECT number FROM system.numbers LIMIT 1000000000", StandardCharsets.UTF_8);
                stalled.getOutputStream().write(("GET /?query_id=stalled&http_send_timeout=0.5&query=" + q + " HTTP/1.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
                boolean seen = false;
                while (true) {
                    String n = query(s, null, null, "SELECT count() FROM system.processes WHERE query_id = 'stalled'").body().trim();
                    seen |= n.equals("1");
                    if (seen && n.equals("0")) {
                        break; // never read a byte, yet the query ended well before the server's 30 s send timeout
                    }
                    assertTrue(System.nanoTime() < deadline, "the stalled query still runs (seen running: " + seen + ")");
                    Thread.onSpinWait();
                }
            }
            assertEquals("1\n", query(s, null, null, "SELECT 1").body());
        }
    }
}
