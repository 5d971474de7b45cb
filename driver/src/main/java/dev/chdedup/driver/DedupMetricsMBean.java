package dev.chdedup.driver;

/** The JMX view of {@link DedupMetrics}. */
public interface DedupMetricsMBean {
    long getInserts();

    long getRetries();

    long getAmbiguousRetries();

    long getGiveUps();

    long getTokenFallbacks();

    long getRowBinaryBatches();

    long getTextBatches();

    long getJournalResent();

    long getJournalStale();

    long getJournalReplayFailures();
}
