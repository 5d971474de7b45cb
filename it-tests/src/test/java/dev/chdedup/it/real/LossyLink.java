package dev.chdedup.it.real;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of one server that loses what a bad network loses, per HTTP exchange on a
 * keep-alive connection: it loses acknowledgements (the request reaches the server, the response is dropped and both
 * sides are reset), cuts requests (the head and about half of the body's first bytes, up to the end of a row where one
 * shows, reach the server, which then sees the request end, and the client is reset: a server that takes a cut body to
 * end there, as 18.16 does, commits that prefix) and delays
 * responses. Which exchange meets which fault comes from a seeded random, so a run can be repeated; the counters say
 * how often each fired.
 */
final class LossyLink implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final double lostAckRate;
    private final double cutRate;
    private final double delayRate;
    private final long delayMillis;
    private final Random random;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean closed = new AtomicBoolean();
    final AtomicInteger lostAcks = new AtomicInteger();
    final AtomicInteger cutRequests = new AtomicInteger();
    final AtomicInteger delayed = new AtomicInteger();
    final AtomicInteger exchanges = new AtomicInteger();

    LossyLink(int targetPort, double lostAckRate, double cutRate, double delayRate, long delayMillis, long seed) throws IOException {
        this.targetPort = targetPort;
        this.lostAckRate = lostAckRate;
        this.cutRate = cutRate;
        this.delayRate = delayRate;
        this.delayMillis = delayMillis;
        this.random = new Random(seed);
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        threads.execute(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    private synchronized double roll() {
        return random.nextDouble();
    }

    private void accept() {
        while (!closed.get()) {
            try {
                Socket client = listener.accept();
                threads.execute(() -> serve(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    /** One client connection: requests flow up, responses down; a new exchange starts when the client writes after a response. */
    private void serve(Socket client) {
        try (client; Socket server = new Socket()) {
            server.connect(new InetSocketAddress("127.0.0.1", targetPort), 5000);
            // the fault of the current exchange, rolled when its request starts: 0 none, 1 lost ack, 2 cut, 3 delay
            AtomicInteger fault = new AtomicInteger();
            AtomicBoolean responding = new AtomicBoolean(true);
            threads.execute(() -> down(server, client, fault, responding));
            InputStream in = client.getInputStream();
            OutputStream up = server.getOutputStream();
            byte[] buf = new byte[16384];
            // of a request being cut: the bytes of its head not yet seen to end ("\r\n\r\n"), matched so far
            int headEndMatched = -1;
            for (int n; (n = in.read(buf)) > 0; ) {
                int start = 0;
                if (responding.getAndSet(false)) {
                    exchanges.incrementAndGet();
                    double r = roll();
                    fault.set(r < lostAckRate ? 1 : r < lostAckRate + cutRate ? 2 : r < lostAckRate + cutRate + delayRate ? 3 : 0);
                    if (fault.get() == 2) {
                        cutRequests.incrementAndGet();
                        headEndMatched = 0;
                    }
                }
                if (headEndMatched >= 0) {
                    // a cut falls inside the body, halfway through what arrives of it with the head or right after it
                    for (; start < n && headEndMatched < 4; start++) {
                        headEndMatched = buf[start] == "\r\n\r\n".charAt(headEndMatched) ? headEndMatched + 1 : buf[start] == '\r' ? 1 : 0;
                    }
                    if (headEndMatched == 4 && start < n) {
                        up.write(buf, 0, cutAt(buf, start, n));
                        up.flush();
                        // the server sees the request end there (FIN, as a client that stopped sending), the client
                        // a reset: it never learns what the server made of it
                        server.shutdownOutput();
                        reset(client);
                        awaitServerClose(server);
                        return;
                    }
                }
                up.write(buf, 0, n);
                up.flush();
            }
        } catch (IOException e) {
            // a side closed or was reset: the connection ends
        }
    }

    private void down(Socket server, Socket client, AtomicInteger fault, AtomicBoolean responding) {
        try {
            InputStream in = server.getInputStream();
            OutputStream out = client.getOutputStream();
            byte[] buf = new byte[16384];
            for (int n; (n = in.read(buf)) > 0; ) {
                if (!responding.getAndSet(true)) {
                    int f = fault.get();
                    if (f == 1) {
                        lostAcks.incrementAndGet();
                        reset(client, server);
                        return;
                    }
                    if (f == 3) {
                        delayed.incrementAndGet();
                        Thread.sleep(delayMillis); // the fault itself: a slow network, not a wait for a condition
                    }
                }
                out.write(buf, 0, n);
                out.flush();
            }
            client.shutdownOutput();
        } catch (IOException e) {
            reset(client, server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reset(client, server);
        }
    }

    /**
     * Where a cut of the body bytes {@code buf[start, n)} falls: halfway, moved back to just after the last complete
     * VALUES row before it where one is visible ({@code "),"}), as a client that writes row by row is cut between two
     * segments. A compressed body shows no rows, and is cut where it falls.
     */
    static int cutAt(byte[] buf, int start, int n) {
        int half = start + Math.max(1, (n - start) / 2);
        for (int i = half - 1; i > start; i--) {
            if (buf[i] == ',' && buf[i - 1] == ')') {
                return i;
            }
        }
        return half;
    }

    /**
     * Waits (at most 5 s) until the server has answered the cut request or closed: the response thread, finding the
     * client reset, closes the server's side then. Closing it earlier would reset the server while it still works.
     */
    private static void awaitServerClose(Socket server) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!server.isClosed() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // polling the other thread's close, with a deadline
        }
    }

    private static void reset(Socket... sockets) {
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0);
                s.close();
            } catch (IOException e) {
                // already gone
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed.set(true);
        listener.close();
        threads.shutdownNow();
    }
}
