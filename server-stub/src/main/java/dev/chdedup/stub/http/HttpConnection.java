package dev.chdedup.stub.http;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one accepted socket, one request at a time on a worker thread: {@link RequestHeadWaiter} gathers a head
 * without a worker and hands the connection over once it is complete; the worker then reads requests in order
 * (pipelined ones included), runs the handler for each, finishes its response, drains the unread body, and gives
 * the connection back to the waiter when no further request is buffered. Its deadlines (the head, a blocked
 * write) are enforced by the waiter's watchdog, which closes the socket; blocking reads have the receive timeout.
 * It decides when the connection ends: idle timeout, {@code Connection: close}, undrainable bodies, protocol errors (answered
 * with a short text and a lingering close so the peer can read it), handler failures after commit, and aborts.
 * Peer resets and timeouts are expected events here and logged at debug level only. On an HTTPS port its bytes go
 * through a {@link TlsSession}, which the waiter and the worker share in turn.
 */
final class HttpConnection implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final int LINGER_TIMEOUT_MS = 2000;

    private final HttpServer server;
    private final Socket socket;
    private final HttpHandler handler;
    private final int idleTimeoutMs;
    private final int readTimeoutMs;
    private final int sendTimeoutMs;
    /** The send timeout of the current exchange: the server's, unless the request's settings changed it. */
    private volatile long exchangeSendTimeoutMs;
    private final InetSocketAddress remote;
    /** The connection's TLS on an HTTPS port, null on an HTTP one. */
    private final TlsSession tls;
    /** Head bytes gathered by the waiter, not yet given to {@link #in}; touched by one thread at a time. */
    private ByteBuffer gathered;
    /** While waiting in the waiter: when it gives up, and whether this wait follows a served request. */
    private long waitDeadline;
    private boolean keepAliveWait;
    private boolean headStarted;
    /** Set while the worker reads a head or is blocked in a write: past it, the watchdog closes the socket. */
    private volatile long headDeadline;
    private volatile long writeDeadline;
    private volatile boolean aborted;
    private volatile boolean closed;
    private ConnectionInput in;
    /** The socket's output stream under the send timeout: what the worker writes, after TLS. */
    private OutputStream raw;
    private OutputStream out;
    private boolean linger;
    // state of the current exchange, read by HttpResponse when it commits
    private RequestHead head;
    private BodyInputStream body;
    private boolean expectContinue;

    HttpConnection(HttpServer server, Socket socket, HttpHandler handler, int idleTimeoutMs, int readTimeoutMs, int sendTimeoutMs,
                   TlsSession tls) {
        this.server = server;
        this.socket = socket;
        this.handler = handler;
        this.idleTimeoutMs = idleTimeoutMs;
        this.readTimeoutMs = readTimeoutMs;
        this.sendTimeoutMs = sendTimeoutMs;
        this.remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        this.tls = tls;
    }

    /** Reads what the waiter can have without blocking (on an HTTPS port: after the handshake, decrypted). */
    int readWaiting(ByteBuffer buf) throws IOException {
        return tls == null ? channel().read(buf) : tls.read(channel(), buf);
    }

    /** Whether the waiter must wait for the socket to take a TLS handshake flight before it reads on. */
    boolean wantsWrite() {
        return tls != null && tls.wantsWrite();
    }

    SocketChannel channel() {
        return socket.getChannel();
    }

    ByteBuffer gathered() {
        return gathered;
    }

    void gathered(ByteBuffer buf) {
        gathered = buf;
    }

    /** The waiter takes the connection: a new one must send its head in the receive timeout, an idle one start it. */
    void waitStarted(long now, boolean keepAlive) {
        gathered = null; // the waiter allocates it, within its budget
        keepAliveWait = keepAlive;
        headStarted = false;
        waitDeadline = now + RequestHeadWaiter.nanos(keepAlive ? idleTimeoutMs : readTimeoutMs);
    }

    /** The first bytes of a head arrived in the waiter: the rest must follow within the receive timeout. */
    void headStarted(long now) {
        if (!headStarted) {
            headStarted = true;
            if (keepAliveWait) {
                waitDeadline = now + RequestHeadWaiter.nanos(readTimeoutMs);
            }
        }
    }

    boolean waitExpired(long now) {
        return now - waitDeadline > 0;
    }

    /** Whether the worker is past the head deadline or blocked in a write longer than the send timeout. */
    boolean workerStuck(long now) {
        long h = headDeadline;
        long w = writeDeadline;
        return h != 0 && now - h > 0 || w != 0 && now - w > 0;
    }

    /** Closes the socket (after close_notify, when the waiter holds an HTTPS connection) and forgets the connection. */
    void end() {
        if (tls != null && !closed && !channel().isBlocking()) {
            try {
                tls.closeOutbound(channel());
            } catch (IOException e) {
                LOG.debug("close_notify to {}: {}", remote, e.toString());
            }
        }
        closeSocket();
        server.connectionEnded(this);
    }

    @Override
    public void run() {
        boolean waiting = false;
        try {
            if (in == null) {
                socket.setTcpNoDelay(true);
                raw = new SendTimeoutOutputStream(socket.getOutputStream(),
                    () -> writeDeadline = System.nanoTime() + RequestHeadWaiter.nanos(exchangeSendTimeoutMs), () -> writeDeadline = 0);
                in = new ConnectionInput(tls == null ? socket.getInputStream() : tls.input(socket.getInputStream(), raw),
                    HttpLimits.IO_BUFFER_SIZE);
                out = new BufferedOutputStream(tls == null ? raw : tls.output(socket.getInputStream(), raw), HttpLimits.IO_BUFFER_SIZE);
            }
            if (gathered != null) {
                in.prime(gathered.array(), gathered.position());
                gathered = null;
            }
            socket.setSoTimeout(readTimeoutMs);
            boolean again = true;
            while (again && server.isRunning() && !aborted) {
                again = exchange();
                if (again && in.buffered() == 0 && (tls == null || tls.buffered() == 0) && server.isRunning() && !aborted) {
                    waiting = true; // no pipelined request: wait for the next head without holding the worker
                    server.awaitNextRequest(this);
                    return;
                }
            }
            if (linger && !aborted && !closed) {
                lingeringClose();
            }
        } catch (SocketTimeoutException e) {
            LOG.debug("Connection from {} timed out", remote);
        } catch (IOException e) {
            if (!aborted && !closed) {
                LOG.debug("Connection from {} ended: {}", remote, e.toString());
            }
        } catch (RuntimeException e) {
            LOG.debug("Connection from {} failed", remote, e);
        } catch (Error e) {
            server.fatal(e);
            throw e;
        } finally {
            if (!waiting) {
                if (tls != null && raw != null && !linger && !aborted && !closed) {
                    closeNotify();
                }
                closeSocket();
                server.connectionEnded(this);
            }
        }
    }

    /** Serves one request; returns whether the connection may carry another. */
    private boolean exchange() throws IOException {
        head = null;
        body = null;
        expectContinue = false;
        exchangeSendTimeoutMs = sendTimeoutMs;
        socket.setSoTimeout(readTimeoutMs);
        headDeadline = System.nanoTime() + RequestHeadWaiter.nanos(readTimeoutMs);
        try {
            head = RequestDecoder.readHead(in);
        } catch (HttpException e) {
            return fail(new HttpResponse(this, out, false, true), e.status(), e.getMessage());
        } finally {
            headDeadline = 0;
        }
        if (head == null) {
            return false;
        }
        HttpResponse resp = new HttpResponse(this, out, head.method.equals("HEAD"), head.http11);
        List<String[]> pairs;
        try {
            body = RequestDecoder.openBody(head, in);
            pairs = QueryString.decode(head.rawQuery);
        } catch (HttpException e) {
            return fail(resp, e.status(), e.getMessage());
        }
        String expect = head.http11 ? head.headers.get("Expect") : null;
        if (expect != null) {
            if (!expect.trim().equalsIgnoreCase("100-continue")) {
                return fail(resp, 417, "Unsupported Expect: " + expect);
            }
            expectContinue = true;
            body.setHook(() -> {
                if (!resp.headersSent()) {
                    out.write(CONTINUE);
                    out.flush();
                }
            });
        }
        HttpRequest req = new HttpRequest(head, pairs, body, remote, this::peerConnected);
        Throwable failure = null;
        try {
            handler.handle(req, resp);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            failure = t;
        } finally {
            req.release();
        }
        if (aborted || resp.aborted()) {
            return false;
        }
        if (failure != null && resp.committed()) {
            LOG.debug("Handler failed after the response was committed; closing connection from {}", remote, failure);
            return false;
        }
        boolean drained = drainBody();
        if (failure != null) {
            LOG.debug("Handler failed for {} from {}", req, remote, failure);
            if (failure instanceof HttpException) {
                resp.sendError(((HttpException) failure).status(), failure.getMessage(), !drained);
            } else if (body.broken()) { // e.g. EOF inside the body: the client's fault, not the handler's
                resp.sendError(400, "Malformed or truncated request body", true);
            } else {
                resp.sendError(500, "Internal Server Error: the request handler failed", !drained);
            }
        } else {
            if (!drained && !resp.committed()) {
                resp.closeConnection();
            }
            resp.finish();
        }
        if (!drained) {
            linger = true;
        }
        return drained && resp.keepAlive();
    }

    /** Answers a request whose head could be read but not accepted, then closes. */
    private boolean fail(HttpResponse resp, int status, String message) throws IOException {
        resp.sendError(status, message, true);
        linger = true;
        return false;
    }

    /** Discards the unread body; false if that is impossible (broken framing, too large, 100-continue unsent). */
    private boolean drainBody() throws IOException {
        if (body.broken()) {
            return false;
        }
        if (body.finished()) {
            return true;
        }
        if (expectContinue && !body.started()) {
            return false; // the client waits for 100 Continue; do not solicit a body nobody wants
        }
        return body.drain(HttpLimits.MAX_DRAIN_BYTES);
    }

    /** Whether the response being committed may announce keep-alive. */
    boolean keepAliveAllowed() {
        if (head == null || !head.wantsKeepAlive() || !server.isRunning() || aborted) {
            return false;
        }
        return body == null || !body.broken() && !(expectContinue && !body.started() && !body.finished());
    }

    int keepAliveSeconds() {
        return (idleTimeoutMs + 999) / 1000;
    }

    /** Half-closes, then reads and discards what the peer still sends, so our last response is not lost to RST. */
    private void lingeringClose() {
        try {
            out.flush();
            if (tls != null) {
                tls.closeOutbound(raw);
            }
            socket.shutdownOutput();
            socket.setSoTimeout(LINGER_TIMEOUT_MS);
            byte[] scratch = new byte[8192];
            long total = 0;
            while (total < HttpLimits.MAX_LINGER_BYTES) {
                int n = in.read(scratch, 0, scratch.length);
                if (n < 0) {
                    break;
                }
                total += n;
            }
        } catch (IOException e) {
            LOG.debug("Lingering close of connection from {}: {}", remote, e.toString());
        }
    }

    /** Sends close_notify before a worker closes an HTTPS connection, as ClickHouse's OpenSSL does. */
    private void closeNotify() {
        try {
            out.flush();
            tls.closeOutbound(raw);
        } catch (IOException e) {
            LOG.debug("close_notify to {}: {}", remote, e.toString());
        }
    }

    /** Drops the connection with a TCP reset: SO_LINGER 0 and close, discarding buffered output. */
    void abort() {
        aborted = true;
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            LOG.debug("SO_LINGER on {}: {}", remote, e.toString());
        }
        closeSocket();
    }

    /** Ends the exchange with a normal close (FIN) and no response; nothing more is written. */
    void closeWithoutResponse() {
        aborted = true;
        closeSocket();
    }

    /** Closes the socket (normally, with FIN) from any thread; the worker then ends on its next I/O. */
    void closeSocket() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("Closing connection from {}: {}", remote, e.toString());
        }
    }

    /** Per-request timeouts (ClickHouse's http_receive_timeout / http_send_timeout settings), in milliseconds. */
    void exchangeTimeouts(long receiveMs, long sendMs) throws IOException {
        if (receiveMs > 0) {
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, receiveMs));
        }
        if (sendMs > 0) {
            exchangeSendTimeoutMs = sendMs;
        }
    }

    Socket socket() {
        return socket;
    }

    /**
     * Whether the client still has the connection open, as Poco's checkPeerConnected: a read of what is buffered or of
     * 1 ms at most, whose bytes (a pipelined request, the rest of a body) stay buffered. Only for the worker thread
     * while it serves a request.
     */
    boolean peerConnected() {
        if (closed || aborted) {
            return false;
        }
        try {
            int timeout = socket.getSoTimeout();
            socket.setSoTimeout(1);
            try {
                return in.peek();
            } catch (SocketTimeoutException e) {
                return true;
            } finally {
                socket.setSoTimeout(timeout);
            }
        } catch (IOException e) {
            return false;
        }
    }

    InetSocketAddress remoteAddress() {
        return remote;
    }

    /** Answers a connection the server has no worker for with 503 and closes it; runs on the acceptor. */
    static void rejectBusy(Socket socket) {
        rejectBusy(socket, null);
    }

    /** {@link #rejectBusy(Socket)} of a connection whose head arrived: on an HTTPS port the 503 goes through its TLS. */
    void rejectBusy() {
        rejectBusy(socket, tls);
    }

    private static void rejectBusy(Socket socket, TlsSession tls) {
        try (socket) {
            socket.setSoTimeout(1000);
            String text = "Too many connections\n";
            String resp = "HTTP/1.1 503 Service Unavailable\r\nDate: " + HttpDates.now()
                    + "\r\nConnection: close\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: "
                    + text.length() + "\r\n\r\n" + text;
            OutputStream raw = socket.getOutputStream();
            (tls == null ? raw : tls.output(socket.getInputStream(), raw)).write(resp.getBytes(StandardCharsets.ISO_8859_1));
            if (tls != null) {
                tls.closeOutbound(raw);
            }
            socket.shutdownOutput();
        } catch (IOException e) {
            LOG.debug("Rejecting connection: {}", e.toString());
        }
    }
}
