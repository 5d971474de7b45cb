package dev.chdedup.retry;

/** Told about each retry decision, for logging and metrics. Methods default to doing nothing. */
public interface RetryListener {
    RetryListener NONE = new RetryListener() {
    };

    /** Attempt {@code attempt} failed with {@code error} of class {@code c}; another follows after {@code waitMillis}. */
    default void onRetry(int attempt, Throwable error, ErrorClass c, long waitMillis) {
    }

    /** The operation succeeded at attempt {@code attempt}. */
    default void onSuccess(int attempt) {
    }

    /** No further attempt will be made. */
    default void onGiveUp(int attempts, Throwable last, ErrorClass c) {
    }
}
