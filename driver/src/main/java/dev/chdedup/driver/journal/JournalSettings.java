package dev.chdedup.driver.journal;

import java.nio.file.Path;

/**
 * A connection's journal settings, from {@code dedup.journalDir}, {@code dedup.journalReplay} and
 * {@code dedup.journalStale}: where the journal lives (null: no journal), whether the first connection re-sends
 * its pending entries, and what happens to an entry the table's deduplication window no longer protects.
 */
public record JournalSettings(Path dir, boolean autoReplay, Stale stale) {
    /** What a replay does with an entry older than its table's deduplication window, or for a table with no log. */
    public enum Stale {
        /** Refuse the replay with a message naming the token and the table; nothing is sent. */
        FAIL,
        /** Re-send it anyway: a duplicate is possible if it had landed. */
        RESEND,
        /** Drop it without sending, with a warning: it is lost if it had not landed. */
        SKIP
    }

    public static final JournalSettings NONE = new JournalSettings(null, true, Stale.FAIL);

    public boolean enabled() {
        return dir != null;
    }
}
