package dev.chdedup.driver.journal;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.TableInfo;
import dev.chdedup.retry.ErrorClass;
import dev.chdedup.retry.ErrorClassifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-sends a journal's pending entries through a connection of the driver. First every entry is checked against
 * its table's window: an entry older than {@code replicated_deduplication_window_seconds}, or for a table that keeps
 * no deduplication log, is stale (a re-send may duplicate it); with {@code fail} nothing is sent and the error names
 * each stale token and table, with {@code skip} it is dropped, with {@code resend} it is sent like the others. Then
 * each entry is re-sent with its own token and settings: acknowledged entries are done; one refused for good (an
 * error that proves nothing was written and never will be, such as an unknown table) is dropped with an error in
 * the log; one that still fails otherwise stays pending and the replay fails naming it. Each is logged with its
 * token, age and outcome, and counted in {@link JournalMetrics}.
 */
public final class JournalReplay {
    private static final Logger LOG = LoggerFactory.getLogger(JournalReplay.class);

    private JournalReplay() {
    }

    /** What a replay did: entries re-sent and acknowledged, stale entries skipped, entries dropped as refused for good. */
    public record Report(int resent, int skipped, int dropped) {
    }

    static Report run(DedupJournal journal, Connection connection, JournalSettings.Stale stale, List<JournalEntry> entries)
        throws SQLException {
        if (entries.isEmpty()) {
            return new Report(0, 0, 0);
        }
        if (!connection.isWrapperFor(JournalResender.class)) {
            throw new SQLException("Replaying the insert journal " + journal.directory() + " needs a connection of the chdedup"
                + " driver (jdbc:dedup:clickhouse://...), got " + connection, "HY000");
        }
        JournalResender resender = connection.unwrap(JournalResender.class);
        long now = System.currentTimeMillis();
        Map<JournalEntry, String> staleWhy = new LinkedHashMap<>();
        for (JournalEntry e : entries) {
            String why = staleReason(e, resender.journalTableInfo(e), now);
            if (why != null) {
                staleWhy.put(e, why);
                JournalMetrics.INSTANCE.stale.increment();
            }
        }
        if (stale == JournalSettings.Stale.FAIL && !staleWhy.isEmpty()) {
            StringBuilder m = new StringBuilder("The insert journal ").append(journal.directory()).append(" holds ")
                .append(staleWhy.size()).append(" pending insert(s) that a re-send may duplicate, so none was re-sent:");
            staleWhy.forEach((e, why) -> m.append(" insert_deduplication_token '").append(e.token()).append("' into ")
                .append(e.target()).append(" (").append(why).append(");"));
            m.append(" check whether their rows landed, then set dedup.journalStale=resend or skip, or replay them yourself with"
                + " DedupJournal.open(dir).replay(connection, stale)");
            throw new SQLException(m.toString(), STALE_STATE);
        }
        int resent = 0;
        int skipped = 0;
        int dropped = 0;
        List<SQLException> failed = new ArrayList<>();
        for (JournalEntry e : entries) {
            long ageMs = now - e.createdMillis();
            if (staleWhy.containsKey(e) && stale == JournalSettings.Stale.SKIP) {
                journal.done(e);
                skipped++;
                LOG.warn("Insert journal: skipped stale insert into {} with token {}, age {} ms ({})", e.target(), e.token(), ageMs,
                    staleWhy.get(e));
                continue;
            }
            if (!journal.claim(e)) {
                continue;
            }
            try {
                long rows = resender.journalResend(e);
                journal.done(e);
                resent++;
                JournalMetrics.INSTANCE.resent.increment();
                LOG.info("Insert journal: re-sent insert into {} with token {}, age {} ms: {}", e.target(), e.token(), ageMs,
                    rows == 0 ? "already there (dropped as a duplicate) or empty" : rows + " row(s) landed");
            } catch (SQLException ex) {
                JournalMetrics.INSTANCE.failures.increment();
                if (refusedForGood(ex)) {
                    journal.done(e);
                    dropped++;
                    LOG.error("Insert journal: dropped insert into {} with token {}, age {} ms: the server refuses it and nothing"
                        + " was written: {}", e.target(), e.token(), ageMs, ex.getMessage());
                } else {
                    journal.release(e);
                    failed.add(ex);
                    LOG.warn("Insert journal: re-send of insert into {} with token {}, age {} ms, failed; it stays pending: {}",
                        e.target(), e.token(), ageMs, ex.getMessage());
                }
            }
        }
        if (!failed.isEmpty()) {
            SQLException out = new SQLException(failed.size() + " pending insert(s) of the journal " + journal.directory()
                + " could not be re-sent and stay pending (the next replay tries again): " + failed.get(0).getMessage(),
                failed.get(0).getSQLState(), failed.get(0));
            for (int i = 1; i < failed.size(); i++) {
                out.addSuppressed(failed.get(i));
            }
            throw out;
        }
        return new Report(resent, skipped, dropped);
    }

    /** The SQLState of the refusal to re-send stale entries (a vendor class of our own: no retry makes it pass). */
    static final String STALE_STATE = "HY0DS";

    /** Whether {@code e} is the refusal to re-send entries the window no longer protects (not a failure to retry). */
    static boolean isStaleRefusal(SQLException e) {
        return STALE_STATE.equals(e.getSQLState());
    }

    /** Why a re-send of {@code e} may duplicate its rows, or null when the table's window still protects it. */
    static String staleReason(JournalEntry e, TableInfo info, long now) {
        if (info.engine().equals("unknown")) {
            return "its engine and deduplication window could not be read: the table may not exist";
        }
        String blocker = info.retryBlocker(e.sql());
        if (blocker != null) {
            return blocker;
        }
        if (!info.hasLog()) {
            return "the table keeps no deduplication log (engine " + info.engine() + ")";
        }
        long ageSeconds = (now - e.createdMillis()) / 1000;
        if (info.replicated() && info.windowSeconds() > 0 && ageSeconds > info.windowSeconds()) {
            return "journaled " + ageSeconds + " s ago, older than replicated_deduplication_window_seconds = " + info.windowSeconds();
        }
        return null;
    }

    /** Whether a re-send failed in a way that proves nothing was written and a later one would fail the same way. */
    private static boolean refusedForGood(SQLException ex) {
        if (ex instanceof DedupInsertException d && d.outcomeUnknown()) {
            return false;
        }
        Throwable last = ex instanceof DedupInsertException && ex.getCause() != null ? ex.getCause() : ex;
        return ErrorClassifier.classify(last) == ErrorClass.NEVER;
    }
}
