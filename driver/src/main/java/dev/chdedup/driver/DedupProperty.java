package dev.chdedup.driver;

import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Every connection property of the driver, declared once with its default, description and bounds; the same
 * declaration feeds validation at connect, {@code getPropertyInfo} and the table in docs/driver.md. These properties are
 * removed before the rest goes to the official driver.
 */
public enum DedupProperty {
    MAX_ATTEMPTS("retry.maxAttempts", "5", "Total attempts of one INSERT execution (1 = no retry).", 1, 1000),
    INITIAL_BACKOFF_MS("retry.initialBackoffMs", "100", "Wait before the first retry, in milliseconds.", 0, 600_000),
    MAX_BACKOFF_MS("retry.maxBackoffMs", "5000", "Longest wait between two attempts, in milliseconds.", 0, 3_600_000),
    BACKOFF_MULTIPLIER("retry.backoffMultiplier", "2.0", "Factor by which the wait grows after each attempt.", 1, 100),
    JITTER("retry.jitter", "0.2", "Random spread of each wait, as a fraction of it (0 = none, below 1).", 0, 0.99),
    MAX_ELAPSED_MS("retry.maxElapsedMs", "120000", "No new attempt starts after this many milliseconds since the first.", 1, 86_400_000L * 7),
    TOKEN_PREFIX("dedup.tokenPrefix", "", "Prefix of every insert_deduplication_token the driver generates.", 0, 0),
    MODE("dedup.mode", "token", "token: stamp each INSERT with a token and pin its block settings; on a server without tokens (before"
        + " 22.2) fall back to content hashing, which drops a second INSERT of identical rows (a WARN says so); content: never send"
        + " a token, rely on content hashing knowingly; strict: a token or no deduplication at all (identical rows always land, an"
        + " INSERT of unknown outcome on a server without tokens is not retried); off: pass INSERTs through unchanged.", 0, 0),
    ON_TABLE_WITHOUT_LOG("dedup.onTableWithoutLog", "fail", "What an INSERT of unknown outcome does when its table keeps no deduplication log:"
        + " fail (a clear SQLException, no risk of a duplicate) or retry (retry anyway; a duplicate is possible).", 0, 0),
    TABLE_INFO_TTL_MS("dedup.tableInfoTtlMs", "60000", "How long a table's engine and deduplication settings stay cached, in milliseconds.", 0, 86_400_000L),
    FRAMING("dedup.framing", "compressed", "compressed: each INSERT's request body goes as one ClickHouse compressed frame (decompress=1,"
        + " LZ4 with its CityHash128 checksum), so a body cut off anywhere is an error on every server and no prefix of its rows"
        + " commits; none: the body goes as the official client sends it (a server such as 18.16 then commits the complete rows"
        + " of a cut-off request, and a retry cannot repair that).", 0, 0),
    ENDPOINT_ORDER("dedup.endpointOrder", "inOrder", "Where the URL names several hosts (h1:8123,h2:8123): inOrder tries them in the"
        + " URL's order for each new connection, random spreads connections over them; either way a host that failed recently is"
        + " tried last, and an INSERT whose attempt found its host gone is retried on another host that holds the same"
        + " deduplication log (the same replicated table, or a Distributed table over the same cluster).", 0, 0),
    ENDPOINT_QUARANTINE_MS("dedup.endpointQuarantineMs", "30000", "How long a host that failed is tried last, in milliseconds.", 0,
        86_400_000L),
    ROW_BINARY("dedup.rowBinary", "true", "true: a PreparedStatement batch of the form INSERT INTO t [(columns)] VALUES (?, ..., ?) is"
        + " recorded as RowBinary as its rows are added and sent as INSERT INTO t (columns) FORMAT RowBinary (a batch that cannot be"
        + " encoded keeps the text path); false: every batch is recorded as SQL text.", 0, 0),
    JOURNAL_DIR("dedup.journalDir", "", "Directory of a crash-safe insert journal (empty = none): each INSERT execution is journaled durably"
        + " before its first attempt, and what was in flight when the process died is re-sent at the next start.", 0, 0),
    JOURNAL_REPLAY("dedup.journalReplay", "auto", "auto: the first connection with a journal is handed out at once and the pending"
        + " inserts are re-sent in the background, with the retry policy's backoff, until each lands or proves stale (in the log and"
        + " the metrics); blocking: the first connection re-sends them before it is handed out and fails while one cannot be"
        + " re-sent; manual: the application calls DedupJournal.open(dir).replay(connection).", 0, 0),
    JOURNAL_STALE("dedup.journalStale", "fail", "What a replay does with a pending insert its table's deduplication window no longer"
        + " protects (older than replicated_deduplication_window_seconds, or no log): fail (nothing re-sent, the error names"
        + " the token and table), resend (a duplicate is possible) or skip (dropped with a warning).", 0, 0);

    public final String key;
    public final String defaultValue;
    public final String description;
    final double min;
    final double max;

    DedupProperty(String key, String defaultValue, String description, double min, double max) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.min = min;
        this.max = max;
    }

    public static DedupProperty byKey(String key) {
        for (DedupProperty p : values()) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }

    String raw(Properties props) {
        String v = props.getProperty(key);
        return v == null ? defaultValue : v.trim();
    }

    long longValue(Properties props) throws SQLException {
        String v = raw(props);
        try {
            long x = Long.parseLong(v);
            check(x, v);
            return x;
        } catch (NumberFormatException e) {
            throw new SQLException("Invalid value '" + v + "' of connection property " + key + ": expected a whole number in ["
                + (long) min + ", " + (long) max + "]", "HY024");
        }
    }

    double doubleValue(Properties props) throws SQLException {
        String v = raw(props);
        try {
            double x = Double.parseDouble(v);
            check(x, v);
            return x;
        } catch (NumberFormatException e) {
            throw new SQLException("Invalid value '" + v + "' of connection property " + key + ": expected a number in ["
                + min + ", " + max + "]", "HY024");
        }
    }

    String choice(Properties props, String... allowed) throws SQLException {
        String v = raw(props);
        for (String a : allowed) {
            if (a.equalsIgnoreCase(v)) {
                return a;
            }
        }
        throw new SQLException("Invalid value '" + v + "' of connection property " + key + ": expected one of "
            + String.join(", ", allowed), "HY024");
    }

    /** Rejects {@code x} (parsed from {@code v}) outside [min, max]; NaN is outside too. */
    private void check(double x, String v) throws SQLException {
        if (!(x >= min && x <= max)) {
            throw new SQLException("Invalid value '" + v + "' of connection property " + key + ": must be in [" + bound(min) + ", "
                + bound(max) + "]", "HY024");
        }
    }

    private static String bound(double b) {
        return b == Math.rint(b) ? Long.toString((long) b) : Double.toString(b);
    }

    DriverPropertyInfo info(Properties props) {
        DriverPropertyInfo i = new DriverPropertyInfo(key, props.getProperty(key, defaultValue));
        i.description = description + " Default: " + (defaultValue.isEmpty() ? "(empty)" : defaultValue) + ".";
        i.required = false;
        if (this == MODE) {
            i.choices = new String[] {"token", "content", "strict", "off"};
        } else if (this == ON_TABLE_WITHOUT_LOG) {
            i.choices = new String[] {"fail", "retry"};
        } else if (this == ENDPOINT_ORDER) {
            i.choices = new String[] {"inOrder", "random"};
        } else if (this == JOURNAL_REPLAY) {
            i.choices = new String[] {"auto", "manual"};
        } else if (this == JOURNAL_STALE) {
            i.choices = new String[] {"fail", "resend", "skip"};
        }
        return i;
    }
}
