package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The response side over real sockets: chunked versus fixed-length versus empty bodies, handler-set headers,
 * {@code committed()}, short fixed-length bodies, and {@link HttpResponse#abort()} resetting the connection
 * without sending anything.
 */
class HttpResponseTest {

    private HttpServer server;

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
    }

    private void start(HttpHandler handler) throws IOException {
        server = HttpServer.builder().handler(handler).build().start();
    }

    @Test
    void streamsLargeBodiesChunkedAndCommitsOnFirstWrite() throws Exception {
        byte[] big = new byte[1_000_000];
        new Random(1).nextBytes(big);
        AtomicReference<String> commitStates = new AtomicReference<>();
        start((req, resp) -> {
            boolean before = resp.committed();
            resp.status(201).contentType("application/octet-stream").header("X-ClickHouse-Query-Id", "q1");
            for (int off = 0; off < big.length; off += 1000) {
                resp.body().write(big, off, 1000);
            }
            String late;
            try {
                resp.header("X-Late", "1");
                late = "accepted";
            } catch (IllegalStateException e) {
                late = "rejected";
            }
            commitStates.set(before + "/" + resp.committed() + "/" + late);
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(201, r.status);
            assertEquals("chunked", r.header("Transfer-Encoding"));
            assertNull(r.header("Content-Length"));
            assertEquals("q1", r.header("X-ClickHouse-Query-Id"));
            assertArrayEquals(big, r.body);
            assertTrue(r.chunks >= 4 && r.chunks < 200, "chunks: " + r.chunks);
        }
        assertEquals("false/true/rejected", commitStates.get());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        byte[] viaClient = client.send(java.net.http.HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/")).build(), BodyHandlers.ofByteArray()).body();
        assertArrayEquals(big, viaClient);
    }

    @Test
    void fixedLengthEmptyAndRepeatedHeaders() throws IOException {
        start((req, resp) -> {
            resp.header("Set-Cookie", "a=1").header("Set-Cookie", "b=2");
            if (req.path().equals("/fixed")) {
                resp.contentLength(5).body().write("12345".getBytes(StandardCharsets.US_ASCII));
            } else if (req.path().equals("/header-length")) {
                resp.header("Content-Length", "2").body().write("ab".getBytes(StandardCharsets.US_ASCII));
            }
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /fixed HTTP/1.1\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("5", r.header("Content-Length"));
            assertNull(r.header("Transfer-Encoding"));
            assertEquals("12345", r.text());
            assertEquals(List.of("a=1", "b=2"), r.headers("Set-Cookie"));
            assertNull(r.header("Content-Type"));
            c.send("GET /empty HTTP/1.1\r\n\r\n");
            r = c.read();
            assertEquals("0", r.header("Content-Length"));
            assertNull(r.header("Transfer-Encoding"));
            c.send("GET /header-length HTTP/1.1\r\n\r\n");
            assertEquals("ab", c.read().text());
        }
    }

    @Test
    void shortFixedLengthBodyClosesTheConnection() throws IOException {
        start((req, resp) -> resp.contentLength(10).body().write("abc".getBytes(StandardCharsets.US_ASCII)));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            assertThrows(java.io.EOFException.class, c::read);
        }
    }

    @Test
    void handlerCanRequestConnectionClose() throws IOException {
        start((req, resp) -> resp.closeConnection().body().write('x'));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("close", r.header("Connection"));
            assertEquals("x", r.text());
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void rejectsHeaderInjection() throws Exception {
        AtomicBoolean rejected = new AtomicBoolean();
        start((req, resp) -> {
            try {
                resp.header("X-A", "1\r\nX-Injected: 2");
            } catch (IllegalArgumentException e) {
                rejected.set(true);
            }
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            assertNull(c.read().header("X-Injected"));
        }
        assertTrue(rejected.get());
    }

    @Test
    void abortAfterReadingTheBodyResetsTheConnectionWithoutAResponse() throws Exception {
        CountDownLatch bodySeen = new CountDownLatch(1);
        CountDownLatch handlerDone = new CountDownLatch(1);
        AtomicReference<String> afterAbort = new AtomicReference<>();
        start((req, resp) -> {
            req.body().readAllBytes();
            bodySeen.countDown(); // "the insert is committed"
            resp.status(200).header("X-Before-Abort", "1");
            resp.abort();
            try {
                resp.body().write(1);
                afterAbort.set("write accepted");
            } catch (IOException e) {
                afterAbort.set("aborted=" + resp.aborted());
            }
            handlerDone.countDown();
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n1\t2\n");
            assertTrue(bodySeen.await(10, TimeUnit.SECONDS));
            InputStream in = c.in;
            int first;
            try {
                first = in.read();
            } catch (SocketException e) {
                first = -2; // reset: the expected outcome
            }
            assertTrue(first == -1 || first == -2, "no response bytes expected, got " + first);
        }
        assertTrue(handlerDone.await(10, TimeUnit.SECONDS));
        assertEquals("aborted=true", afterAbort.get());
        RawHttp.await(() -> server.openConnections() == 0, java.time.Duration.ofSeconds(5), "aborted connection gone");
    }

    @Test
    void abortMidBodyCutsTheResponse() throws Exception {
        start((req, resp) -> {
            resp.body().write("partial".getBytes(StandardCharsets.US_ASCII));
            resp.body().flush();
            resp.abort();
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            IOException e = assertThrows(IOException.class, c::read);
            assertFalse(e.getMessage() != null && e.getMessage().contains("bad status line"), e.toString());
        }
    }

    @Test
    void httpClientSeesAbortAsAnIOException() throws IOException {
        start((req, resp) -> resp.abort());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertThrows(IOException.class, () -> client.send(java.net.http.HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/")).build(), BodyHandlers.ofString()));
    }
}
