package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The TLS of one connection, over an {@link SSLEngine}, through both halves of the connection's life: the head waiter
 * drives the handshake and reads a request head without blocking ({@link #read(SocketChannel, ByteBuffer)}), a worker
 * then reads and writes through blocking streams over the socket's ({@link #input}, {@link #output}); the records
 * received but not yet unwrapped, and the bytes unwrapped but not yet read, carry over from one to the other. What
 * goes wrong (a client that speaks plain HTTP or does not trust the certificate, a handshake cut short) is an
 * {@link SSLException} or an end of stream on this connection alone. {@link #closeOutbound} sends close_notify, or the
 * alert the engine has to send, as ClickHouse's OpenSSL does on close; nothing at all when no TLS record was ever read,
 * as OpenSSL answers a plain HTTP request.
 */
final class TlsSession {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    /** Records received and not yet unwrapped, from 0 to the position (fill mode). */
    private ByteBuffer netIn;
    /** Bytes unwrapped and not yet read, from 0 to the position (fill mode). */
    private ByteBuffer appIn;
    /** Records wrapped and not yet sent, from the position to the limit (drain mode). */
    private ByteBuffer netOut;
    /** The peer closed its side (close_notify or end of stream); what appIn holds is still read. */
    private boolean inboundDone;
    /** Some record was unwrapped: the peer speaks TLS, so an alert is worth sending back. */
    private boolean recordSeen;

    /** How the session reaches the socket: without blocking from the waiter, blocking from a worker. */
    private interface RawIo {
        /** Reads into {@code dst}: the count, 0 when nothing is there now (non-blocking only), -1 at the end of stream. */
        int read(ByteBuffer dst) throws IOException;

        /** Writes what {@code src} holds; false when the socket took only part of it now (non-blocking only). */
        boolean write(ByteBuffer src) throws IOException;
    }

    TlsSession(SSLEngine engine) {
        this.engine = engine;
        engine.setUseClientMode(false);
        this.netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).flip();
    }

    /**
     * For the head waiter: advances the handshake and moves decrypted bytes into {@code dst}, without blocking. Returns
     * their count, 0 when it must wait for the socket (to read, or to write when {@link #wantsWrite()}), -1 once the peer
     * has closed; an {@link SSLException} when the peer speaks no TLS or the handshake fails.
     */
    synchronized int read(SocketChannel channel, ByteBuffer dst) throws IOException {
        return read(nonBlocking(channel), dst);
    }

    /** Whether wrapped bytes (a handshake flight) wait for the socket to take them: the waiter then waits to write. */
    synchronized boolean wantsWrite() {
        return netOut.hasRemaining();
    }

    /** Bytes received and not yet read, decrypted or not; a worker hands the connection to the waiter only at 0. */
    synchronized int buffered() {
        return appIn.position() + netIn.position();
    }

    /** The decrypted stream of the socket's {@code in} for a worker; handshake records it must answer go to {@code out}. */
    InputStream input(InputStream in, OutputStream out) {
        RawIo io = blocking(in, out);
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                synchronized (TlsSession.this) {
                    return TlsSession.this.read(io, ByteBuffer.wrap(b, off, len));
                }
            }
        };
    }

    /** The stream a worker writes the response to: each write is wrapped into records and sent to {@code out}. */
    OutputStream output(InputStream in, OutputStream out) {
        RawIo io = blocking(in, out);
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (TlsSession.this) {
                    TlsSession.this.write(io, ByteBuffer.wrap(b, off, len));
                }
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }
        };
    }

    /** Sends close_notify (or a pending alert) over a blocking socket; a worker's normal end of the connection. */
    synchronized void closeOutbound(OutputStream out) throws IOException {
        closeOutbound(blocking(InputStream.nullInputStream(), out));
    }

    /** As {@link #closeOutbound(OutputStream)} from the waiter: what the socket does not take now is dropped. */
    synchronized void closeOutbound(SocketChannel channel) throws IOException {
        closeOutbound(nonBlocking(channel));
    }

    private void closeOutbound(RawIo io) throws IOException {
        if (!recordSeen) {
            return;
        }
        engine.closeOutbound();
        boolean produced = true;
        while (produced && !engine.isOutboundDone()) {
            produced = wrap(EMPTY).bytesProduced() > 0;
        }
        if (netOut.hasRemaining()) {
            io.write(netOut);
        }
    }

    private int read(RawIo io, ByteBuffer dst) throws IOException {
        while (true) {
            if (appIn.position() > 0) {
                appIn.flip();
                int n = Math.min(appIn.remaining(), dst.remaining());
                int end = appIn.limit();
                dst.put(appIn.limit(n));
                appIn.limit(end).compact();
                return n;
            }
            if (inboundDone) {
                return -1;
            }
            if (netOut.hasRemaining() && !io.write(netOut)) {
                return 0;
            }
            SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
            if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (hs == SSLEngineResult.HandshakeStatus.NEED_WRAP && wrap(EMPTY).bytesProduced() > 0) {
                continue; // a handshake flight, sent at the top of the loop
            } else if (!unwrap()) {
                int n = io.read(netIn);
                if (n < 0) {
                    inputEnded();
                } else if (n == 0) {
                    return 0;
                }
            }
        }
    }

    private void write(RawIo io, ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
            if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (hs == SSLEngineResult.HandshakeStatus.NEED_UNWRAP) {
                // the peer started a handshake (TLS 1.2 renegotiation): its records come before our data
                if (!unwrap() && io.read(netIn) < 0) {
                    inputEnded();
                    throw new SSLException("the peer closed the connection in a handshake");
                }
            } else if (wrap(src).getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new SSLException("the TLS session is closed");
            }
            if (netOut.hasRemaining()) {
                io.write(netOut);
            }
        }
    }

    /** Unwraps one record of netIn into appIn; false when netIn holds no whole record (more must be read). */
    private boolean unwrap() throws SSLException {
        SSLEngineResult r;
        netIn.flip();
        try {
            r = engine.unwrap(netIn, appIn);
        } finally {
            netIn.compact();
        }
        switch (r.getStatus()) {
            case OK -> {
                recordSeen |= r.bytesConsumed() > 0;
                return r.bytesConsumed() > 0 || r.bytesProduced() > 0;
            }
            case CLOSED -> inboundDone = true; // the peer's close_notify
            case BUFFER_OVERFLOW -> appIn = grown(appIn, engine.getSession().getApplicationBufferSize());
            default -> { // BUFFER_UNDERFLOW: no whole record yet
                if (!netIn.hasRemaining()) {
                    netIn = grown(netIn, engine.getSession().getPacketBufferSize());
                }
                return false;
            }
        }
        return true;
    }

    /** Wraps {@code src} (or a handshake message the engine has to send) into one record appended to netOut. */
    private SSLEngineResult wrap(ByteBuffer src) throws SSLException {
        netOut.compact();
        try {
            while (true) {
                SSLEngineResult r = engine.wrap(src, netOut);
                if (r.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    return r;
                }
                netOut = grown(netOut, engine.getSession().getPacketBufferSize());
            }
        } finally {
            netOut.flip();
        }
    }

    private void inputEnded() {
        inboundDone = true;
        try {
            engine.closeInbound();
        } catch (SSLException e) {
            // an end of stream without close_notify: the client is gone, which ends the stream all the same
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** {@code b} (in fill mode) with room for at least {@code room} more bytes. */
    private static ByteBuffer grown(ByteBuffer b, int room) {
        ByteBuffer bigger = ByteBuffer.allocate(b.position() + Math.max(room, b.capacity()));
        return bigger.put(b.flip());
    }

    private static RawIo nonBlocking(SocketChannel channel) {
        return new RawIo() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                return channel.read(dst);
            }

            @Override
            public boolean write(ByteBuffer src) throws IOException {
                channel.write(src);
                return !src.hasRemaining();
            }
        };
    }

    private static RawIo blocking(InputStream in, OutputStream out) {
        return new RawIo() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
                if (n > 0) {
                    dst.position(dst.position() + n);
                }
                return n;
            }

            @Override
            public boolean write(ByteBuffer src) throws IOException {
                out.write(src.array(), src.arrayOffset() + src.position(), src.remaining());
                src.position(src.limit());
                return true;
            }
        };
    }
}
