package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A malformed chunked request body is the client's fault: whatever the input format, the answer is a clean
 * ClickHouse error with a 400 status (BAD_REQUEST_PARAMETER, as ClickHouse's HTTPChunkedReadBuffer answers),
 * without Java class names, and nothing is written.
 */
class HttpInterfaceTest {

    private static String exchange(StubServer s, String query, String chunkedBody) throws Exception {
        try (Socket sock = new Socket("127.0.0.1", s.port())) {
            sock.setSoTimeout(10_000);
            sock.getOutputStream().write(("POST /?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + " HTTP/1.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedBody).getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = sock.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void malformedChunkedBodiesAreA400ClickHouseErrorAndWriteNothing() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertTrue(exchange(s, "CREATE TABLE c (k Int32, v String) ENGINE = MergeTree ORDER BY k", "0\r\n\r\n").startsWith("HTTP/1.1 200"));
            String[][] cases = {
                {"INSERT INTO c VALUES", "6\r\n(1,'a'\r\nzz\r\n)\r\n0\r\n\r\n"},
                {"INSERT INTO c VALUES", "6\r\n(1,'a'\r\n1\r\n)XX\r\n0\r\n\r\n"},
                {"INSERT INTO c FORMAT TSV", "4\r\n1\ta\n\r\n-3\r\nabc\r\n0\r\n\r\n"},
                {"INSERT INTO c FORMAT CSV", "4\r\n1,a\n\r\nfffffffffffffffffffff\r\n"},
                {"INSERT INTO c FORMAT JSONEachRow", "8\r\n{\"k\":1}\r\nq\r\n"},
            };
            for (String[] c : cases) {
                String r = exchange(s, c[0], c[1]);
                assertTrue(r.startsWith("HTTP/1.1 400"), c[0] + " " + c[1] + " -> " + r);
                assertTrue(r.contains("X-ClickHouse-Exception-Code: 408"), r);
                assertTrue(r.contains("(BAD_REQUEST_PARAMETER)"), r);
                String body = r.substring(r.indexOf("\r\n\r\n") + 4);
                assertFalse(body.contains("java.") || body.contains("dev.chdedup") || body.replace("DB::Exception", "").contains("Exception"), r);
            }
            java.net.http.HttpResponse<String> count = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(s.httpUrl() + "/?query=SELECT+count()+FROM+c")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals("0\n", count.body(), "nothing of the refused inserts was written");
        }
    }
}
