package dev.chdedup.retry;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs an operation under a {@link RetryPolicy} on Resilience4j's Retry: exponential backoff with jitter, a
 * maximum elapsed time, and the {@link ErrorClassifier} deciding what is retried. Errors of unknown outcome are
 * retried only when the caller says a retry is safe for them (the same token inside a deduplication window).
 * Resilience4j stays inside this class.
 */
public final class RetryExecutor {
    /** One attempt; {@code attempt} counts from 1. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run(int attempt) throws Exception;
    }

    /** Thrown when no further attempt is made: carries every attempt's error, the last one as the cause. */
    public static final class GaveUpException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int attempts;
        private final transient List<Throwable> errors;
        private final ErrorClass lastClass;
        private final boolean anyUnknown;

        GaveUpException(int attempts, List<Throwable> errors, ErrorClass lastClass, boolean anyUnknown) {
            super(errors.get(errors.size() - 1).getMessage(), errors.get(errors.size() - 1));
            this.attempts = attempts;
            this.errors = List.copyOf(errors);
            this.lastClass = lastClass;
            this.anyUnknown = anyUnknown || lastClass == ErrorClass.UNKNOWN_OUTCOME;
        }

        /**
         * Whether any attempt ended with an unknown outcome: then the rows may have landed whatever the later attempts
         * say (a retry refused before writing says nothing of an earlier attempt that may have committed).
         */
        public boolean anyUnknown() {
            return anyUnknown;
        }

        public int attempts() {
            return attempts;
        }

        public List<Throwable> errors() {
            return errors;
        }

        public ErrorClass lastClass() {
            return lastClass;
        }
    }

    private final RetryPolicy policy;

    public RetryExecutor(RetryPolicy policy) {
        this.policy = policy;
    }

    public RetryPolicy policy() {
        return policy;
    }

    /**
     * Runs {@code op} until it succeeds, fails with a non-retryable error, runs out of attempts or of time.
     * With {@code unknownOutcomeRetryable} false, an error of unknown outcome ends the attempts at once.
     */
    public <T> T execute(Attempt<T> op, boolean unknownOutcomeRetryable, RetryListener listener) throws GaveUpException {
        return execute(op, unknownOutcomeRetryable, false, listener);
    }

    /**
     * As {@link #execute(Attempt, boolean, RetryListener)} for an operation that {@code mayHaveWritten} part of itself
     * when it fails (see {@link ErrorClassifier#classify(Throwable, boolean)}).
     */
    public <T> T execute(Attempt<T> op, boolean unknownOutcomeRetryable, boolean mayHaveWritten, RetryListener listener)
        throws GaveUpException {
        return execute(op, () -> unknownOutcomeRetryable, mayHaveWritten, listener);
    }

    /** As above, asking {@code unknownOutcomeRetryable} after each failure (what an attempt learnt may change the answer). */
    public <T> T execute(Attempt<T> op, java.util.function.BooleanSupplier unknownOutcomeRetryable, boolean mayHaveWritten,
                         RetryListener listener) throws GaveUpException {
        long start = System.nanoTime();
        long deadline = start + policy.maxElapsed().toNanos();
        AtomicInteger attempt = new AtomicInteger();
        List<Throwable> errors = new ArrayList<>();
        ErrorClass[] last = new ErrorClass[1];
        boolean[] anyUnknown = new boolean[1];
        IntervalFunction backoff = policy.jitter() > 0
            ? IntervalFunction.ofExponentialRandomBackoff(Math.max(1, policy.initialBackoff().toMillis()), policy.multiplier(),
                policy.jitter(), Math.max(1, policy.maxBackoff().toMillis()))
            : IntervalFunction.ofExponentialBackoff(Math.max(1, policy.initialBackoff().toMillis()), policy.multiplier(),
                Math.max(1, policy.maxBackoff().toMillis()));
        RetryConfig config = RetryConfig.custom()
            .maxAttempts(policy.maxAttempts())
            .intervalBiFunction((n, either) -> {
                long remaining = (deadline - System.nanoTime()) / 1_000_000;
                return Math.max(0, Math.min(backoff.apply(n), remaining));
            })
            .retryOnException(e -> {
                ErrorClass c = ErrorClassifier.classify(e, mayHaveWritten);
                last[0] = c;
                anyUnknown[0] |= c == ErrorClass.UNKNOWN_OUTCOME;
                boolean retryable = c == ErrorClass.SAFE_TO_RETRY || c == ErrorClass.UNKNOWN_OUTCOME && unknownOutcomeRetryable.getAsBoolean();
                return retryable && System.nanoTime() < deadline && attempt.get() < policy.maxAttempts();
            })
            .failAfterMaxAttempts(false)
            .build();
        Retry retry = Retry.of("chdedup-insert", config);
        retry.getEventPublisher().onRetry(ev -> listener.onRetry(ev.getNumberOfRetryAttempts(), ev.getLastThrowable(),
            ErrorClassifier.classify(ev.getLastThrowable(), mayHaveWritten), ev.getWaitInterval().toMillis()));
        try {
            T result = Retry.decorateCheckedSupplier(retry, () -> {
                int n = attempt.incrementAndGet();
                try {
                    return op.run(n);
                } catch (Exception e) {
                    errors.add(e);
                    throw e;
                }
            }).get();
            listener.onSuccess(attempt.get());
            return result;
        } catch (Throwable t) {
            if (errors.isEmpty()) {
                errors.add(t);
            }
            ErrorClass c = last[0] != null ? last[0] : ErrorClassifier.classify(t, mayHaveWritten);
            listener.onGiveUp(attempt.get(), errors.get(errors.size() - 1), c);
            throw new GaveUpException(attempt.get(), errors, c, anyUnknown[0]);
        }
    }
}
