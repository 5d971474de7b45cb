package dev.chdedup.driver;

import dev.chdedup.driver.journal.JournalMetrics;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.LongAdder;
import javax.management.ObjectName;

/**
 * Driver-wide counters, readable over JMX as {@code dev.chdedup:type=DedupDriver} (attributes Inserts, Retries,
 * AmbiguousRetries, GiveUps, TokenFallbacks, RowBinaryBatches, TextBatches, JournalResent, JournalStale, JournalReplayFailures) and, when Micrometer is present, in its global registry
 * ({@link MicrometerBinding}): how many INSERT executions ran, how many retries were made and how
 * many of them after an error of unknown outcome, how many inserts were given up, how often a server without
 * token support was met, how many PreparedStatement batches went as RowBinary and how many kept the text path, and what insert journal replays did ({@link JournalMetrics}).
 */
public final class DedupMetrics implements DedupMetricsMBean {
    public static final DedupMetrics INSTANCE = new DedupMetrics();
    static final String OBJECT_NAME = "dev.chdedup:type=DedupDriver";

    final LongAdder inserts = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder ambiguousRetries = new LongAdder();
    final LongAdder giveUps = new LongAdder();
    final LongAdder tokenFallbacks = new LongAdder();
    /** PreparedStatement batches sent as RowBinary, and those of the form INSERT ... VALUES (?, ...) that kept the text path. */
    final LongAdder rowBinaryBatches = new LongAdder();
    final LongAdder textBatches = new LongAdder();

    private DedupMetrics() {
    }

    static void register() {
        try {
            ObjectName name = new ObjectName(OBJECT_NAME);
            if (!ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
                ManagementFactory.getPlatformMBeanServer().registerMBean(INSTANCE, name);
            }
        } catch (Exception | LinkageError e) {
            // JMX is optional: counters stay readable through INSTANCE
        }
        try {
            MicrometerBinding.bindGlobalIfPresent();
        } catch (LinkageError e) {
            // Micrometer absent or incompatible: JMX and INSTANCE remain
        }
    }

    @Override
    public long getInserts() {
        return inserts.sum();
    }

    @Override
    public long getRetries() {
        return retries.sum();
    }

    @Override
    public long getAmbiguousRetries() {
        return ambiguousRetries.sum();
    }

    @Override
    public long getGiveUps() {
        return giveUps.sum();
    }

    @Override
    public long getTokenFallbacks() {
        return tokenFallbacks.sum();
    }

    @Override
    public long getRowBinaryBatches() {
        return rowBinaryBatches.sum();
    }

    @Override
    public long getTextBatches() {
        return textBatches.sum();
    }

    @Override
    public long getJournalResent() {
        return JournalMetrics.INSTANCE.resent();
    }

    @Override
    public long getJournalStale() {
        return JournalMetrics.INSTANCE.stale();
    }

    @Override
    public long getJournalReplayFailures() {
        return JournalMetrics.INSTANCE.failures();
    }
}
