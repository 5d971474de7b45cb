package dev.chdedup.retry;

import java.time.Duration;

/**
 * How often and how patiently an insert is retried: total attempts, exponential backoff with jitter between
 * them, and a maximum elapsed time after which no new attempt starts. Immutable; validated on construction.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double multiplier, double jitter,
                          Duration maxElapsed) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 0.2,
        Duration.ofMinutes(2));

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        if (initialBackoff.isNegative() || maxBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("backoff must satisfy 0 <= initial <= max");
        }
        if (multiplier < 1.0) {
            throw new IllegalArgumentException("multiplier must be at least 1.0, was " + multiplier);
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter);
        }
        if (maxElapsed.isNegative() || maxElapsed.isZero()) {
            throw new IllegalArgumentException("maxElapsed must be positive");
        }
    }

    /** A copy whose elapsed-time budget is at most {@code cap} (a deduplication window, for instance). */
    public RetryPolicy cappedAt(Duration cap) {
        return cap.compareTo(maxElapsed) >= 0 ? this : new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, multiplier, jitter, cap);
    }

    /** The wait before attempt {@code attempt + 1} (attempt counts from 1), before jitter. */
    public long baseBackoffMillis(int attempt) {
        double d = initialBackoff.toMillis() * Math.pow(multiplier, attempt - 1);
        return (long) Math.min(maxBackoff.toMillis(), d);
    }
}
