package dev.chdedup.driver;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

/**
 * Registers the driver's counters with Micrometer's global registry (or a given one) as
 * {@code chdedup.inserts}, {@code chdedup.retries}, {@code chdedup.retries.ambiguous}, {@code chdedup.giveups}
 * {@code chdedup.token.fallbacks}, {@code chdedup.journal.resent}, {@code chdedup.journal.stale} and
 * {@code chdedup.journal.replay.failures}. Loaded only when Micrometer is on the classpath.
 */
public final class MicrometerBinding {
    private MicrometerBinding() {
    }

    /** Binds to Micrometer's global registry when Micrometer is present; does nothing otherwise. */
    static void bindGlobalIfPresent() {
        try {
            Class.forName("io.micrometer.core.instrument.Metrics", false, MicrometerBinding.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return;
        }
        bindTo(Metrics.globalRegistry);
    }

    public static void bindTo(MeterRegistry registry) {
        DedupMetrics m = DedupMetrics.INSTANCE;
        FunctionCounter.builder("chdedup.inserts", m, DedupMetrics::getInserts).description("INSERT executions").register(registry);
        FunctionCounter.builder("chdedup.retries", m, DedupMetrics::getRetries).description("INSERT retries").register(registry);
        FunctionCounter.builder("chdedup.retries.ambiguous", m, DedupMetrics::getAmbiguousRetries)
            .description("INSERT retries after an error of unknown outcome").register(registry);
        FunctionCounter.builder("chdedup.giveups", m, DedupMetrics::getGiveUps).description("INSERTs given up").register(registry);
        FunctionCounter.builder("chdedup.token.fallbacks", m, DedupMetrics::getTokenFallbacks)
            .description("Connections to servers without insert_deduplication_token").register(registry);
        FunctionCounter.builder("chdedup.batches.rowbinary", m, DedupMetrics::getRowBinaryBatches)
            .description("PreparedStatement batches sent as RowBinary").register(registry);
        FunctionCounter.builder("chdedup.batches.text", m, DedupMetrics::getTextBatches)
            .description("PreparedStatement INSERT ... VALUES (?, ...) batches that kept the text path").register(registry);
        FunctionCounter.builder("chdedup.journal.resent", m, DedupMetrics::getJournalResent)
            .description("Pending journal entries re-sent and acknowledged").register(registry);
        FunctionCounter.builder("chdedup.journal.stale", m, DedupMetrics::getJournalStale)
            .description("Pending journal entries older than their table's deduplication window").register(registry);
        FunctionCounter.builder("chdedup.journal.replay.failures", m, DedupMetrics::getJournalReplayFailures)
            .description("Journal re-sends that failed").register(registry);
    }
}
