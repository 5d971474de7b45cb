package dev.chdedup.retry;

/** What a failed insert attempt means for a retry. */
public enum ErrorClass {
    /** The server refused the request before writing anything: retrying is always safe. */
    SAFE_TO_RETRY,
    /** The outcome is unknown (the insert may have landed): retry only with the same token and settings. */
    UNKNOWN_OUTCOME,
    /** Retrying cannot help (syntax, types, unknown table or setting, authentication): fail at once. */
    NEVER
}
