package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request body framing and decoding over real sockets: Content-Length and chunked bodies (extensions, trailers,
 * 5 MB), gzip/deflate Content-Encoding, unsupported encodings, {@code Expect: 100-continue}, and draining of
 * bodies the handler leaves unread so the keep-alive connection keeps working.
 */
class HttpRequestBodyTest {

    private HttpServer server;

    @BeforeEach
    void setUp() throws IOException {
        server = HttpServer.builder().handler((req, resp) -> {
            if (req.path().equals("/ignore")) {
                resp.body().write(("ignored " + req.param("i")).getBytes(StandardCharsets.UTF_8));
                return;
            }
            byte[] body = req.body().readAllBytes();
            CRC32 crc = new CRC32();
            crc.update(body);
            String trailer = req.trailers().get("X-Checksum");
            String text = body.length < 100 ? new String(body, StandardCharsets.UTF_8) : "";
            resp.body().write((body.length + " " + Long.toHexString(crc.getValue()) + " " + text
                    + (trailer == null ? "" : " trailer=" + trailer)).getBytes(StandardCharsets.UTF_8));
        }).build().start();
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private static String expected(byte[] body) {
        CRC32 crc = new CRC32();
        crc.update(body);
        return body.length + " " + Long.toHexString(crc.getValue()) + " ";
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    @Test
    void readsContentLengthBodies() throws IOException {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world");
            assertEquals("11 d4a1185 hello world", c.read().text());
            byte[] big = random(5 * 1024 * 1024);
            c.send("POST / HTTP/1.1\r\nContent-Length: " + big.length + "\r\n\r\n").send(big);
            assertEquals(expected(big), c.read().text());
        }
    }

    @Test
    void readsChunkedBodiesWithExtensionsAndTrailers() throws IOException {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;name=value\r\nhello\r\n6 ; quoted=\"a;b\"\r\n world\r\n0;last\r\nX-Checksum: abc\r\n\r\n");
            assertEquals("11 d4a1185 hello world trailer=abc", c.read().text());
            c.send("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
            assertEquals("0 0 ", c.read().text());
        }
    }

    @Test
    void readsA5MegabyteChunkedBodyWithVaryingChunkSizes() throws IOException {
        byte[] big = random(5 * 1024 * 1024);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        Random sizes = new Random(7);
        for (int off = 0; off < big.length; ) {
            int n = Math.min(big.length - off, 1 + sizes.nextInt(100_000));
            wire.writeBytes((Integer.toHexString(n).toUpperCase() + (off % 3 == 0 ? ";ext=1" : "") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            wire.write(big, off, n);
            wire.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            off += n;
        }
        wire.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(wire.toByteArray());
            assertEquals(expected(big), c.read().text());
            c.send("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nok");
            assertEquals("2 79dcdd47 ok", c.read().text());
        }
    }

    @Test
    void decodesGzipAndDeflateContentEncodings() throws IOException {
        byte[] plain = "INSERT INTO t VALUES (1, 'x')".repeat(1000).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(gz)) {
            g.write(plain);
        }
        ByteArrayOutputStream zlib = new ByteArrayOutputStream();
        try (DeflaterOutputStream d = new DeflaterOutputStream(zlib)) {
            d.write(plain);
        }
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        try (DeflaterOutputStream d = new DeflaterOutputStream(raw, new Deflater(6, true))) {
            d.write(plain);
        }
        try (RawHttp c = new RawHttp(server.port())) {
            String[][] cases = {{"gzip", "g"}, {"x-gzip", "g"}, {"GZIP", "g"}, {"deflate", "z"}, {"deflate", "r"}};
            for (String[] cs : cases) {
                byte[] b = cs[1].equals("g") ? gz.toByteArray() : cs[1].equals("z") ? zlib.toByteArray() : raw.toByteArray();
                c.send("POST / HTTP/1.1\r\nContent-Encoding: " + cs[0] + "\r\nContent-Length: " + b.length + "\r\n\r\n")
                        .send(b);
                assertEquals(expected(plain), c.read().text(), cs[0] + "/" + cs[1]);
            }
            byte[] g = gz.toByteArray(); // gzip inside chunked framing
            c.send("POST / HTTP/1.1\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(g.length) + "\r\n").send(g).send("\r\n0\r\n\r\n");
            assertEquals(expected(plain), c.read().text());
        }
    }

    @Test
    void rejectsUnsupportedContentEncodingWith415AndKeepsTheConnection() throws IOException {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST / HTTP/1.1\r\nContent-Encoding: br\r\nContent-Length: 4\r\n\r\nabcd");
            RawHttp.Response r = c.read();
            assertEquals(415, r.status);
            assertEquals("Unsupported Content-Encoding: br\n", r.text());
            assertEquals("Keep-Alive", r.header("Connection"));
            c.send("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nok");
            assertEquals("2 79dcdd47 ok", c.read().text());
        }
    }

