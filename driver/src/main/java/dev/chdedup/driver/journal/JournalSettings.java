package dev.chdedup.driver.journal;

import java.nio.file.Path;

/**
 * A connection's journal settings, from {@code dedup.journalDir}, {@code dedup.journalReplay} and
 * {@code dedup.journalStale}: where the journal lives (null: no journal), how the pending entries a process finds are
 * re-sent, and what happens to an entry the table's deduplication window no longer protects.
 */
public record JournalSettings(Path dir, Replay replay, Stale stale) {
    /** {@code dedup.journalReplay}: when the pending entries a process finds at its start are re-sent. */
    public enum Replay {
        /** The first connection is handed out at once; a background thread re-sends them with the retry policy's backoff. */
        AUTO,
        /** The first connection re-sends them before it is handed out, and fails while one cannot be re-sent. */
        BLOCKING,
        /** The application calls {@code DedupJournal.open(dir).replay(connection)}. */
        MANUAL
    }

    /** What a replay does with an entry older than its table's deduplication window, or for a table with no log. */
    public enum Stale {
        /** Refuse the replay with a message naming the token and the table; nothing is sent. */
        FAIL,
        /** Re-send it anyway: a duplicate is possible if it had landed. */
        RESEND,
        /** Drop it without sending, with a warning: it is lost if it had not landed. */
        SKIP
    }

    public static final JournalSettings NONE = new JournalSettings(null, Replay.AUTO, Stale.FAIL);

    public boolean enabled() {
        return dir != null;
    }
}
