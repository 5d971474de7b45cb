package dev.chdedup.stub.async;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * The first look at an async insert's data, as ClickHouse's {@code AsynchronousInsertQueue::pushQueryWithInlinedData}
 * takes it: at most {@code async_insert_max_data_size} bytes are read; an insert with more is {@code TOO_MUCH_DATA}
 * and runs synchronously, its input the bytes read followed by the rest. {@link #stream()} gives the whole input again
 * either way; a read error met while looking is raised by that stream where it was met, so the reader of the input
 * sees it at the same byte as without the look.
 */
public final class InlinedData {
    /** A limit at least this large is no limit: the whole input is not held twice to learn it. */
    static final long UNBOUNDED = Integer.MAX_VALUE - 8;

    private final InputStream stream;
    private final boolean tooMuchData;

    private InlinedData(InputStream stream, boolean tooMuchData) {
        this.stream = stream;
        this.tooMuchData = tooMuchData;
    }

    /** Reads up to {@code maxDataSize} + 1 bytes of {@code in}. */
    public static InlinedData read(InputStream in, long maxDataSize) {
        if (maxDataSize >= UNBOUNDED) {
            return new InlinedData(in, false);
        }
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        IOException failed = null;
        try {
            while (head.size() <= maxDataSize) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, maxDataSize + 1 - head.size()));
                if (n < 0) {
                    break;
                }
                head.write(buf, 0, n);
            }
        } catch (IOException e) {
            failed = e;
        }
        InputStream rest = failed == null ? in : new Failing(failed);
        return new InlinedData(new SequenceInputStream(new ByteArrayInputStream(head.toByteArray()), rest),
            failed == null && head.size() > maxDataSize);
    }

    /** The whole input: what was read to look at it, then the rest. */
    public InputStream stream() {
        return stream;
    }

    /** Whether the input is larger than {@code async_insert_max_data_size}: it is then inserted synchronously. */
    public boolean tooMuchData() {
        return tooMuchData;
    }

    /** Raises the error the look met, where it met it. */
    private static final class Failing extends InputStream {
        private final IOException error;

        Failing(IOException error) {
            this.error = error;
        }

        @Override
        public int read() throws IOException {
            throw error;
        }
    }
}
