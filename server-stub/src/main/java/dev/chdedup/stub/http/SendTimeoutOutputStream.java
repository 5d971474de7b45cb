package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The socket's output stream with ClickHouse's {@code http_send_timeout} armed around every write: a blocking
 * socket write has no timeout of its own, so the connection records a deadline before each write and clears it
 * after, and {@link RequestHeadWaiter}'s watchdog closes a connection whose write is still blocked past it (a
 * client that stopped reading its result).
 */
final class SendTimeoutOutputStream extends OutputStream {
    private final OutputStream delegate;
    private final Runnable arm;
    private final Runnable disarm;

    SendTimeoutOutputStream(OutputStream delegate, Runnable arm, Runnable disarm) {
        this.delegate = delegate;
        this.arm = arm;
        this.disarm = disarm;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        arm.run();
        try {
            delegate.write(b, off, len);
        } finally {
            disarm.run();
        }
    }

    @Override
    public void flush() throws IOException {
        delegate.flush();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
