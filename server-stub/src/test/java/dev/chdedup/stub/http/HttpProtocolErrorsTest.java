package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the server answers broken or hostile input and failing handlers: request-line and header limits
 * (414/431), malformed request lines, chunk sizes and Content-Length (400), unsupported versions and transfer
 * codings, handler exceptions (500 plain text, never a stack trace) and pipelined requests answered in order.
 */
class HttpProtocolErrorsTest {

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

    private void startEcho() throws IOException {
        start((req, resp) -> {
            byte[] b = req.body().readAllBytes();
            resp.body().write((req.path() + ":" + new String(b, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        });
    }

    /** Sends {@code request}, expects a plain-text error with {@code status} and a closed connection. */
    private RawHttp.Response expectErrorAndClose(String request, int status) throws IOException {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(request);
            RawHttp.Response r = c.read();
            assertEquals(status, r.status, r.toString());
            assertEquals("close", r.header("Connection"));
            assertEquals("text/plain; charset=UTF-8", r.header("Content-Type"));
            assertTrue(c.closedByPeer());
            return r;
        }
    }

    @Test
    void acceptsLongQueryStringsUpToTheLimit() throws IOException {
        start((req, resp) -> resp.body().write(String.valueOf(req.param("query").length()).getBytes(StandardCharsets.UTF_8)));
        String q = "x".repeat(60_000);
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /?query=" + q + " HTTP/1.1\r\n\r\n");
            assertEquals("60000", c.read().text());
        }
    }

    @Test
    void oversizeRequestLineIs414() throws IOException {
        startEcho();
        String target = "/?query=" + "x".repeat(HttpLimits.MAX_REQUEST_LINE + 10);
        RawHttp.Response r = expectErrorAndClose("GET " + target + " HTTP/1.1\r\n\r\n", 414);
        assertEquals("Request line is too long\n", r.text());
    }

    @Test
    void oversizeHeaderLineAndTooManyHeadersAre431() throws IOException {
        startEcho();
        expectErrorAndClose("GET / HTTP/1.1\r\nX-Big: " + "y".repeat(HttpLimits.MAX_HEADER_LINE) + "\r\n\r\n", 431);
        StringBuilder many = new StringBuilder("GET / HTTP/1.1\r\n");
        for (int i = 0; i <= HttpLimits.MAX_HEADERS; i++) {
            many.append("X-H").append(i).append(": v\r\n");
        }
        expectErrorAndClose(many.append("\r\n").toString(), 431);
    }

    @Test
    void malformedRequestLinesAre400() throws IOException {
        startEcho();
        expectErrorAndClose("GARBAGE\r\n\r\n", 400);
        expectErrorAndClose("GET /a b HTTP/1.1\r\n\r\n", 400);
        expectErrorAndClose("GET / FTP/1.0\r\n\r\n", 400);
        expectErrorAndClose("G(T / HTTP/1.1\r\n\r\n", 400);
        expectErrorAndClose("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400);
        expectErrorAndClose("GET / HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n", 400);
        expectErrorAndClose("GET /?a=%zz HTTP/1.1\r\n\r\n", 400);
        expectErrorAndClose("GET / HTTP/2.0\r\n\r\n", 505);
    }

    @Test
    void badContentLengthOrFramingIs400() throws IOException {
        startEcho();
        expectErrorAndClose("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400);
        expectErrorAndClose("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400);
        expectErrorAndClose("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400);
        expectErrorAndClose("POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400);
        expectErrorAndClose("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501);
    }

    @Test
    void malformedChunkIs400() throws IOException {
        startEcho();
        RawHttp.Response r = expectErrorAndClose(
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400);
        assertEquals("Malformed chunked body: bad chunk size\n", r.text());
        expectErrorAndClose("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXX\r\n0\r\n\r\n", 400);
        expectErrorAndClose("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "1".repeat(HttpLimits.MAX_CHUNK_SIZE_DIGITS + 1) + "\r\n", 400);
    }

    @Test
    void handlerExceptionIs500PlainTextAndKeepsTheConnection() throws IOException {
        start((req, resp) -> {
            if (req.path().equals("/boom")) {
                resp.header("X-Lost", "1");
                throw new IllegalStateException("secret internal detail");
            }
            resp.body().write("fine".getBytes(StandardCharsets.UTF_8));
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /boom HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
            RawHttp.Response r = c.read();
            assertEquals(500, r.status);
            assertEquals("text/plain; charset=UTF-8", r.header("Content-Type"));
            assertEquals(null, r.header("X-Lost"));
            assertFalse(r.text().contains("secret") || r.text().contains("Exception") || r.text().contains("\tat "),
                    r.text());
            c.send("GET /ok HTTP/1.1\r\n\r\n");
            assertEquals("fine", c.read().text());
        }
    }

    @Test
    void handlerExceptionAfterCommitClosesTheConnection() throws IOException {
        start((req, resp) -> {
            resp.body().write("partial".getBytes(StandardCharsets.UTF_8));
            resp.body().flush();
            throw new IOException("failed mid-stream");
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET / HTTP/1.1\r\n\r\n");
            IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, c::read);
            assertTrue(e instanceof java.io.EOFException || e instanceof java.net.SocketException, e.toString());
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws IOException {
        startEcho();
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /one HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
                    + "POST /two HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n0\r\n\r\n"
                    + "GET /three HTTP/1.1\r\n\r\n");
            assertEquals("/one:abc", c.read().text());
            assertEquals("/two:de", c.read().text());
            assertEquals("/three:", c.read().text());
            c.send("\r\nGET /four HTTP/1.1\r\nConnection: close\r\n\r\n"); // a stray CRLF before a request is tolerated
            RawHttp.Response r = c.read();
            assertEquals("/four:", r.text());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByPeer());
        }
    }

    @Test
    void clientResetMidRequestDoesNotDisturbTheServer() throws IOException {
        startEcho();
        RawHttp c = new RawHttp(server.port());
        c.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\npartial");
        c.socket.setSoLinger(true, 0);
        c.close(); // RST while the server waits for the rest of the body
        RawHttp.await(() -> server.openConnections() == 0, java.time.Duration.ofSeconds(5), "connection cleanup");
        try (RawHttp d = new RawHttp(server.port())) {
            d.send("GET /after HTTP/1.1\r\n\r\n");
            assertEquals("/after:", d.read().text());
        }
    }

    @Test
    void checkingThePeerKeepsAPipelinedRequestAndSeesAClosedOne() throws Exception {
        java.util.concurrent.LinkedBlockingQueue<Boolean> seen = new java.util.concurrent.LinkedBlockingQueue<>();
        start((req, resp) -> {
            req.body().readAllBytes();
            if (req.path().equals("/check")) {
                // ask twice, as a query does between blocks: the second read must not lose what the first buffered
                boolean connected = req.checkPeerConnected() && req.checkPeerConnected();
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (connected && req.rawQuery() != null && System.nanoTime() < deadline) {
                    java.util.concurrent.locks.LockSupport.parkNanos(10_000_000); // ?wait: until the client has gone
                    connected = req.checkPeerConnected();
                }
                seen.add(connected);
            }
            resp.body().write(req.path().getBytes(StandardCharsets.UTF_8));
        });
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /check HTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n");
            assertEquals("/check", c.read().text());
            assertEquals("/next", c.read().text());
            assertEquals(true, seen.poll(5, java.util.concurrent.TimeUnit.SECONDS));
        }
        RawHttp gone = new RawHttp(server.port());
        gone.send("GET /check?wait HTTP/1.1\r\n\r\n");
        Thread.sleep(100);
        gone.close();
        assertEquals(false, seen.poll(5, java.util.concurrent.TimeUnit.SECONDS));
    }
}
