package dev.chdedup.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class ErrorClassifierTest {
    private static SQLException ch(int code) {
        return new SQLException("Code: " + code + ". DB::Exception: something (X)", "22000", code);
    }

    @Test
    void clickHouseCodesFollowTheirClass() {
        for (int c : new int[] {202, 203, 164, 242, 252, 241, 285, 286, 33}) {
            assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(ch(c)), "code " + c);
        }
        for (int c : new int[] {209, 210, 3, 159, 319, 999, 244, 425}) {
            assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(ch(c)), "code " + c);
        }
        for (int c : new int[] {62, 60, 115, 27, 53, 516, 81}) {
            assertEquals(ErrorClass.NEVER, ErrorClassifier.classify(ch(c)), "code " + c);
        }
    }

    @Test
    void codeIsReadFromMessagesWhenTheExceptionHasNone() {
        Exception e = new RuntimeException("wrapped", new IOException("Code: 319. DB::Exception: Unknown status (UNKNOWN_STATUS_OF_INSERT)"));
        assertEquals(319, ErrorClassifier.codeOf(e));
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(e));
    }

    @Test
    void networkFailuresFollowTheCauseChain() {
        assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(new SQLException("x", new ConnectException("Connection refused"))));
        assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(new SQLException("x", new SocketTimeoutException("connect timed out"))));
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(new SQLException("x", new SocketTimeoutException("Read timed out"))));
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(new SQLException("x", new SocketException("Connection reset"))));
        assertEquals(ErrorClass.NEVER, ErrorClassifier.classify(new SQLException("Syntax error", "42000", 0)));
    }

    @Test
    void unknownOutcomeWinsOverSafeInOneChain() {
        Exception e = new SQLException("outer", new SocketTimeoutException("Read timed out"));
        e.addSuppressed(new ConnectException());
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(new RuntimeException(ch(202).getMessage(), e)));
    }

    /** What ClickHouse 18.16 answers, as the official driver 0.10.0 raises it: SQLState 22000, errorCode 0. */
    private static SQLException old(int code, String message) {
        return new SQLException("Code: " + code + ", e.displayText() = DB::Exception: " + message + ", e.what() = DB::Exception"
            + " (transport error: 500)", "22000", 0);
    }

    @Test
    void olderServersWriteTheCodeBeforeAComma() {
        assertEquals(115, ErrorClassifier.codeOf(old(115, "Unknown setting deduplicate_insert")));
        for (int c : new int[] {242, 285, 286, 33}) { // 33: 18.16 on a cut compressed body, "Cannot read all data"
            assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(old(c, "refused")), "code " + c);
        }
        SQLException quorum = old(319, "Unknown status, client must retry. Reason: Code: 159, e.displayText() = DB::Exception: Timeout"
            + " while waiting for quorum, e.what() = DB::Exception");
        assertEquals(319, ErrorClassifier.codeOf(quorum), "the outer code, not the reason's");
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(quorum));
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(old(159, "Timeout while waiting for quorum")));
        assertEquals(ErrorClass.NEVER, ErrorClassifier.classify(old(62, "Syntax error: failed at position 1")));
        assertEquals(0, ErrorClassifier.codeOf(new SQLException("Code: none here, e.displayText() = x")));
    }

    /** A 500 whose body the link lost: the official driver raises it without a code (seen on a real 18.16 behind a lossy link). */
    @Test
    void aFailureWhoseTextWasLostIsRetriedAsAPerBlockCode() {
        SQLException lost = new SQLException("unknown server error (transport error: 500)", "22000", 0);
        assertEquals(0, ErrorClassifier.codeOf(lost));
        assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(lost, false));
        assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(lost, true));
    }

    @Test
    void aCodeRaisedBetweenBlocksIsAnUnknownOutcomeOnceABlockMayHaveLanded() {
        for (int c : new int[] {241, 242, 252, 285, 286, 33}) {
            assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(ch(c), false), "single block, code " + c);
            assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(ch(c), true), "several blocks, code " + c);
            assertEquals(ErrorClass.UNKNOWN_OUTCOME, ErrorClassifier.classify(old(c, "x"), true), "several blocks, old text, code " + c);
        }
        for (int c : ErrorClassifier.BEFORE_WRITE_CODES) {
            assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(ch(c), true), "refused before writing, code " + c);
        }
        assertEquals(ErrorClass.SAFE_TO_RETRY, ErrorClassifier.classify(new SQLException("x", new ConnectException("refused")), true));
        assertEquals(ErrorClass.NEVER, ErrorClassifier.classify(ch(27), true));
    }
}
