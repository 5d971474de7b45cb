package dev.chdedup.driver;

import dev.chdedup.driver.journal.JournalSettings;
import dev.chdedup.retry.RetryPolicy;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/** The driver's validated, immutable configuration of one connection. */
public record DedupConfig(RetryPolicy policy, String tokenPrefix, Mode mode, boolean retryWithoutLog, long tableInfoTtlMillis,
                          JournalSettings journal, boolean framed, boolean rowBinary) {
    /** {@code dedup.mode}: how an INSERT is made retry-safe, and what happens on a server without tokens. */
    public enum Mode {
        /** A token per execution; where the server has none, content hashing (a WARN says what that costs). */
        TOKEN,
        /** Never a token: content hashing, knowingly (identical rows inserted twice land once). */
        CONTENT,
        /** A token or nothing: without one, deduplication is off and an insert of unknown outcome is not retried. */
        STRICT,
        /** INSERTs pass through unchanged. */
        OFF
    }

    public boolean enabled() {
        return mode != Mode.OFF;
    }

    /** Validates every driver property in {@code props}; an error names the property. */
    public static DedupConfig from(Properties props) throws SQLException {
        int attempts = (int) DedupProperty.MAX_ATTEMPTS.longValue(props);
        long initial = DedupProperty.INITIAL_BACKOFF_MS.longValue(props);
        long max = DedupProperty.MAX_BACKOFF_MS.longValue(props);
        if (max < initial) {
            throw new SQLException("Connection property " + DedupProperty.MAX_BACKOFF_MS.key + " (" + max + ") must not be below "
                + DedupProperty.INITIAL_BACKOFF_MS.key + " (" + initial + ")", "HY024");
        }
        double multiplier = DedupProperty.BACKOFF_MULTIPLIER.doubleValue(props);
        double jitter = DedupProperty.JITTER.doubleValue(props);
        long elapsed = DedupProperty.MAX_ELAPSED_MS.longValue(props);
        RetryPolicy policy = new RetryPolicy(attempts, Duration.ofMillis(initial), Duration.ofMillis(max), multiplier, jitter,
            Duration.ofMillis(elapsed));
        String prefix = DedupProperty.TOKEN_PREFIX.raw(props);
        Mode mode = Mode.valueOf(DedupProperty.MODE.choice(props, "token", "content", "strict", "off").toUpperCase(Locale.ROOT));
        boolean retryWithoutLog = DedupProperty.ON_TABLE_WITHOUT_LOG.choice(props, "fail", "retry").equals("retry");
        long ttl = DedupProperty.TABLE_INFO_TTL_MS.longValue(props);
        String dir = DedupProperty.JOURNAL_DIR.raw(props);
        JournalSettings.Replay replay = JournalSettings.Replay.valueOf(
            DedupProperty.JOURNAL_REPLAY.choice(props, "auto", "blocking", "manual").toUpperCase(Locale.ROOT));
        JournalSettings.Stale stale = JournalSettings.Stale.valueOf(
            DedupProperty.JOURNAL_STALE.choice(props, "fail", "resend", "skip").toUpperCase(Locale.ROOT));
        JournalSettings journal = dir.isEmpty() ? JournalSettings.NONE : new JournalSettings(journalPath(dir), replay, stale);
        boolean framed = DedupProperty.FRAMING.choice(props, "compressed", "none").equals("compressed");
        boolean rowBinary = DedupProperty.ROW_BINARY.choice(props, "true", "false").equals("true");
        return new DedupConfig(policy, prefix, mode, retryWithoutLog, ttl, journal, framed, rowBinary);
    }

    private static Path journalPath(String dir) throws SQLException {
        try {
            return Path.of(dir);
        } catch (InvalidPathException e) {
            throw new SQLException("Invalid value '" + dir + "' of connection property " + DedupProperty.JOURNAL_DIR.key + ": "
                + e.getMessage(), "HY024");
        }
    }
}
