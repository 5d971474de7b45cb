package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Lifecycle and connection management of {@link HttpServer} over real loopback sockets: states, keep-alive
 * across many requests (raw socket and {@link HttpClient}), HTTP/1.0 rules, idle timeout, connection limit,
 * closing with clients attached, and a printed single-connection throughput figure.
 */
class HttpServerTest {

    private HttpServer server;

    private static final HttpHandler ECHO = (req, resp) -> {
        byte[] in = req.body().readAllBytes();
        resp.contentType("text/plain");
        resp.body().write((req.method() + " " + req.path() + " " + req.param("i") + " " + in.length)
                .getBytes(StandardCharsets.UTF_8));
    };

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
    }

    private HttpServer start(HttpServer.Builder b) throws IOException {
        server = b.build();
        return server.start();
    }

    @Test
    void movesThroughLatentStartedClosed() throws IOException {
        server = HttpServer.builder().handler(ECHO).build();
        assertEquals(HttpServer.State.LATENT, server.state());
        assertThrows(IllegalStateException.class, server::port);
        server.start();
        assertEquals(HttpServer.State.STARTED, server.state());
        assertTrue(server.port() > 0);
        assertThrows(IllegalStateException.class, server::start);
        server.close();
        assertEquals(HttpServer.State.CLOSED, server.state());
        server.close(); // idempotent
        assertThrows(IllegalStateException.class, server::start);
        HttpServer neverStarted = HttpServer.builder().handler(ECHO).build();
        neverStarted.close();
        assertEquals(HttpServer.State.CLOSED, neverStarted.state());
    }

    @Test
    void servesManySequentialRequestsOnOneKeepAliveSocket() throws IOException {
        start(HttpServer.builder().handler(ECHO));
        try (RawHttp c = new RawHttp(server.port())) {
            for (int i = 0; i < 500; i++) {
                c.send("POST /q?i=" + i + " HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
                RawHttp.Response r = c.read();
                assertEquals(200, r.status);
                assertEquals("POST /q " + i + " 3", r.text());
                if (i == 0) {
                    assertEquals("Keep-Alive", r.header("Connection"));
                    assertEquals("timeout=10", r.header("Keep-Alive"));
                    assertEquals("chunked", r.header("Transfer-Encoding"));
                    assertEquals("text/plain", r.header("Content-Type"));
                    assertTrue(r.header("Date").endsWith(" GMT"), r.header("Date"));
                }
            }
        }
        assertEquals(1, server.acceptedConnections());
    }

    @Test
    void javaHttpClientReusesOneConnection() throws Exception {
        start(HttpServer.builder().handler(ECHO));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 200; i++) {
            java.net.http.HttpResponse<String> r = client.send(java.net.http.HttpRequest
                    .newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/x?i=" + i))
                    .POST(BodyPublishers.ofString("hello")).build(), BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals("POST /x " + i + " 5", r.body());
        }
        assertEquals(1, server.acceptedConnections());
        HttpClient defaultClient = HttpClient.newHttpClient(); // HTTP/2 by default: tries h2c upgrade, gets 1.1
        java.net.http.HttpResponse<String> r = defaultClient.send(java.net.http.HttpRequest
                .newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/up?i=7")).build(), BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertEquals("GET /up 7 0", r.body());
    }

    @Test
    void halfClosedClientStillGetsItsResponse() throws IOException {
        start(HttpServer.builder().handler(ECHO));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /h?i=1 HTTP/1.1\r\nContent-Length: 2\r\n\r\nab");
            c.socket.shutdownOutput();
            assertEquals("POST /h 1 2", c.read().text());
            assertTrue(c.closedByPeer());
        }
        try (RawHttp c = new RawHttp(server.port())) { // half-close inside the body: truncated request
            c.send("POST /h?i=2 HTTP/1.1\r\nContent-Length: 5\r\n\r\nab");
            c.socket.shutdownOutput();
            RawHttp.Response r = c.read();
            assertEquals(400, r.status);
            assertEquals("Malformed or truncated request body\n", r.text());
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void http10ClosesUnlessKeepAliveRequestedAndUsesCloseDelimitedBodies() throws IOException {
        start(HttpServer.builder().handler(ECHO));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /a?i=1 HTTP/1.0\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("close", r.header("Connection"));
            assertNull(r.header("Transfer-Encoding"));
            assertEquals("GET /a 1 0", r.text()); // read to EOF: close-delimited
        }
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /a?i=2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawHttp.Response r = c.read();
            // no length known up front: an HTTP/1.0 peer cannot take chunked, so the server must close
            assertEquals("close", r.header("Connection"));
            assertEquals("GET /a 2 0", r.text());
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void http10KeepAliveWorksWithFixedLengthResponses() throws IOException {
        start(HttpServer.builder().handler((req, resp) -> {
            byte[] b = "ok".getBytes(StandardCharsets.US_ASCII);
            resp.contentLength(b.length).body().write(b);
        }));
        try (RawHttp c = new RawHttp(server.port())) {
            for (int i = 0; i < 3; i++) {
                c.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                RawHttp.Response r = c.read();
                assertEquals("Keep-Alive", r.header("Connection"));
                assertEquals("ok", r.text());
            }
        }
        assertEquals(1, server.acceptedConnections());
    }

    @Test
    void closesIdleKeepAliveConnectionsAfterTheIdleTimeout() throws IOException {
        start(HttpServer.builder().handler(ECHO).idleTimeout(Duration.ofMillis(200)));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            assertEquals("timeout=1", c.read().header("Keep-Alive"));
            assertTrue(c.closedByPeer());
        }
        RawHttp.await(() -> server.openConnections() == 0, Duration.ofSeconds(5), "connection gone");
    }

    @Test
    void answers503BeyondMaxConnections() throws IOException {
        start(HttpServer.builder().handler(ECHO).maxConnections(1));
        try (RawHttp first = new RawHttp(server.port()); RawHttp second = new RawHttp(server.port())) {
            first.send("GET / HTTP/1.1\r\n\r\n");
            assertEquals(200, first.read().status);
            RawHttp.Response r = second.read();
            assertEquals(503, r.status);
            assertEquals("close", r.header("Connection"));
        }
    }

    @Test
    void closeEndsIdleClientConnections() throws IOException {
        start(HttpServer.builder().handler(ECHO));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            assertEquals(200, c.read().status);
            assertEquals(1, server.openConnections());
            long t0 = System.nanoTime();
            server.close();
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "close() returned promptly");
            assertTrue(c.closedByPeer());
            assertEquals(0, server.openConnections());
        }
        assertThrows(IOException.class, () -> new RawHttp(server.port()).send("GET / HTTP/1.1\r\n\r\n").read());
    }

    @Test
    void closeDoesNotHangOnABusyHandler() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        start(HttpServer.builder().closeWait(Duration.ofMillis(300)).handler((req, resp) -> {
            entered.countDown();
            try {
                never.await(); // interrupted by close() after the close wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            resp.body().write(1);
        }));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            long t0 = System.nanoTime();
            server.close();
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "close() returned promptly");
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void headRequestGetsHeadersOnly() throws IOException {
        start(HttpServer.builder().handler((req, resp) -> {
            resp.contentType("text/plain");
            resp.body().write("twelve bytes".getBytes(StandardCharsets.US_ASCII));
        }));
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("HEAD / HTTP/1.1\r\n\r\n");
            RawHttp.Response r = c.read(true);
            assertEquals(200, r.status);
            assertEquals("12", r.header("Content-Length"));
            assertNull(r.header("Transfer-Encoding"));
            c.send("GET / HTTP/1.1\r\n\r\n"); // a stray body byte would corrupt this next response
            assertEquals("twelve bytes", c.read().text());
        }
    }

    @Test
    void printsSequentialKeepAliveThroughput() throws IOException {
        start(HttpServer.builder().handler((req, resp) -> {
            req.body().readAllBytes();
            resp.body().write('1');
            resp.body().write('\n');
        }));
        byte[] request = ("POST /?query=INSERT+INTO+t+FORMAT+TSV HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Length: 6\r\n\r\n1\tabc\n").getBytes(StandardCharsets.US_ASCII);
        try (RawHttp c = new RawHttp(server.port())) {
            for (int i = 0; i < 3000; i++) { // warm-up
                c.send(request);
                assertEquals(200, c.read().status);
            }
            int n = 0;
            long t0 = System.nanoTime();
            long end = t0 + TimeUnit.SECONDS.toNanos(2);
            while (System.nanoTime() < end) {
                c.send(request);
                RawHttp.Response r = c.read();
                assertEquals("1\n", r.text());
                n++;
            }
            double perSecond = n / ((System.nanoTime() - t0) / 1e9);
            System.out.printf("HTTP keep-alive throughput: %.0f sequential request/response pairs per second "
                    + "(%d in 2 s, one socket, tiny POST)%n", perSecond, n);
            assertNotNull(c.socket);
            assertFalse(n == 0);
        }
    }

    @Test
    void anOutOfMemoryErrorInAWorkerClosesTheServerInsteadOfLeavingAZombie() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Throwable> fatal = new java.util.concurrent.atomic.AtomicReference<>();
        start(HttpServer.builder().fatalHandler(fatal::set).handler((req, resp) -> {
            if (req.path().equals("/oom")) {
                throw new OutOfMemoryError("injected");
            }
            ECHO.handle(req, resp);
        }));
        int port = server.port();
        try (RawHttp c = new RawHttp(port)) {
            assertEquals(200, c.send("GET / HTTP/1.1\r\n\r\n").read().status);
        }
        try (RawHttp c = new RawHttp(port)) {
            c.send("GET /oom HTTP/1.1\r\n\r\n");
            assertTrue(c.closedByPeer(), "the connection of the failed request is closed");
        }
        RawHttp.await(() -> server.state() == HttpServer.State.CLOSED, Duration.ofSeconds(10), "server closed");
        assertTrue(fatal.get() instanceof OutOfMemoryError, String.valueOf(fatal.get()));
        assertThrows(IOException.class, () -> new RawHttp(port).send("GET / HTTP/1.1\r\n\r\n").read(),
            "nothing accepts connections that would never be answered");
    }
}
