package dev.chdedup.stub.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * system.query_log records a query's client as ClickHouse's HTTP handler does: interface 2, the HTTP method's code
 * (GET 1, POST 2), the User-Agent, Referer and X-Forwarded-For headers, no client name (HTTP has none), the current
 * database, and log_comment from the URL, SET or the query's own SETTINGS clause, which the Settings map lists too.
 */
class QueryLogClientTest {
    private static StubServer server;
    private static ConformanceClient client;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws IOException {
        server = StubServer.builder().port(0).build().start();
        client = new ConformanceClient(server.httpUrl());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    private static String send(String method, String url, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static String logged(String comment) {
        client.query("SYSTEM FLUSH LOGS");
        return client.query("SELECT type, query, interface, http_method, http_user_agent, http_referer, forwarded_for, client_name, "
            + "client_version_major, current_database, log_comment, `Settings`['log_comment'] FROM system.query_log "
            + "WHERE log_comment = '" + comment + "' ORDER BY event_time_microseconds, type");
    }

    @Test
    void aPostCarriesItsHeadersAndTheUrlsLogComment() throws Exception {
        send("POST", server.httpUrl() + "/?log_comment=from-url", "SELECT 1", "User-Agent", "stub-test/1.0 (tests)",
            "Referer", "http://example.test/page", "X-Forwarded-For", "10.0.0.1");
        String row = "SELECT 1\t2\t2\tstub-test/1.0 (tests)\thttp://example.test/page\t10.0.0.1\t\t0\tdefault\tfrom-url\tfrom-url\n";
        assertEquals("QueryStart\t" + row + "QueryFinish\t" + row, logged("from-url"));
    }

    @Test
    void aGetAndASettingsClause() throws Exception {
        send("GET", server.httpUrl() + "/?query=" + URLEncoder.encode("SELECT 2 SETTINGS log_comment = 'in-query'", StandardCharsets.UTF_8)
            + "&database=system", null, "User-Agent", "getter/2");
        String row = "SELECT 2 SETTINGS log_comment = \\'in-query\\'\t2\t1\tgetter/2\t\t\t\t0\tsystem\tin-query\tin-query\n";
        assertEquals("QueryStart\t" + row + "QueryFinish\t" + row, logged("in-query"));
    }

    @Test
    void aSessionsSetLogComment() throws Exception {
        String session = server.httpUrl() + "/?session_id=query-log-client-test";
        send("POST", session, "SET log_comment = 'from-set'", "User-Agent", "setter/3");
        send("POST", session, "SELECT 3", "User-Agent", "setter/3");
        String row = "SELECT 3\t2\t2\tsetter/3\t\t\t\t0\tdefault\tfrom-set\tfrom-set\n";
        assertEquals("QueryStart\t" + row + "QueryFinish\t" + row, logged("from-set"));
    }

    @Test
    void aFailedQueryKeepsItsClient() throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(server.httpUrl() + "/?log_comment=failing"))
            .header("User-Agent", "failer/4").POST(HttpRequest.BodyPublishers.ofString("SELECT throwIf(1)")).build();
        assertEquals(500, HTTP.send(r, HttpResponse.BodyHandlers.ofString()).statusCode(), "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO");
        client.query("SYSTEM FLUSH LOGS");
        assertEquals("ExceptionWhileProcessing\tfailer/4\t395\n", client.query("SELECT type, http_user_agent, exception_code "
            + "FROM system.query_log WHERE log_comment = 'failing' AND type != 'QueryStart'"));
    }
}
