package dev.chdedup.stub.error;

/**
 * A ClickHouse server error: a numeric code, its symbolic name and a message. Everything the stub rejects
 * travels as one of these, so the HTTP layer can render it exactly as ClickHouse does
 * ({@code Code: 60. DB::Exception: ... (UNKNOWN_TABLE) (version ...)}) and pick the matching status.
 */
public class ChException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;

    public ChException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ChException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    /** The text ClickHouse puts on the wire, without the trailing version and newline. */
    public String displayText() {
        String m = getMessage();
        return "Code: " + code.code + ". DB::Exception: " + m + (m.endsWith(".") ? " " : ". ") + "(" + code.name() + ")";
    }
}
