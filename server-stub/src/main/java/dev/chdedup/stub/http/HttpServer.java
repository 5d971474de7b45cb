package dev.chdedup.stub.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small blocking HTTP/1.1 server on plain sockets, one worker thread per request in progress: it owns the
 * listening socket, the acceptor thread, the {@link RequestHeadWaiter} (which holds connections between requests
 * and enforces the receive, send and head deadlines), the pool of daemon workers ({@code stub-http-N}) and the set
 * of open connections, and moves through the states LATENT, STARTED and CLOSED. Plain sockets (rather than a
 * framework) give the stub exact control over the connection, down to resetting it at a chosen moment for fault
 * injection. A {@link VirtualMachineError} (OutOfMemoryError) on any of its threads goes to the fatal handler,
 * which by default closes the server: it never lingers as a zombie that accepts connections and never answers.
 * Given an {@link SSLContext} it serves HTTPS: every connection speaks TLS ({@link TlsSession}), the handshake done by
 * the head waiter, so a client that fails it (plain HTTP, an untrusted certificate, a handshake cut short) costs no
 * worker and fails alone.
 */
public final class HttpServer implements AutoCloseable {

    /** Lifecycle: built but not listening, serving, or closed for good. */
    public enum State { LATENT, STARTED, CLOSED }

    private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
    private static final AtomicInteger WORKER_IDS = new AtomicInteger();

    private final String host;
    private final int requestedPort;
    private final HttpHandler handler;
    private final int maxConnections;
    private final int idleTimeoutMs;
    private final int readTimeoutMs;
    private final int sendTimeoutMs;
    private final int workerThreads;
    private final java.util.function.Consumer<Throwable> fatalHandler;
    private final Duration closeWait;
    /** TLS for every connection (an HTTPS port), or null. */
    private final SSLContext tls;
    private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private volatile State state = State.LATENT;
    private ServerSocket serverSocket;
    private ThreadPoolExecutor workers;
    private Thread acceptor;
    private RequestHeadWaiter waiter;
    private Thread waiterThread;

    private HttpServer(Builder b) {
        this.host = b.host;
        this.requestedPort = b.port;
        this.handler = Objects.requireNonNull(b.handler, "handler");
        this.maxConnections = b.maxConnections;
        this.idleTimeoutMs = toMillis(b.idleTimeout);
        this.readTimeoutMs = toMillis(b.readTimeout);
        this.sendTimeoutMs = toMillis(b.sendTimeout);
        this.workerThreads = Math.min(b.workerThreads, b.maxConnections);
        this.fatalHandler = b.fatalHandler;
        this.closeWait = b.closeWait;
        this.tls = b.tls;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Binds the listening socket and starts accepting; allowed only once, from LATENT. */
    public synchronized HttpServer start() throws IOException {
        if (state != State.LATENT) {
            throw new IllegalStateException("Server is " + state);
        }
        ServerSocket ss = ServerSocketChannel.open().socket();
        try {
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(InetAddress.getByName(host), requestedPort), 128);
        } catch (IOException e) {
            ss.close();
            throw e;
        }
        serverSocket = ss;
        try {
            waiter = new RequestHeadWaiter(this);
        } catch (IOException e) {
            ss.close();
            throw e;
        }
        workers = new ThreadPoolExecutor(0, workerThreads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "stub-http-" + WORKER_IDS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        state = State.STARTED;
        acceptor = new Thread(guarded(this::acceptLoop), "stub-http-acceptor-" + ss.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
        waiterThread = new Thread(guarded(waiter), "stub-http-heads-" + ss.getLocalPort());
        waiterThread.setDaemon(true);
        waiterThread.start();
        LOG.debug("HTTP server listening on {}", ss.getLocalSocketAddress());
        return this;
    }

    private void acceptLoop() {
        while (state == State.STARTED) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                if (state != State.STARTED) {
                    break;
                }
                LOG.debug("accept failed: {}", e.toString());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // e.g. out of file descriptors
                continue;
            }
            accepted.incrementAndGet();
            if (connections.size() >= maxConnections) {
                LOG.debug("Connection from {} refused: {} open", socket.getRemoteSocketAddress(), maxConnections);
                if (tls == null) {
                    HttpConnection.rejectBusy(socket);
                } else {
                    closeQuietly(socket); // no handshake on the acceptor: the client sees the connection end
                }
                continue;
            }
            HttpConnection conn = new HttpConnection(this, socket, handler, idleTimeoutMs, readTimeoutMs, sendTimeoutMs,
                tls == null ? null : new TlsSession(tls.createSSLEngine()));
            connections.add(conn);
            if (state != State.STARTED) {
                conn.closeSocket();
                connections.remove(conn);
                break;
            }
            waiter.await(conn, false);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("Closing connection: {}", e.toString());
        }
    }

    /** Runs a connection whose head has arrived on a worker, or answers 503 when every worker is busy. */
    void dispatch(HttpConnection conn) {
        try {
            workers.execute(conn);
        } catch (RejectedExecutionException e) {
            connections.remove(conn);
            LOG.debug("No worker for connection from {} ({} busy)", conn.remoteAddress(), workerThreads);
            conn.rejectBusy();
        }
    }

