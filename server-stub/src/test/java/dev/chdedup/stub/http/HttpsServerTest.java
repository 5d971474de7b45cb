package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP server on an HTTPS port: requests, keep-alive and pipelining, large bodies both ways over TLS, close_notify
 * at the end of a connection, and hostile clients, each of which fails alone while the server keeps serving: plain
 * HTTP, garbage, a ClientHello cut short, a client gone after its ClientHello, a silent one (closed at the receive
 * timeout, holding no worker meanwhile), a client that does not trust the certificate.
 */
class HttpsServerTest {
    @TempDir
    static Path dir;
    private static TlsContext tls;
    private HttpServer server;
    private final List<Socket> sockets = new ArrayList<>();

    /** Echoes the request body, or answers "ok"; {@code /block} waits for {@link #RELEASE}. */
    private static final CountDownLatch BLOCKING = new CountDownLatch(1);
    private static final CountDownLatch RELEASE = new CountDownLatch(1);
    private static final HttpHandler ECHO = (req, resp) -> {
        if (req.path().equals("/block")) {
            BLOCKING.countDown();
            try {
                RELEASE.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
        }
        byte[] body = req.body().readAllBytes();
        byte[] answer = body.length == 0 ? "ok".getBytes(StandardCharsets.US_ASCII) : body;
        resp.contentLength(answer.length).body().write(answer);
    };

    @BeforeAll
    static void certificate() throws IOException {
        tls = TlsContext.selfSigned().load(dir.resolve("ssl"), "127.0.0.1");
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private HttpServer start(HttpServer.Builder b) throws IOException {
        server = b.handler(ECHO).tls(tls.sslContext()).build().start();
        return server;
    }

    private URI uri(String path) {
        return URI.create("https://127.0.0.1:" + server.port() + path);
    }

    private String get(HttpClient client) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/")).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        sockets.add(s);
        return s;
    }

    @Test
    void servesOverTlsAndKeepsTheConnectionAlive() throws Exception {
        start(HttpServer.builder());
        HttpClient client = TlsClients.httpClient(tls.certificate());
        for (int i = 0; i < 5; i++) {
            assertEquals("ok", get(client));
        }
        assertEquals(1, server.acceptedConnections(), "five requests on one TLS connection, back and forth through the head waiter");
    }

    @Test
    void pipelinedRequestsAreAllAnswered() throws Exception {
        start(HttpServer.builder());
        try (RawHttp raw = new RawHttp(TlsClients.socket(server.port(), tls.certificate()))) {
            raw.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nonePOST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\ntwo"
                + "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("one", raw.read().text());
            assertEquals("two", raw.read().text());
            assertEquals("ok", raw.read().text());
            raw.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nthree");
            assertEquals("three", raw.read().text(), "the connection went back to the waiter and served on");
        }
    }

    @Test
    void aRequestInARecordOfItsOwnAfterALargeBodyIsServedAtOnce() throws Exception {
        start(HttpServer.builder());
        String big = "x".repeat(70_000); // more than the waiter gathers: the worker reads the rest, and the record after it
        long t0 = System.nanoTime();
        TlsClients.Received r;
        try (TlsClients.EngineClient c = new TlsClients.EngineClient(server.port(), tls.certificate())) {
            r = c.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + big.length() + "\r\n\r\n" + big,
                "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").readUntilClose();
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(r.text().contains("\r\n\r\n" + big + "HTTP/1.1 200 OK\r\n"), "the body echoed, then the second answer");
        assertTrue(r.text().endsWith("\r\n\r\nok"), "the GET answered");
        assertTrue(ms < 3000, "served at once, not at the idle timeout: " + ms + " ms");
    }

    @Test
    void largeBodiesCrossManyRecordsBothWays() throws Exception {
        start(HttpServer.builder());
        byte[] body = new byte[5 * 1024 * 1024 + 17];
        new Random(7).nextBytes(body);
        HttpClient client = TlsClients.httpClient(tls.certificate());
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri("/")).timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(body), MessageDigest.getInstance("SHA-256").digest(r.body()));
    }

    @Test
    void aClosedConnectionEndsWithCloseNotify() throws Exception {
        start(HttpServer.builder());
        TlsClients.Received r = TlsClients.exchangeUntilClose(server.port(), tls.certificate(),
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(r.text().startsWith("HTTP/1.1 200 "), r.text());
        assertTrue(r.text().endsWith("\r\n\r\nok"), r.text());
        assertTrue(r.closed(), "close_notify after the response");
    }

    @Test
    void plainHttpAndGarbageToTheHttpsPortAreClosedWithoutAnAnswer() throws Exception {
        start(HttpServer.builder());
        Socket plain = connect();
        plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        TlsClients.Received r = TlsClients.readUntilClosed(plain, Duration.ofSeconds(5));
        assertTrue(r.closed(), "a plain HTTP request is not left hanging");
        assertEquals("", r.text(), "nothing is sent back to a client that speaks no TLS, as OpenSSL does");
        Socket garbage = connect();
        byte[] noise = new byte[4096];
        new Random(1).nextBytes(noise);
        garbage.getOutputStream().write(noise);
        assertTrue(TlsClients.readUntilClosed(garbage, Duration.ofSeconds(5)).closed(), "garbage is closed");
        assertEquals("ok", get(TlsClients.httpClient(tls.certificate())));
    }

    @Test
    void handshakesCutShortFailAlone() throws Exception {
        start(HttpServer.builder().readTimeout(Duration.ofSeconds(1)));
        HttpClient client = TlsClients.httpClient(tls.certificate());
        assertEquals("ok", get(client)); // a connection in use before and after
        byte[] hello = TlsClients.clientHello();
        Socket half = connect();
        half.getOutputStream().write(hello, 0, hello.length / 2);
        half.close();
        Socket gone = connect();
        gone.getOutputStream().write(hello);
        gone.getOutputStream().flush();
        gone.shutdownOutput();
        TlsClients.Received answered = TlsClients.readUntilClosed(gone, Duration.ofSeconds(5));
        assertTrue(answered.bytes().length > 0 && answered.bytes()[0] == 22, "the server answered the ClientHello with a handshake record");
        assertTrue(answered.closed(), "and closed when the client's side ended");
        Socket stalled = connect();
        stalled.getOutputStream().write(hello); // then nothing more
        Socket silent = connect();
        long t0 = System.nanoTime();
        assertTrue(TlsClients.readUntilClosed(stalled, Duration.ofSeconds(5)).closed(), "a stalled handshake is closed");
        assertTrue(TlsClients.readUntilClosed(silent, Duration.ofSeconds(5)).closed(), "a silent connection is closed");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(ms >= 700 && ms < 3000, "closed at the receive timeout of 1 s: " + ms + " ms");
        assertEquals("ok", get(client));
        RawHttp.await(() -> server.openConnections() == 1, Duration.ofSeconds(5), "only the good connection left");
    }

    @Test
    void handshakesInProgressHoldNoWorker() throws Exception {
        start(HttpServer.builder().workerThreads(2).readTimeout(Duration.ofSeconds(5)));
        byte[] hello = TlsClients.clientHello();
        for (int i = 0; i < 40; i++) {
            Socket s = connect();
            if (i % 2 == 0) {
                s.getOutputStream().write(hello, 0, 20 + i);
            } else {
                s.getOutputStream().write(hello);
            }
        }
        RawHttp.await(() -> server.openConnections() == 40, Duration.ofSeconds(10), "hostile connections open");
        long t0 = System.nanoTime();
        assertEquals("ok", get(TlsClients.httpClient(tls.certificate())));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(ms < 2000, "served in " + ms + " ms beside 40 unfinished handshakes and 2 workers");
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateFailsAlone() throws Exception {
        start(HttpServer.builder());
        HttpClient trusting = TlsClients.httpClient(tls.certificate());
        assertEquals("ok", get(trusting));
        HttpClient defaults = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        IOException e = assertThrows(IOException.class, () -> get(defaults));
        assertTrue(e instanceof SSLHandshakeException || e.getCause() instanceof SSLHandshakeException, e.toString());
        assertEquals("ok", get(trusting));
        assertEquals("ok", get(TlsClients.httpClient(tls.certificate())), "and a new connection too");
        RawHttp.await(() -> server.openConnections() == 2, Duration.ofSeconds(5), "the refused connection is gone");
    }

    @Test
    void busyAnswers503OverTls() throws Exception {
        start(HttpServer.builder().workerThreads(1));
        try (SSLSocket blocked = TlsClients.socket(server.port(), tls.certificate());
             RawHttp second = new RawHttp(TlsClients.socket(server.port(), tls.certificate()))) {
            blocked.getOutputStream().write("GET /block HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(BLOCKING.await(5, TimeUnit.SECONDS), "the one worker serves /block");
            RawHttp.Response r = second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(503, r.status, "readable through TLS");
            assertEquals("Too many connections\n", r.text());
            RELEASE.countDown();
            InputStream in = blocked.getInputStream();
            assertEquals("HTTP/1.1 200", new String(in.readNBytes(12), StandardCharsets.US_ASCII));
        }
    }
}
