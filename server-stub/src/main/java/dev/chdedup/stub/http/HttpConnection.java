package dev.chdedup.stub.http;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one accepted socket on one worker thread: reads requests in order (pipelined ones included), runs the
 * handler for each, finishes its response, drains the unread body and loops while keep-alive holds. It decides
 * when the connection ends: idle timeout, {@code Connection: close}, undrainable bodies, protocol errors (answered
 * with a short text and a lingering close so the peer can read it), handler failures after commit, and aborts.
 * Peer resets and timeouts are expected events here and logged at debug level only.
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
    private final InetSocketAddress remote;
    private volatile boolean aborted;
    private volatile boolean closed;
    private ConnectionInput in;
    private OutputStream out;
    private boolean linger;
    // state of the current exchange, read by HttpResponse when it commits
    private RequestHead head;
    private BodyInputStream body;
    private boolean expectContinue;

    HttpConnection(HttpServer server, Socket socket, HttpHandler handler, int idleTimeoutMs, int readTimeoutMs) {
        this.server = server;
        this.socket = socket;
        this.handler = handler;
        this.idleTimeoutMs = idleTimeoutMs;
        this.readTimeoutMs = readTimeoutMs;
        this.remote = (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    @Override
    public void run() {
        try {
            socket.setTcpNoDelay(true);
            in = new ConnectionInput(socket.getInputStream(), HttpLimits.IO_BUFFER_SIZE);
            out = new BufferedOutputStream(socket.getOutputStream(), HttpLimits.IO_BUFFER_SIZE);
            boolean again = true;
            while (again && server.isRunning() && !aborted) {
                socket.setSoTimeout(idleTimeoutMs);
                if (!in.awaitData()) {
                    break;
                }
                socket.setSoTimeout(readTimeoutMs);
                again = exchange();
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
        } finally {
            closeSocket();
            server.connectionEnded(this);
        }
    }

    /** Serves one request; returns whether the connection may carry another. */
    private boolean exchange() throws IOException {
        head = null;
        body = null;
        expectContinue = false;
        try {
            head = RequestDecoder.readHead(in);
        } catch (HttpException e) {
            return fail(new HttpResponse(this, out, false, true), e.status(), e.getMessage());
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
        HttpRequest req = new HttpRequest(head, pairs, body, remote);
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

    InetSocketAddress remoteAddress() {
        return remote;
    }

    /** Answers a connection the server has no worker for with 503 and closes it; runs on the acceptor. */
    static void rejectBusy(Socket socket) {
        try (socket) {
            socket.setSoTimeout(1000);
            String text = "Too many connections\n";
            String resp = "HTTP/1.1 503 Service Unavailable\r\nDate: " + HttpDates.now()
                    + "\r\nConnection: close\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: "
                    + text.length() + "\r\n\r\n" + text;
            socket.getOutputStream().write(resp.getBytes(StandardCharsets.ISO_8859_1));
            socket.shutdownOutput();
        } catch (IOException e) {
            LOG.debug("Rejecting connection: {}", e.toString());
        }
    }
}
