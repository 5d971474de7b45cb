package dev.chdedup.driver.journal;

import com.clickhouse.jdbc.StatementImpl;
import dev.chdedup.driver.DedupInsertException;
import java.lang.reflect.Field;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The journal's side of one INSERT execution, called by the driver's insert executor: journal it before the first
 * attempt (with the text exactly as the official statement will send it, its JDBC escapes already converted, so that
 * a re-send with escape processing off is byte-identical), mark it done when it is acknowledged or proved not
 * written, and leave it pending, saying so in the exception, when it gives up with an unknown outcome. Every method
 * does nothing when the connection has no journal.
 */
public final class InsertJournal {
    private static final Field ESCAPES = escapesField();

    private InsertJournal() {
    }

    /** Journals the execution about to start on {@code stmt}; null when {@code journal} is null. */
    public static JournalEntry before(DedupJournal journal, Statement stmt, String sql, String kind, long rows, String database,
                                      String table, Map<String, String> settings) throws SQLException {
        if (journal == null) {
            return null;
        }
        String sent = escapeProcessing(stmt) ? StatementImpl.escapedSQLToNative(sql) : sql;
        return journal.append(new JournalEntry(-1, settings.get("insert_deduplication_token"), database, table, kind, rows, sent,
            settings, System.currentTimeMillis()));
    }

    /**
     * Journals a RowBinary execution about to start: {@code statement} ({@code INSERT ... FORMAT RowBinary}) and its
     * {@code body} (kept, not copied), re-sent byte for byte by a replay; null when {@code journal} is null.
     */
    public static JournalEntry beforeRowBinary(DedupJournal journal, String statement, byte[] body, String kind, long rows,
                                               String database, String table, Map<String, String> settings) throws SQLException {
        if (journal == null) {
            return null;
        }
        return journal.append(new JournalEntry(-1, settings.get("insert_deduplication_token"), database, table, kind, rows, statement,
            settings, System.currentTimeMillis(), body));
    }

    /** The execution was acknowledged. */
    public static void acknowledged(DedupJournal journal, JournalEntry entry) throws SQLException {
        if (entry != null) {
            journal.done(entry);
        }
    }

    /**
     * The execution gave up with {@code error}: proved not written, it is done; of unknown outcome, it stays pending
     * and the returned exception says so.
     */
    public static SQLException gaveUp(DedupJournal journal, JournalEntry entry, DedupInsertException error) throws SQLException {
        if (entry == null) {
            return error;
        }
        if (!error.outcomeUnknown()) {
            journal.done(entry);
            return error;
        }
        journal.release(entry);
        DedupInsertException out = new DedupInsertException(error.getMessage() + " The insert stays pending in the insert journal "
            + journal.directory() + " and is re-sent with its token when the journal is next opened (or by"
            + " DedupJournal.open(dir).replay(connection)).", (SQLException) error.getCause(), error.token(), error.attempts(), true);
        for (Throwable t : error.getSuppressed()) {
            out.addSuppressed(t);
        }
        return out;
    }

    /** The execution ended without an outcome the driver understood: it stays pending for a replay. */
    public static void abandoned(DedupJournal journal, JournalEntry entry) {
        if (entry != null) {
            journal.release(entry);
        }
    }

    private static boolean escapeProcessing(Statement stmt) {
        if (ESCAPES == null) {
            return true;
        }
        try {
            return ESCAPES.getBoolean(stmt.unwrap(StatementImpl.class));
        } catch (SQLException | ReflectiveOperationException | RuntimeException e) {
            return true;
        }
    }

    /** {@code StatementImpl.escapeProcessingEnabled}, or null where it is missing or closed to us (escapes are then assumed on). */
    private static Field escapesField() {
        try {
            Field f = StatementImpl.class.getDeclaredField("escapeProcessingEnabled");
            f.setAccessible(true);
            return f.getType() == boolean.class ? f : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
