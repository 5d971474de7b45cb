package dev.chdedup.stub.fault;

import java.util.Locale;

/**
 * The faults the stub can inject into INSERT requests, each with the failpoint name SQL uses
 * ({@code SYSTEM ENABLE FAILPOINT <name>}). They reproduce what a client meets in production: a lost response
 * after a successful write (outcome unknown), a refused request (nothing written), an error code, a slow answer.
 */
public enum FaultKind {
    /** Commit the insert, then close the connection without answering: the client cannot know it landed. */
    DROP_AFTER_COMMIT("stub_insert_drop_after_commit"),
    /**
     * Commit the insert, then close the connection normally (FIN) without answering: the client sees no response
     * at all, which the official client retries on its own.
     */
    CLOSE_AFTER_COMMIT("stub_insert_close_after_commit"),
    /** Close the connection before reading the request body: nothing is written. */
    DROP_BEFORE_BODY("stub_insert_drop_before_body"),
    /** Answer HTTP 503 without executing: nothing is written. */
    HTTP_503("stub_insert_http_503"),
    /** Answer a given ClickHouse error code without executing: nothing is written. */
    ERROR_CODE("stub_insert_error"),
    /** Commit the insert, then answer a given error code (like 319 UNKNOWN_STATUS_OF_INSERT): outcome unknown. */
    ERROR_AFTER_COMMIT("stub_insert_error_after_commit"),
    /** Commit the insert, then wait before answering (past a client's socket timeout). */
    DELAY_RESPONSE("stub_insert_delay_response"),
    /**
     * The request body is cut off halfway, as a lossy link cuts it, and the complete rows before the cut are committed,
     * as ClickHouse 18.16 commits a body cut on a row boundary (a compressed body, {@code decompress=1}, fails instead: a
     * cut frame is an error), then the connection is reset.
     */
    COMMIT_CUT_BODY("stub_insert_commit_cut_body"),
    /**
     * As {@link #COMMIT_CUT_BODY}, then answered {@code 200} with {@code X-ClickHouse-Exception-Code: 209} and an empty
     * body, as ClickHouse answers when its receive timeout fires while it reads the body (2024).
     */
    COMMIT_CUT_BODY_200("stub_insert_commit_cut_body_200");

    public final String failpoint;

    FaultKind(String failpoint) {
        this.failpoint = failpoint;
    }

    public static FaultKind ofFailpoint(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (FaultKind k : values()) {
            if (k.failpoint.equals(n)) {
                return k;
            }
        }
        return null;
    }

    /** Whether the fault cuts the request body (it fires before the body is read). */
    public boolean cutsBody() {
        return this == COMMIT_CUT_BODY || this == COMMIT_CUT_BODY_200;
    }

    /** Whether the fault fires after the insert was committed. */
    public boolean afterCommit() {
        return this == DROP_AFTER_COMMIT || this == CLOSE_AFTER_COMMIT || this == ERROR_AFTER_COMMIT || this == DELAY_RESPONSE;
    }
}
