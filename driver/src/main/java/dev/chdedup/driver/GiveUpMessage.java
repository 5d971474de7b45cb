package dev.chdedup.driver;

import dev.chdedup.retry.ErrorClass;
import dev.chdedup.retry.ErrorClassifier;
import dev.chdedup.retry.RetryExecutor;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The exception an INSERT ends with once the retry policy gave up, worded for what the user can do next: the server's
 * own error where nothing was retried (noting the blocks that may have landed before it), why an insert of unknown
 * outcome was not re-sent and how to enable that (naming only settings the server has), or how many attempts were made
 * with which token and whether re-sending it is safe. Earlier attempts' errors are attached as suppressed.
 */
final class GiveUpMessage {
    /** Codes a server raises while it parses or plans a query, before it writes a block: syntax, unknown names, access. */
    private static final Set<Integer> PLANNING_CODES = Set.of(16, 46, 47, 60, 62, 73, 81, 115, 164, 192, 194, 497, 516);

    private GiveUpMessage() {
    }

    /**
     * The exception for {@code e}: {@code token} as the server saw it (null: none), whether an unknown outcome could have
     * been retried, whether the insert may have written several parts, and whether dedup.mode=strict met a server
     * without tokens.
     */
    static DedupInsertException exception(RetryExecutor.GaveUpException e, String token, TableInfo info, boolean unknownRetryable,
                                  boolean multiPart, boolean strictWithoutToken) {
        return exception(e, token, info, null, unknownRetryable, multiPart, strictWithoutToken);
    }

    /**
     * As above, where {@code blocker} says why a retry into {@code info}'s table may not be exact although it keeps a log
     * ({@link TableInfo#retryBlocker}), or is null.
     */
    static DedupInsertException exception(RetryExecutor.GaveUpException e, String token, TableInfo info, String blocker,
                                          boolean unknownRetryable, boolean multiPart, boolean strictWithoutToken) {
        DedupMetrics.INSTANCE.giveUps.increment();
        Throwable lastT = e.getCause();
        SQLException last = lastT instanceof SQLException ? (SQLException) lastT : new SQLException(String.valueOf(lastT), "08000", lastT);
        boolean unknown = e.lastClass() == ErrorClass.UNKNOWN_OUTCOME;
        // an earlier attempt of unknown outcome leaves the whole execution unknown, whatever the last one says
        boolean earlierUnknown = !unknown && e.anyUnknown();
        StringBuilder msg = new StringBuilder();
        if (e.lastClass() == ErrorClass.NEVER && e.attempts() == 1) {
            msg.append(last.getMessage());
            if (multiPart && mayFollowACommittedPart(ErrorClassifier.codeOf(last))) {
                msg.append(" (this INSERT may span several blocks or parts: the ones before the error may have landed)");
            }
        } else if (unknown && !unknownRetryable) {
            msg.append("INSERT into ").append(info.describe()).append(" failed with an unknown outcome: the rows may or may not have")
                .append(" landed. It was not retried because ").append(noLogReason(info, blocker, strictWithoutToken))
                .append(", so a retry could duplicate rows. ").append(noLogRemedy(info, blocker, strictWithoutToken)).append(", or set the connection property ").append(DedupProperty.ON_TABLE_WITHOUT_LOG.key)
                .append("=retry to accept duplicates.");
            if (token != null) {
                msg.append(" Token: ").append(token).append('.');
            }
            msg.append(" Last error: ").append(last.getMessage());
        } else {
            msg.append("INSERT into ").append(info.describe()).append(" gave up after ").append(e.attempts()).append(" attempt(s)");
            if (token != null) {
                msg.append(" with insert_deduplication_token '").append(token).append('\'');
            }
            msg.append(". ");
            if (unknown) {
                msg.append(token != null ? "The insert may or may not have landed; re-sending it with the same insert_deduplication_token"
                    + " inside the table's deduplication window is safe. " : "The insert may or may not have landed; re-sending the"
                    + " identical statement inside the table's deduplication window is safe. ");
            } else if (earlierUnknown) {
                msg.append("Nothing was written by the last attempt, but an earlier attempt's outcome is unknown: the insert may or may not"
                    + " have landed; re-sending ").append(token != null ? "it with the same insert_deduplication_token" : "the identical statement")
                    .append(" inside the table's deduplication window is safe. ");
            } else if (e.lastClass() == ErrorClass.SAFE_TO_RETRY) {
                msg.append("Nothing was written by the last attempt. ");
            }
            msg.append("Last error: ").append(last.getMessage());
        }
        DedupInsertException out = new DedupInsertException(msg.toString(), last, token, e.attempts(), unknown || earlierUnknown);
        List<Throwable> earlier = new ArrayList<>(e.errors());
        earlier.remove(earlier.size() - 1);
        for (Throwable t : earlier) {
            out.addSuppressed(t);
        }
        return out;
    }

    /** Whether a failure with {@code code} may come after some blocks of the insert were committed. */
    static boolean mayFollowACommittedPart(int code) {
        return code != 0 && !PLANNING_CODES.contains(code);
    }

    /** Why an insert of unknown outcome into {@code info} is not re-sent, naming only settings the server has. */
    private static String noLogReason(TableInfo info, String blocker, boolean strictWithoutToken) {
        if (strictWithoutToken) {
            return "the server has no insert_deduplication_token and dedup.mode=strict inserts without deduplication";
        }
        if (info.distributed() != null) {
            return blocker != null ? blocker : info.distributed().tableBlocker();
        }
        if (!info.serverHasWindowSetting()) {
            return "this server keeps no deduplication log for a " + info.engine() + " table (it has no setting " + info.windowSetting() + ")";
        }
        return "the table keeps no deduplication log (engine " + info.engine() + ", " + info.windowSetting() + " = 0)";
    }

    private static String noLogRemedy(TableInfo info, String blocker, boolean strictWithoutToken) {
        if (strictWithoutToken) {
            return "Use dedup.mode=token to rely on content hashing";
        }
        if (info.distributed() != null) {
            return info.distributed().remedy();
        }
        if (!info.serverHasWindowSetting()) {
            return "Use a ReplicatedMergeTree table (it keeps a log on this server too) or a server that has " + info.windowSetting();
        }
        return "Enable the log with ALTER TABLE " + info.describe() + " MODIFY SETTING " + info.windowSetting() + " = 1000";
    }
}
