package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Slow and stalled clients cannot starve the server: hundreds of connections dribbling half a head hold no worker
 * (a normal request is answered while they are connected) and are closed at the head deadline even though they
 * keep sending; a client that stops reading a large response is dropped after the send timeout and its worker
 * serves the next request.
 */
class RequestHeadWaiterTest {
    private static final int SLOW_CLIENTS = 300;
    private HttpServer server;
    private final List<Socket> sockets = new ArrayList<>();
    private final ScheduledExecutorService dribbler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() throws IOException {
        dribbler.shutdownNow();
        for (Socket s : sockets) {
            s.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static final HttpHandler OK = (req, resp) -> {
        byte[] b = "ok".getBytes(StandardCharsets.US_ASCII);
        resp.contentLength(b.length).body().write(b);
    };

    private static boolean closedByServer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            s.setSoTimeout(1);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    void slowHeadsHoldNoWorkerAndAreClosedAtTheHeadDeadline() throws Exception {
        server = HttpServer.builder().handler(OK).workerThreads(8).readTimeout(Duration.ofSeconds(3)).build().start();
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            Socket s = new Socket("127.0.0.1", server.port());
            s.getOutputStream().write("GET /?q".getBytes(StandardCharsets.US_ASCII));
            sockets.add(s);
        }
        AtomicBoolean sendFailed = new AtomicBoolean();
        dribbler.scheduleAtFixedRate(() -> {
            for (Socket s : sockets) {
                try {
                    s.getOutputStream().write('x'); // keeps each head alive but never finishes it
                } catch (IOException e) {
                    sendFailed.set(true);
                }
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        RawHttp.await(() -> server.openConnections() == SLOW_CLIENTS, Duration.ofSeconds(10), "slow clients connected");
        long t0 = System.nanoTime();
        try (RawHttp normal = new RawHttp(server.port())) {
            RawHttp.Response r = normal.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(200, r.status);
            assertEquals("ok", r.text());
        }
        long servedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertTrue(servedMs < 2000, "a normal request waited " + servedMs + " ms behind " + SLOW_CLIENTS + " slow clients");
        assertTrue(sockets.stream().noneMatch(RequestHeadWaiterTest::closedByServer), "slow clients still connected when it was served");
        RawHttp.await(() -> sockets.stream().allMatch(RequestHeadWaiterTest::closedByServer), Duration.ofSeconds(10),
            "slow clients closed at the head deadline although they keep sending");
        RawHttp.await(() -> server.openConnections() == 0, Duration.ofSeconds(5), "no connection left");
    }

    @Test
    void halfHeadsCannotHoldMoreThanTheGatheringBudget() throws Exception {
        server = HttpServer.builder().handler(OK).workerThreads(4).build().start();
        byte[] half = ("GET /?q=" + "x".repeat(20_000)).getBytes(StandardCharsets.US_ASCII); // grows a 64 KiB buffer
        int clients = (int) (HttpLimits.MAX_GATHERED_TOTAL / HttpLimits.MAX_GATHERED_HEAD) + 100;
        for (int i = 0; i < clients; i++) {
            Socket s = new Socket("127.0.0.1", server.port());
            sockets.add(s);
            s.getOutputStream().write(half);
        }
        RawHttp.await(() -> sockets.stream().filter(RequestHeadWaiterTest::closedByServer).count() >= 100, Duration.ofSeconds(20),
            "the clients beyond the budget closed");
        assertTrue(server.openConnections() <= HttpLimits.MAX_GATHERED_TOTAL / HttpLimits.MAX_GATHERED_HEAD,
            server.openConnections() + " half heads held");
        RawHttp.await(() -> status(server.port()) == 200, Duration.ofSeconds(5), "a normal request is still served");
    }

    @Test
    void idleNewConnectionsAreClosedAfterTheReceiveTimeout() throws Exception {
        server = HttpServer.builder().handler(OK).workerThreads(1).readTimeout(Duration.ofMillis(500)).build().start();
        Socket silent = new Socket("127.0.0.1", server.port());
        sockets.add(silent);
        try (RawHttp normal = new RawHttp(server.port())) {
            assertEquals(200, normal.send("GET / HTTP/1.1\r\n\r\n").read().status, "the only worker is free");
        }
        RawHttp.await(() -> closedByServer(silent), Duration.ofSeconds(5), "silent connection closed");
    }

    @Test
    void aClientThatStopsReadingIsDroppedAfterTheSendTimeoutAndFreesItsWorker() throws Exception {
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) 'a');
        HttpHandler big = (req, resp) -> {
            if (req.path().equals("/big")) {
                for (int i = 0; i < 256; i++) {
                    resp.body().write(chunk); // 256 MiB: far more than socket buffers hold
                }
            } else {
                OK.handle(req, resp);
            }
        };
        // a send timeout long enough that the pinned worker is seen before the timeout frees it, on a loaded machine too (a
        // load of 16 on 2 cores missed a 2.5 s window)
        server = HttpServer.builder().handler(big).workerThreads(1).sendTimeout(Duration.ofMillis(8000)).build().start();
        Socket stalled = new Socket("127.0.0.1", server.port());
        stalled.setReceiveBufferSize(4096);
        sockets.add(stalled);
        stalled.getOutputStream().write("GET /big HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        // the worker has taken the stalled request once its response starts arriving; polling earlier could put a poll's
        // head and the stalled one in the same waiter tick, the poll taking the worker and the stalled request the 503
        RawHttp.await(() -> available(stalled) > 0, Duration.ofSeconds(10), "the worker writes the stalled response");
        RawHttp.await(() -> status(server.port()) == 503, Duration.ofSeconds(8), "the only worker is pinned meanwhile");
        RawHttp.await(() -> server.openConnections() == 0, Duration.ofSeconds(20), "stalled reader dropped");
        RawHttp.await(() -> status(server.port()) == 200, Duration.ofSeconds(5), "the only worker serves again");
    }

    private static int available(Socket s) {
        try {
            return s.getInputStream().available();
        } catch (IOException e) {
            return -1;
        }
    }

    private static int status(int port) {
        try (RawHttp c = new RawHttp(port)) {
            return c.send("GET / HTTP/1.1\r\n\r\n").read().status;
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void headCompletionIsRecognised() {
        assertTrue(RequestHeadWaiter.headComplete(buf("GET / HTTP/1.1\r\nHost: x\r\n\r\n")));
        assertTrue(RequestHeadWaiter.headComplete(buf("\r\nGET / HTTP/1.0\n\n")));
        assertTrue(!RequestHeadWaiter.headComplete(buf("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n")));
        assertTrue(!RequestHeadWaiter.headComplete(buf("GET / HT")));
    }

    private static java.nio.ByteBuffer buf(String s) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(256);
        b.put(s.getBytes(StandardCharsets.US_ASCII));
        return b;
    }
}