    /** A worker is done with a connection that may carry another request: the waiter holds it meanwhile. */
    void awaitNextRequest(HttpConnection conn) {
        waiter.await(conn, true);
    }

    Set<HttpConnection> openConnectionSet() {
        return connections;
    }

    /** An Error (OutOfMemoryError above all) on a server thread: the fatal handler decides; the server closes. */
    void fatal(Throwable e) {
        try {
            LOG.error("Fatal error on {}; the HTTP server closes", Thread.currentThread().getName(), e);
        } catch (Throwable ignored) {
            // logging itself may fail out of memory
        }
        try {
            fatalHandler.accept(e);
        } finally {
            close();
        }
    }

    private Runnable guarded(Runnable r) {
        return () -> {
            try {
                r.run();
            } catch (Error e) {
                fatal(e);
                throw e;
            }
        };
    }

    /** The bound port (the chosen one if the builder asked for port 0). */
    public int port() {
        ServerSocket ss = serverSocket;
        if (ss == null) {
            throw new IllegalStateException("Server is not started");
        }
        return ss.getLocalPort();
    }

    public State state() {
        return state;
    }

    boolean isRunning() {
        return state == State.STARTED;
    }

    /** Connections currently open. */
    public int openConnections() {
        return connections.size();
    }

    /** Connections accepted since start. */
    public long acceptedConnections() {
        return accepted.get();
    }

    void connectionEnded(HttpConnection conn) {
        connections.remove(conn);
    }

    /**
     * Stops accepting, closes every open connection (requests in flight fail on their next I/O) and waits up to the
     * configured close wait for the workers to finish. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            State previous = state;
            state = State.CLOSED;
            if (previous == State.LATENT) {
                return;
            }
        }
        try {
            serverSocket.close();
        } catch (IOException e) {
            LOG.debug("Closing listening socket: {}", e.toString());
        }
        waiter.close();
        for (HttpConnection conn : connections) {
            conn.closeSocket();
        }
        workers.shutdown();
        try {
            long deadline = System.nanoTime() + closeWait.toNanos();
            if (Thread.currentThread() != acceptor) {
                acceptor.join(Math.max(1, closeWait.toMillis()));
            }
            if (!workers.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                LOG.debug("Workers still busy after {}; interrupting", closeWait);
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        connections.clear(); // those waiting for a head had no worker to remove them
        LOG.debug("HTTP server on port {} closed", serverSocket.getLocalPort());
    }

    private static int toMillis(Duration d) {
        long ms = d.toMillis();
        if (ms <= 0 || ms > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Timeout out of range: " + d);
        }
        return (int) ms;
    }

    /** Collects the server settings; every setting has a default except the handler. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private HttpHandler handler;
        private int maxConnections = 4096;
        private Duration idleTimeout = Duration.ofSeconds(10);
        private Duration readTimeout = Duration.ofSeconds(30);
        private Duration sendTimeout = Duration.ofSeconds(30);
        private int workerThreads = 256;
        private java.util.function.Consumer<Throwable> fatalHandler = e -> { };
        private Duration closeWait = Duration.ofSeconds(2);
        private SSLContext tls;

        private Builder() {
        }

        /** Serves HTTPS: every connection speaks TLS with this context's key and certificate (see {@link TlsContext}). */
        public Builder tls(SSLContext context) {
            this.tls = Objects.requireNonNull(context, "context");
            return this;
        }

        /** Interface to bind; default {@code 127.0.0.1}. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** Port to bind; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("Bad port: " + port);
            }
            this.port = port;
            return this;
        }

        public Builder handler(HttpHandler handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Most open connections (ClickHouse's {@code max_connections}); beyond them a new connection is answered 503.
         * Default 4096. Idle and slow connections cost no worker thread.
         */
        public Builder maxConnections(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxConnections must be positive: " + max);
            }
            this.maxConnections = max;
            return this;
        }

        /** Most requests served at once, which is the most worker threads; default 256 (at most maxConnections). */
        public Builder workerThreads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("workerThreads must be positive: " + n);
            }
            this.workerThreads = n;
            return this;
        }

        /**
         * ClickHouse's {@code http_send_timeout}: longest a write of the response may block (a client that stopped
         * reading); past it the connection is closed and its worker freed. Default 30 s.
         */
        public Builder sendTimeout(Duration timeout) {
            this.sendTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** Called with an Error thrown on a server thread, before the server closes (e.g. to halt the JVM). */
        public Builder fatalHandler(java.util.function.Consumer<Throwable> handler) {
            this.fatalHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** How long a keep-alive connection may wait for its next request; default 10 s. */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * ClickHouse's {@code http_receive_timeout}: longest silence while a request body is received, and the
         * deadline for a whole request head (from the connection's start, or from its first byte on a keep-alive
         * connection); default 30 s.
         */
        public Builder readTimeout(Duration timeout) {
            this.readTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** How long {@link HttpServer#close()} waits for workers to finish; default 2 s. */
        public Builder closeWait(Duration wait) {
            this.closeWait = Objects.requireNonNull(wait, "wait");
            return this;
        }

        public HttpServer build() {
            return new HttpServer(this);
        }
    }
}
