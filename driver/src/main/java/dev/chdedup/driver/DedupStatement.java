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

    /**
     * Makes the next INSERT execution of this statement use {@code token} as its insert_deduplication_token
     * instead of a fresh one: re-sending an insert that gave up (see {@link DedupInsertException#token()}), or one
     * whose token the application stored before a crash, with the same rows is then dropped by the server if it
     * had landed, inside the table's deduplication window. Applies to one execution; null clears it.
     */
    void setNextToken(String token);
}