    @Test
    void handlerCanMapUnsupportedContentEncoding() throws IOException {
        server.close();
        server = HttpServer.builder().handler((req, resp) -> {
            try {
                req.body();
            } catch (UnsupportedContentEncodingException e) {
                resp.status(400).body().write(("Code: 1. " + e.encoding()).getBytes(StandardCharsets.UTF_8));
            }
        }).build().start();
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST / HTTP/1.1\r\nContent-Encoding: xz\r\nContent-Length: 1\r\n\r\nx");
            RawHttp.Response r = c.read();
            assertEquals(400, r.status);
            assertEquals("Code: 1. xz", r.text());
        }
    }

    @Test
    void sends100ContinueBeforeReadingTheBody() throws IOException {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            RawHttp.Response interim = c.read();
            assertEquals(100, interim.status);
            c.send("hello");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status);
            assertEquals("5 3610a686 hello", r.text());
            assertEquals("Keep-Alive", r.header("Connection"));
        }
    }

    @Test
    void javaHttpClientExpectContinue() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest
                .newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/")).expectContinue(true)
                .POST(BodyPublishers.ofString("hello")).build(), BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("5 3610a686 hello", r.body());
    }

    @Test
    void doesNotSolicitABodyTheHandlerDoesNotRead() throws IOException {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /ignore?i=1 HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status); // final answer directly, no 100 Continue
            assertEquals("ignored 1", r.text());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void drainsUnreadBodiesSoKeepAliveContinues() throws IOException {
        byte[] big = random(300_000);
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /ignore?i=1 HTTP/1.1\r\nContent-Length: " + big.length + "\r\n\r\n").send(big);
            assertEquals("ignored 1", c.read().text());
            c.send("POST /ignore?i=2 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + Integer.toHexString(big.length) + "\r\n").send(big).send("\r\n0\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("ignored 2", r.text());
            assertEquals("Keep-Alive", r.header("Connection"));
            c.send("POST /?i=3 HTTP/1.1\r\nContent-Length: 2\r\n\r\nok");
            assertEquals("2 79dcdd47 ok", c.read().text());
        }
        assertEquals(1, server.acceptedConnections());
    }

    @Test
    void exposesDecodedQueryParametersHeadersAndPeer() throws IOException {
        server.close();
        server = HttpServer.builder().handler((req, resp) -> {
            String s = req.path() + "|" + req.params() + "|" + req.params("role") + "|" + req.param("missing")
                    + "|" + req.header("x-custom") + "|" + req.headers("X-MULTI") + "|"
                    + req.remoteAddress().getAddress().isLoopbackAddress() + "|" + req.rawQuery();
            resp.body().write(s.getBytes(StandardCharsets.UTF_8));
        }).build().start();
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /some%20path?a=1&query=SELECT+1%2B1&role=r1&a=2&role=r2&u=%E2%82%AC&flag&&e= HTTP/1.1\r\n"
                    + "X-Custom: v\r\nx-multi: 1\r\nX-Multi: 2\r\n\r\n");
            assertEquals("/some%20path|{a=2, query=SELECT 1+1, role=r2, u=\u20ac, flag=, e=}|[r1, r2]|null|v|[1, 2]|true|"
                    + "a=1&query=SELECT+1%2B1&role=r1&a=2&role=r2&u=%E2%82%AC&flag&&e=", c.read().text());
        }
    }
}
