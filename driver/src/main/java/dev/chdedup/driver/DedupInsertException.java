package dev.chdedup.driver;

import java.sql.SQLException;

/**
 * The driver gave up on an INSERT. It carries the deduplication token the insert was sent with, the number of
 * attempts, and whether the outcome is unknown (the rows may or may not have landed); every earlier attempt's
 * error is attached as suppressed, the last one is the cause, and the SQLState and error code are the last
 * error's. Re-sending the same insert with the same token inside the table's deduplication window is safe.
 */
public class DedupInsertException extends SQLException {
    private static final long serialVersionUID = 1L;
    private final String token;
    private final int attempts;
    private final boolean outcomeUnknown;

    public DedupInsertException(String message, SQLException last, String token, int attempts, boolean outcomeUnknown) {
        super(message, last.getSQLState(), last.getErrorCode(), last);
        this.token = token;
        this.attempts = attempts;
        this.outcomeUnknown = outcomeUnknown;
    }

    /** The insert_deduplication_token every attempt carried (null when the server does not support tokens). */
    public String token() {
        return token;
    }

    public int attempts() {
        return attempts;
    }

    /** True when the last failure leaves it unknown whether the rows landed. */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }
}
