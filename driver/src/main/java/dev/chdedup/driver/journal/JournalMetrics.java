package dev.chdedup.driver.journal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide counters of journal replays, shown with the driver's other metrics (JMX {@code JournalResent},
 * {@code JournalStale}, {@code JournalReplayFailures}): entries re-sent and acknowledged, entries found older than
 * their table's deduplication window (whatever was then done with them), and re-sends that failed.
 */
public final class JournalMetrics {
    public static final JournalMetrics INSTANCE = new JournalMetrics();

    final LongAdder resent = new LongAdder();
    final LongAdder stale = new LongAdder();
    final LongAdder failures = new LongAdder();

    private JournalMetrics() {
    }

    public long resent() {
        return resent.sum();
    }

    public long stale() {
        return stale.sum();
    }

    public long failures() {
        return failures.sum();
    }
}
