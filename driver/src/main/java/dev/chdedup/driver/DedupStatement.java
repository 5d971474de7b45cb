package dev.chdedup.driver;

/**
 * What the driver adds to every Statement and PreparedStatement it returns, reachable through
 * {@code statement.unwrap(DedupStatement.class)}.
 */
public interface DedupStatement {
    /** The insert_deduplication_token of the last INSERT this statement executed, or null. */
    String lastToken();

    /** How many attempts the last INSERT took (0 when none ran). */
    int lastAttempts();
}
