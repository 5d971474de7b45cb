package dev.chdedup.stub.compress;

import java.io.IOException;

/**
 * Signals that a stream in ClickHouse's native compressed-block framing cannot be
 * decoded: a checksum mismatch, an unknown compression method byte, a block cut off by
 * end of stream, sizes that are inconsistent or above the accepted limit, or an LZ4
 * payload that does not decompress to the declared size. It is an {@link IOException}
 * so that callers reading a request body handle it with their ordinary I/O error path,
 * while still being able to tell "the client sent garbage" apart from a broken connection.
 */
public class CorruptedDataException extends IOException {

    private static final long serialVersionUID = 1L;

    public CorruptedDataException(String message) {
        super(message);
    }

    public CorruptedDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
