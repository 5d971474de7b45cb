package dev.chdedup.stub.replicated;

import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.exec.Settings;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.KeeperException;

/**
 * The retries of one block's ZooKeeper requests on the insert path, after ClickHouse's {@code ZooKeeperRetriesControl}
 * and the settings {@code insert_keeper_max_retries} (20), {@code insert_keeper_retry_initial_backoff_ms} (100) and
 * {@code insert_keeper_retry_max_backoff_ms} (10000): only a request that failed on the connection (lost connection,
 * timeout, expired or moved session) is retried, after a wait that doubles up to the maximum. Whoever retries a
 * request whose outcome is unknown must first find out what happened (StorageReplicatedMergeTree does). An emulated
 * older release (18.16, 22.1) has none of this: no retries. Not thread-safe: one per block being committed.
 */
final class ZooKeeperRetriesControl {
    private final long maxRetries;
    private final long maxBackoffMs;
    private long backoffMs;
    private long retries;

    ZooKeeperRetriesControl(long maxRetries, long initialBackoffMs, long maxBackoffMs) {
        this.maxRetries = maxRetries;
        this.backoffMs = initialBackoffMs;
        this.maxBackoffMs = maxBackoffMs;
    }

    /** No retries (the paths that go around the insert sink, and the old releases). */
    static ZooKeeperRetriesControl none() {
        return new ZooKeeperRetriesControl(0, 0, 0);
    }

    /** What the insert's settings ask for. Settings are validated by then; a fresh control per block. */
    static ZooKeeperRetriesControl fromSettings(Settings s, CompatibilityProfile compat) {
        if (compat != null && compat.version() != null) {
            return none();
        }
        return new ZooKeeperRetriesControl(s.getLong("insert_keeper_max_retries"), s.getLong("insert_keeper_retry_initial_backoff_ms"),
            s.getLong("insert_keeper_retry_max_backoff_ms"));
    }

    /** Whether ClickHouse retries a request that failed with {@code e}: a fault of the connection, not of the request. */
    static boolean retryable(Exception e) {
        return e instanceof KeeperException.ConnectionLossException || e instanceof KeeperException.OperationTimeoutException
            || e instanceof KeeperException.SessionExpiredException || e instanceof KeeperException.SessionMovedException;
    }

    /** Whether {@code e} may be retried now; if so, waits the backoff first and counts the retry. */
    boolean retryAfter(Exception e) {
        if (!retryable(e) || retries >= maxRetries) {
            return false;
        }
        retries++;
        if (backoffMs > 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoffMs));
        }
        backoffMs = Math.min(maxBackoffMs > 0 ? maxBackoffMs : TimeUnit.HOURS.toMillis(1), backoffMs * 2);
        return true;
    }

    /** Whether any retry is allowed at all. */
    boolean enabled() {
        return maxRetries > 0;
    }

    /** Retries done so far. */
    long retries() {
        return retries;
    }
}
