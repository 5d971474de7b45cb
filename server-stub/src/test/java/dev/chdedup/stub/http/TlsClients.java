package dev.chdedup.stub.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * Test-side TLS clients: an SSLContext (and java.net.http client) that trusts exactly the given certificates, an
 * SSLSocket for raw HTTP over TLS, the first bytes of a real ClientHello for handshakes cut short, and a client on a
 * bare SSLEngine that tells whether the server ended with close_notify.
 */
public final class TlsClients {
    private TlsClients() {
    }

    /** A context whose only trust anchors are {@code certificates}. */
    public static SSLContext trusting(X509Certificate... certificates) throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (int i = 0; i < certificates.length; i++) {
            trust.setCertificateEntry("c" + i, certificates[i]);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    /** A java.net.http client that trusts only {@code certificate} (and checks that it names the host). */
    public static HttpClient httpClient(X509Certificate certificate) throws GeneralSecurityException, IOException {
        return HttpClient.newBuilder().sslContext(trusting(certificate)).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** A TLS socket to 127.0.0.1:{@code port}, handshake done, that trusts {@code certificate}. */
    static SSLSocket socket(int port, X509Certificate certificate) throws GeneralSecurityException, IOException {
        SSLSocket s = (SSLSocket) trusting(certificate).getSocketFactory().createSocket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        s.startHandshake();
        return s;
    }

    /** The bytes a TLS client sends first: a whole ClientHello record. */
    static byte[] clientHello() throws GeneralSecurityException, IOException {
        SSLEngine client = SSLContext.getDefault().createSSLEngine("127.0.0.1", 443);
        client.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(client.getSession().getPacketBufferSize());
        client.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] b = new byte[out.remaining()];
        out.get(b);
        return b;
    }

    /** What the server sent until it closed (or {@code timeout} passed), and whether the bytes ended the connection. */
    record Received(byte[] bytes, boolean closed) {
        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    /** Reads a plain socket until the server closes it, resets it or {@code timeout} passes. */
    static Received readUntilClosed(Socket s, Duration timeout) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        long deadline = System.nanoTime() + timeout.toNanos();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        while (System.nanoTime() < deadline) {
            s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            try {
                int n = in.read(buf);
                if (n < 0) {
                    return new Received(got.toByteArray(), true);
                }
                got.write(buf, 0, n);
            } catch (SocketTimeoutException e) {
                break;
            } catch (IOException e) {
                return new Received(got.toByteArray(), true); // reset
            }
        }
        return new Received(got.toByteArray(), false);
    }

    /** Sends {@code request} over TLS and reads to the end of the connection (see {@link EngineClient#readUntilClose}). */
    static Received exchangeUntilClose(int port, X509Certificate certificate, String request) throws Exception {
        try (EngineClient c = new EngineClient(port, certificate)) {
            return c.send(request).readUntilClose();
        }
    }

    /**
     * A TLS client on a bare SSLEngine over a blocking socket: it chooses where records end (each piece it sends is
     * wrapped on its own, all of them in one write to the socket), and tells whether the server's last record was
     * close_notify, which an SSLSocket cannot tell from a bare FIN.
     */
    static final class EngineClient implements AutoCloseable {
        private final SSLEngine engine;
        private final Socket socket;
        private final ByteBuffer netIn;
        private final ByteBuffer app;

        EngineClient(int port, X509Certificate certificate) throws Exception {
            engine = trusting(certificate).createSSLEngine("127.0.0.1", port);
            engine.setUseClientMode(true);
            netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize() * 2);
            app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize() * 2);
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            engine.beginHandshake();
            while (true) {
                SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
                if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    for (Runnable t = engine.getDelegatedTask(); t != null; t = engine.getDelegatedTask()) {
                        t.run();
                    }
                } else if (hs == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                    socket.getOutputStream().write(wrap(ByteBuffer.allocate(0)));
                } else if (hs == SSLEngineResult.HandshakeStatus.NEED_UNWRAP) {
                    unwrapOrRead();
                } else {
                    return;
                }
            }
        }

        private byte[] wrap(ByteBuffer data) throws IOException {
            ByteArrayOutputStream records = new ByteArrayOutputStream();
            ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            do {
                out.clear();
                engine.wrap(data, out);
                records.write(out.array(), 0, out.position());
            } while (data.hasRemaining());
            return records.toByteArray();
        }

        /** Unwraps one record into {@code app}; at the end of a record buffer reads more. Returns the engine's status. */
        private SSLEngineResult.Status unwrapOrRead() throws IOException {
            netIn.flip();
            SSLEngineResult r = engine.unwrap(netIn, app);
            netIn.compact();
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                int n = socket.getInputStream().read(netIn.array(), netIn.position(), netIn.remaining());
                if (n < 0) {
                    return null;
                }
                netIn.position(netIn.position() + n);
            }
            return r.getStatus();
        }

        /** Each piece in records of its own, all of them in one write. */
        EngineClient send(String... pieces) throws IOException {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (String p : pieces) {
                all.write(wrap(ByteBuffer.wrap(p.getBytes(StandardCharsets.ISO_8859_1))));
            }
            socket.getOutputStream().write(all.toByteArray());
            return this;
        }

        /** The plain bytes until the server closes, and whether it closed with close_notify (not a bare FIN). */
        Received readUntilClose() throws IOException {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            while (true) {
                SSLEngineResult.Status status = unwrapOrRead();
                app.flip();
                got.write(app.array(), app.position(), app.remaining());
                app.clear();
                if (status == null || status == SSLEngineResult.Status.CLOSED) {
                    return new Received(got.toByteArray(), status != null);
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
