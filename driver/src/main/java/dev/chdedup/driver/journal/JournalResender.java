package dev.chdedup.driver.journal;

import dev.chdedup.driver.TableInfo;
import java.sql.SQLException;

/**
 * What a replay needs from a connection of this driver, reached with {@code connection.unwrap(JournalResender.class)}
 * (through a pool's wrapper too): the table facts that decide whether an entry is still protected, and a re-send of
 * the entry with its own token and settings under the connection's retry policy, not journaled again.
 */
public interface JournalResender {
    /** The engine and deduplication window of the entry's table, as the driver reads them for an insert. */
    TableInfo journalTableInfo(JournalEntry entry) throws SQLException;

    /** Re-sends {@code entry} byte-identically; returns the rows it landed (0 when the server dropped it as a duplicate). */
    long journalResend(JournalEntry entry) throws SQLException;
}
