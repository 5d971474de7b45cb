package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the heap a query's rows in flight take (an insert's block being built, an async insert's rows), after
 * ClickHouse's {@code MemoryTracker}: each query has its own limit, {@code max_memory_usage} (0: none), and all
 * queries share the server's: half the JVM's maximum heap, since a collector needs room to work in (ClickHouse's own
 * {@code max_server_memory_usage_to_ram_ratio} of 0.9 is a share of RAM, not of a garbage-collected heap). Rows are counted before they are kept, so a query
 * that would exceed a limit fails with {@code MEMORY_LIMIT_EXCEEDED} (241) instead of running the JVM out of
 * heap; what it had counted is released when its block is written or dropped. The count is an estimate of the
 * Java objects that hold the rows, not a measurement.
 */
public final class MemoryTracker implements AutoCloseable {
    private static final AtomicLong SERVER = new AtomicLong();
    private static final long SERVER_LIMIT = Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 2);

    private final long queryLimit;
    private long held;

    public MemoryTracker(Settings settings) {
        this.queryLimit = Math.max(0, settings.getLong("max_memory_usage"));
    }

    /** Heap that all queries hold now (for tests and system tables). */
    public static long serverUsage() {
        return SERVER.get();
    }

    /** The estimated heap of one row of {@code columns}. */
    public static long rowBytes(List<Column> columns, Object[] row) {
        long b = 24 + 8L * row.length;
        for (int i = 0; i < row.length; i++) {
            Object v = row[i];
            b += v == null ? 0 : 16 + columns.get(i).type().byteSize(v);
        }
        return b;
    }

    /** Counts {@code bytes} more, or fails (counting nothing) if that would pass the query's or the server's limit. */
    public void alloc(long bytes) {
        if (queryLimit > 0 && held + bytes > queryLimit) {
            throw new ChException(ErrorCode.MEMORY_LIMIT_EXCEEDED, "Memory limit (for query) exceeded: would use " + human(held + bytes)
                + ", maximum: " + human(queryLimit));
        }
        long total = SERVER.addAndGet(bytes);
        if (total > SERVER_LIMIT) {
            SERVER.addAndGet(-bytes);
            throw new ChException(ErrorCode.MEMORY_LIMIT_EXCEEDED, "Memory limit (total) exceeded: would use " + human(total)
                + ", maximum: " + human(SERVER_LIMIT));
        }
        held += bytes;
    }

    /** Releases everything this query counted (its block was written or dropped). */
    public void releaseAll() {
        SERVER.addAndGet(-held);
        held = 0;
    }

    @Override
    public void close() {
        releaseAll();
    }

    private static String human(long bytes) {
        return bytes >= 1L << 30 ? String.format(java.util.Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30))
            : String.format(java.util.Locale.ROOT, "%.2f MiB", bytes / (double) (1L << 20));
    }
}
