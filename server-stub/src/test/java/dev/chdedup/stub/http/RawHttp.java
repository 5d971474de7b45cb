package dev.chdedup.stub.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Test-side HTTP/1.1 client on a raw socket: writes exactly the bytes a test wants (malformed ones included) and
 * parses responses strictly (status line, headers, Content-Length / chunked / close-delimited bodies), so tests
 * can see the wire format the server produces. Also hosts small waiting helpers with deadlines.
 */
final class RawHttp implements Closeable {

    final Socket socket;
    final InputStream in;
    final OutputStream out;

    RawHttp(int port) throws IOException {
        this(new Socket("127.0.0.1", port));
    }

    /** Over a socket already connected: a TLS one, for the HTTPS port. */
    RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream(), 16384);
        out = socket.getOutputStream();
    }

    RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    Response read() throws IOException {
        return read(false);
    }

    /** Reads one response; {@code headRequest} suppresses the body as for a HEAD. */
    Response read(boolean headRequest) throws IOException {
        String statusLine = readLine(in);
        if (statusLine == null) {
            throw new EOFException("connection closed before a response");
        }
        String[] parts = statusLine.split(" ", 3);
        if (!parts[0].equals("HTTP/1.1")) {
            throw new IOException("bad status line: " + statusLine);
        }
        Response r = new Response(Integer.parseInt(parts[1]));
        String line;
        while (!(line = requireLine(in)).isEmpty()) {
            int colon = line.indexOf(':');
            r.headers.computeIfAbsent(line.substring(0, colon).toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        if (headRequest || r.status < 200 || r.status == 204 || r.status == 304) {
            return r;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(r.header("Transfer-Encoding"))) {
            while (true) {
                String size = requireLine(in);
                int semi = size.indexOf(';');
                int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (n == 0) {
                    while (!requireLine(in).isEmpty()) {
                        // trailers
                    }
                    break;
                }
                body.write(in.readNBytes(n));
                if (!requireLine(in).isEmpty()) {
                    throw new IOException("missing CRLF after chunk");
                }
                r.chunks++;
            }
        } else if (r.header("Content-Length") != null) {
            int n = Integer.parseInt(r.header("Content-Length"));
            byte[] b = in.readNBytes(n);
            if (b.length != n) {
                throw new EOFException("body truncated: " + b.length + " of " + n);
            }
            body.write(b);
        } else {
            body.write(in.readAllBytes());
        }
        r.body = body.toByteArray();
        return r;
    }

    /** Whether the peer ended the connection (FIN or RST) with no further bytes, waiting at most 10 s. */
    boolean closedByPeer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException e) {
            return true; // connection reset
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    private static String requireLine(InputStream in) throws IOException {
        String line = readLine(in);
        if (line == null) {
            throw new EOFException("connection closed inside a response");
        }
        return line;
    }

    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                if (line.size() == 0) {
                    return null;
                }
                throw new EOFException("end of stream in line");
            }
            line.write(c);
        }
        byte[] b = line.toByteArray();
        int len = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
        return new String(b, 0, len, StandardCharsets.ISO_8859_1);
    }

    /** Waits until {@code condition} holds, polling briefly, and fails after {@code timeout}. */
    static void await(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A parsed response. */
    static final class Response {
        final int status;
        final Map<String, List<String>> headers = new LinkedHashMap<>();
        byte[] body = new byte[0];
        int chunks;

        Response(int status) {
            this.status = status;
        }

        String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null ? null : v.get(0);
        }

        List<String> headers(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + text();
        }
    }
}
