package dev.chdedup.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryExecutorTest {
    private static final RetryPolicy FAST = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), 2.0, 0.0, Duration.ofSeconds(10));

    @Test
    void retriesSafeErrorsUntilSuccess() throws Exception {
        List<Integer> seen = new ArrayList<>();
        String r = new RetryExecutor(FAST).execute(n -> {
            seen.add(n);
            if (n < 3) {
                throw new ConnectException("refused");
            }
            return "ok";
        }, false, RetryListener.NONE);
        assertEquals("ok", r);
        assertEquals(List.of(1, 2, 3), seen);
    }

    @Test
    void unknownOutcomeIsRetriedOnlyWhenAllowed() {
        RetryExecutor.GaveUpException e = assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(FAST).execute(n -> {
            throw new SocketTimeoutException("Read timed out");
        }, false, RetryListener.NONE));
        assertEquals(1, e.attempts());
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, e.lastClass());
        RetryExecutor.GaveUpException all = assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(FAST).execute(n -> {
            throw new SocketTimeoutException("Read timed out");
        }, true, RetryListener.NONE));
        assertEquals(4, all.attempts());
        assertEquals(4, all.errors().size());
    }

    /** A timeout (the insert may have landed), then refusals that wrote nothing: the outcome stays unknown. */
    @Test
    void anEarlierUnknownOutcomeStaysUnknownWhenLaterAttemptsAreRefused() {
        RetryExecutor.GaveUpException e = assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(FAST).execute(n -> {
            if (n == 1) {
                throw new SocketTimeoutException("Read timed out");
            }
            throw new ConnectException("Connection refused");
        }, true, RetryListener.NONE));
        assertEquals(4, e.attempts());
        assertEquals(ErrorClass.SAFE_TO_RETRY, e.lastClass());
        assertTrue(e.anyUnknown(), "the first attempt may have landed");
        RetryExecutor.GaveUpException refused = assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(FAST).execute(n -> {
            throw new ConnectException("Connection refused");
        }, true, RetryListener.NONE));
        assertFalse(refused.anyUnknown(), "no attempt got through");
    }

    @Test
    void neverRetriesSyntaxErrors() {
        RetryExecutor.GaveUpException e = assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(FAST).execute(n -> {
            throw new SQLException("Code: 62. DB::Exception: Syntax error (SYNTAX_ERROR)", "22000", 62);
        }, true, RetryListener.NONE));
        assertEquals(1, e.attempts());
        assertEquals(ErrorClass.NEVER, e.lastClass());
    }

    @Test
    void stopsAtTheElapsedTimeBudget() {
        RetryPolicy slow = new RetryPolicy(1000, Duration.ofMillis(20), Duration.ofMillis(20), 1.0, 0.0, Duration.ofMillis(200));
        long start = System.nanoTime();
        RetryExecutor.GaveUpException e = assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(slow).execute(n -> {
            throw new ConnectException("refused");
        }, true, RetryListener.NONE));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.attempts() < 1000, "attempts " + e.attempts());
        assertTrue(ms < 5_000, "took " + ms + " ms");
    }

    @Test
    void listenerSeesRetriesAndOutcome() throws Exception {
        List<String> events = new ArrayList<>();
        new RetryExecutor(FAST).execute(n -> {
            if (n == 1) {
                throw new SQLException("Code: 202. DB::Exception: Too many simultaneous queries", "22000", 202);
            }
            return n;
        }, false, new RetryListener() {
            @Override
            public void onRetry(int attempt, Throwable error, ErrorClass c, long waitMillis) {
                events.add("retry " + attempt + " " + c);
            }

            @Override
            public void onSuccess(int attempt) {
                events.add("success " + attempt);
            }
        });
        assertEquals(List.of("retry 1 SAFE_TO_RETRY", "success 2"), events);
    }

    @Test
    void policyValidatesItsBounds() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO, 2, 0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ofSeconds(2), Duration.ofSeconds(1), 2, 0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 0.5, 0, Duration.ofSeconds(1)));
        assertEquals(Duration.ofSeconds(3), RetryPolicy.DEFAULT.cappedAt(Duration.ofSeconds(3)).maxElapsed());
    }
}
