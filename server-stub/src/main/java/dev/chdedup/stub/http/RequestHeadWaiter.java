package dev.chdedup.stub.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, on one thread and without a worker, for the request heads of every connection that has no request in
 * progress (new connections and idle keep-alive ones), so clients that send nothing or send their head slowly never
 * pin a worker: a connection is handed to a worker only once its head has arrived. It enforces the deadlines no
 * blocking read can: a new connection must deliver its whole head within the receive timeout, an idle keep-alive
 * connection must start its next head within the idle timeout and finish it within the receive timeout. It is also
 * the server's watchdog: every tick it closes connections whose worker is stuck reading a head past its deadline
 * or blocked in a write longer than the send timeout (a client that stopped reading its result). On an HTTPS port it
 * also drives each connection's TLS handshake, under the same head deadline.
 */
final class RequestHeadWaiter implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RequestHeadWaiter.class);
    /** How often deadlines are checked; timeouts fire at most this much late. */
    static final long TICK_MS = 50;
    /** The first head buffer of a waiting connection; it grows by four up to {@link HttpLimits#MAX_GATHERED_HEAD}. */
    static final int INITIAL_BUFFER = 1024;

    private final HttpServer server;
    private final Selector selector;
    private final Queue<HttpConnection> incoming = new ConcurrentLinkedQueue<>();
    /** Bytes of head buffers held by waiting connections; at most {@link HttpLimits#MAX_GATHERED_TOTAL}. */
    private long gatheredBytes;

    RequestHeadWaiter(HttpServer server) throws IOException {
        this.server = server;
        this.selector = Selector.open();
    }

    /** Takes a connection with no request in progress; any thread. */
    void await(HttpConnection conn, boolean keepAlive) {
        long now = System.nanoTime();
        conn.waitStarted(now, keepAlive);
        incoming.add(conn);
        selector.wakeup();
    }

    void close() {
        try {
            selector.close();
        } catch (IOException e) {
            LOG.debug("Closing selector: {}", e.toString());
        }
    }

    @Override
    public void run() {
        try {
            while (server.isRunning()) {
                try {
                    tick();
                } catch (IOException | CancelledKeyException | IllegalBlockingModeException e) {
                    // one connection's trouble (e.g. closed by another thread meanwhile) must not stop the waiter
                    LOG.debug("Head waiter: {}", e.toString());
                }
            }
        } catch (ClosedSelectorException e) {
            LOG.debug("Head waiter stopped");
        }
    }

    private void tick() throws IOException {
        selector.select(TICK_MS);
        registerIncoming();
        List<HttpConnection> ready = null; // allocated only when needed: this runs 20 times a second
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            HttpConnection conn = (HttpConnection) key.attachment();
            try {
                if (key.isValid() && (key.isReadable() || key.isWritable()) && readSome(key, conn)) {
                    key.cancel();
                    if (ready == null) {
                        ready = new ArrayList<>();
                    }
                    ready.add(conn);
                }
            } catch (CancelledKeyException e) {
                drop(conn); // closed by another thread (server close, abort) while it was ready
            }
        }
        if (ready != null) {
            selector.selectNow(); // completes the deregistration of the cancelled keys
            for (HttpConnection conn : ready) {
                handOver(conn);
            }
        }
        checkDeadlines(System.nanoTime());
    }

    private void registerIncoming() {
        HttpConnection conn;
        while ((conn = incoming.poll()) != null) {
            try {
                SocketChannel ch = conn.channel();
                ch.configureBlocking(false);
                ch.register(selector, SelectionKey.OP_READ, conn);
            } catch (IOException | RuntimeException e) {
                LOG.debug("Connection from {} could not wait: {}", conn.remoteAddress(), e.toString());
                conn.end();
                continue;
            }
            conn.gathered(ByteBuffer.allocate(INITIAL_BUFFER));
            gatheredBytes += INITIAL_BUFFER;
        }
    }

    /** Reads what is there; true once the head is complete (or too long to gather here). */
    private boolean readSome(SelectionKey key, HttpConnection conn) {
        ByteBuffer buf = conn.gathered();
        try {
            while (true) {
                if (!buf.hasRemaining()) {
                    if (buf.capacity() >= HttpLimits.MAX_GATHERED_HEAD) {
                        return true;
                    }
                    int size = Math.min(HttpLimits.MAX_GATHERED_HEAD, buf.capacity() * 4);
                    if (gatheredBytes + size - buf.capacity() > HttpLimits.MAX_GATHERED_TOTAL) {
                        LOG.debug("Connection from {} closed: waiting heads hold {} bytes", conn.remoteAddress(), gatheredBytes);
                        key.cancel();
                        drop(conn);
                        return false;
                    }
                    gatheredBytes += size - buf.capacity();
                    ByteBuffer bigger = ByteBuffer.allocate(size);
                    buf.flip();
                    bigger.put(buf);
                    buf = bigger;
                    conn.gathered(buf);
                }
                int n = conn.readWaiting(buf);
                if (n < 0) {
                    if (buf.position() > 0) {
                        return true; // half-closed after its request: the worker serves what arrived
                    }
                    key.cancel();
                    drop(conn); // closed by the peer between requests: nothing to answer
                    return false;
                }
                if (n == 0) {
                    key.interestOps(conn.wantsWrite() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                    break;
                }
                conn.headStarted(System.nanoTime());
            }
        } catch (IOException e) {
            key.cancel();
            drop(conn);
            return false;
        }
        return headComplete(buf);
    }

    /** Whether the bytes hold a whole head: leading empty lines, then lines up to an empty one. */
    static boolean headComplete(ByteBuffer buf) {
        byte[] b = buf.array();
        int n = buf.position();
        int i = 0;
        while (i < n && (b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
        if (i > HttpLimits.MAX_LEADING_EMPTY_LINES * 2) {
            return true; // let the decoder refuse it
        }
        for (; i < n; i++) {
            if (b[i] == '\n' && (i + 1 < n && b[i + 1] == '\n' || i + 2 < n && b[i + 1] == '\r' && b[i + 2] == '\n')) {
                return true;
            }
        }
        return false;
    }

    /** The connection's head buffer leaves the waiter's budget (handed to a worker, or dropped). */
    private void release(HttpConnection conn) {
        ByteBuffer b = conn.gathered();
        if (b != null) {
            gatheredBytes -= b.capacity();
        }
    }

    private void drop(HttpConnection conn) {
        release(conn);
        conn.gathered(null);
        conn.end();
    }

    private void handOver(HttpConnection conn) {
        release(conn);
        try {
            conn.channel().configureBlocking(true);
        } catch (IOException | RuntimeException e) {
            conn.end();
            return;
        }
        server.dispatch(conn);
    }

    private void checkDeadlines(long now) {
        for (SelectionKey key : selector.keys()) {
            HttpConnection conn = (HttpConnection) key.attachment();
            if (key.isValid() && conn.waitExpired(now)) {
                LOG.debug("Connection from {}: no complete request head in time; closing", conn.remoteAddress());
                key.cancel();
                drop(conn);
            }
        }
        for (HttpConnection conn : server.openConnectionSet()) {
            if (conn.workerStuck(now)) {
                LOG.debug("Connection from {}: receive or send timeout; closing", conn.remoteAddress());
                conn.abort();
            }
        }
    }

    static long nanos(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }
}
