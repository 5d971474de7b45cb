package dev.chdedup.retry;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Classifies a failed insert attempt by following its cause chain: connect failures and HTTP 503 and the
 * ClickHouse codes of a request refused before writing are {@link ErrorClass#SAFE_TO_RETRY}; read timeouts, resets
 * after the request was sent, a missing response and the codes of an unknown outcome are
 * {@link ErrorClass#UNKNOWN_OUTCOME}; everything else (syntax, types, unknown table or setting, authentication) is
 * {@link ErrorClass#NEVER}. The ClickHouse code comes from {@link SQLException#getErrorCode()} or from the
 * {@code Code: N.} of a message (older servers write {@code Code: N, e.displayText() = ...}). Of the safe codes only
 * those refused before the pipeline starts ({@link #BEFORE_WRITE_CODES}) stay safe for an INSERT that may span several
 * blocks or parts: the others are raised per block, so after the first blocks were committed the outcome is unknown.
 */
public final class ErrorClassifier {
    /**
     * Nothing of the block at hand was written: too many queries or connections, readonly, memory, too many parts, quorum,
     * and a request body that ended early (33, CANNOT_READ_ALL_DATA: a cut compressed frame fails whole on every server).
     */
    public static final Set<Integer> SAFE_CODES = Set.of(202, 203, 164, 242, 252, 241, 285, 286, 33);
    /** The insert may have been written: timeouts, network errors, quorum wait timeouts, keeper errors. */
    public static final Set<Integer> UNKNOWN_OUTCOME_CODES = Set.of(209, 210, 3, 159, 319, 999, 244, 425);
    /**
     * The safe codes a server raises before it writes anything, whatever the size of the INSERT: too many queries or
     * connections, a readonly user. The rest of {@link #SAFE_CODES} (memory, readonly table, too many parts, quorum, a body
     * that ended early) is raised while blocks are written, so once a block may have been committed it means an unknown
     * outcome.
     */
    public static final Set<Integer> BEFORE_WRITE_CODES = Set.of(202, 203, 164);

    /** {@code Code: 115.} (ClickHouse 20.x and later) or {@code Code: 115, e.displayText()} (older servers). */
    private static final Pattern CODE = Pattern.compile("Code: (\\d+)[.,]");
    private static final int MAX_DEPTH = 20;

    private ErrorClassifier() {
    }

    public static ErrorClass classify(Throwable error) {
        return classify(error, false);
    }

    /**
     * As {@link #classify(Throwable)}, for an INSERT that {@code mayHaveWritten} part of itself before failing (it may
     * span several blocks or partitions, or feed materialized views): a per-block code is then an unknown outcome.
     */
    public static ErrorClass classify(Throwable error, boolean mayHaveWritten) {
        ErrorClass best = null;
        Throwable t = error;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause() == t ? null : t.getCause()) {
            ErrorClass c = classifyOne(t, mayHaveWritten);
            if (c == ErrorClass.UNKNOWN_OUTCOME) {
                return c;
            }
            if (c == ErrorClass.SAFE_TO_RETRY) {
                best = c;
            }
        }
        return best != null ? best : ErrorClass.NEVER;
    }

    /** The ClickHouse error code found along the cause chain, or 0. */
    public static int codeOf(Throwable error) {
        Throwable t = error;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause() == t ? null : t.getCause()) {
            int c = ownCode(t);
            if (c > 0) {
                return c;
            }
        }
        return 0;
    }

    private static int ownCode(Throwable t) {
        if (t instanceof SQLException && ((SQLException) t).getErrorCode() > 0) {
            return ((SQLException) t).getErrorCode();
        }
        String m = t.getMessage();
        if (m != null) {
            Matcher matcher = CODE.matcher(m);
            if (matcher.find()) {
                try {
                    return Integer.parseInt(matcher.group(1));
                } catch (NumberFormatException ignored) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static ErrorClass classifyOne(Throwable t, boolean mayHaveWritten) {
        int code = ownCode(t);
        if (code > 0) {
            if (UNKNOWN_OUTCOME_CODES.contains(code)) {
                return ErrorClass.UNKNOWN_OUTCOME;
            }
            if (SAFE_CODES.contains(code)) {
                return mayHaveWritten && !BEFORE_WRITE_CODES.contains(code) ? ErrorClass.UNKNOWN_OUTCOME : ErrorClass.SAFE_TO_RETRY;
            }
            return null;
        }
        String name = t.getClass().getName();
        String msg = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException
            || name.endsWith("ConnectTimeoutException") || name.endsWith("HttpHostConnectException")
            || name.endsWith("ConnectionRequestTimeoutException")) {
            // includes the synthetic ConnectException the official client raises for HTTP 503
            return ErrorClass.SAFE_TO_RETRY;
        }
        if (t instanceof SocketTimeoutException) {
            return msg.contains("connect timed out") ? ErrorClass.SAFE_TO_RETRY : ErrorClass.UNKNOWN_OUTCOME;
        }
        if (name.endsWith("NoHttpResponseException") || name.endsWith("ConnectionClosedException")
            || name.endsWith("MalformedChunkCodingException") || name.endsWith("TruncatedChunkException")) {
            return ErrorClass.UNKNOWN_OUTCOME;
        }
        if (t instanceof SocketException) {
            return ErrorClass.UNKNOWN_OUTCOME;
        }
        if (t instanceof InterruptedIOException) {
            return ErrorClass.UNKNOWN_OUTCOME;
        }
        if (t instanceof java.io.EOFException) {
            return ErrorClass.UNKNOWN_OUTCOME;
        }
        if (msg.contains("503") && msg.contains("service unavailable")) {
            return ErrorClass.SAFE_TO_RETRY;
        }
        if (msg.contains("failed to respond") || msg.contains("connection reset") || msg.contains("broken pipe")
            || msg.contains("read timed out") || msg.contains("premature end")) {
            return ErrorClass.UNKNOWN_OUTCOME;
        }
        if (msg.contains("transport error: 500")) {
            // the server answered a failure whose text did not arrive (the official client's "unknown server error"): as a
            // per-block code, nothing written for one block, an unknown outcome where a block may have landed
            return mayHaveWritten ? ErrorClass.UNKNOWN_OUTCOME : ErrorClass.SAFE_TO_RETRY;
        }
        return null;
    }
}
