package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.retry.RetryExecutor;
import dev.chdedup.retry.RetryListener;
import dev.chdedup.retry.RetryPolicy;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What an INSERT says when the policy gave up: only settings the server has, the token, the blocks that may have landed. */
class GiveUpMessageTest {
    private static RetryExecutor.GaveUpException gaveUp(int attempts, Exception last) {
        RetryPolicy once = new RetryPolicy(attempts, Duration.ofMillis(1), Duration.ofMillis(1), 1.0, 0, Duration.ofSeconds(10));
        return assertThrows(RetryExecutor.GaveUpException.class, () -> new RetryExecutor(once).execute(n -> {
            throw last;
        }, false, RetryListener.NONE));
    }

    private static TableInfo mergeTree(Set<String> serverSettings) {
        return new TableInfo("db", "t", "MergeTree", false, 0, 0, false, false, serverSettings, Map.of(), null, null, null);
    }

    @Test
    void anUnknownOutcomeIntoATableWithoutALogNamesOnlySettingsTheServerHas() {
        RetryExecutor.GaveUpException e = gaveUp(1, new SocketTimeoutException("Read timed out"));
        String old = GiveUpMessage.exception(e, null, mergeTree(Set.of(TableInfo.REPLICATED_WINDOW)), false, false, false).getMessage();
        assertTrue(old.contains("it has no setting non_replicated_deduplication_window"), old);
        assertFalse(old.contains("MODIFY SETTING"), "no ALTER a server without the setting would refuse: " + old);
        String current = GiveUpMessage.exception(e, "tok", mergeTree(Set.of(TableInfo.NON_REPLICATED_WINDOW)), false, false, false)
            .getMessage();
        assertTrue(current.contains("MODIFY SETTING non_replicated_deduplication_window = 1000") && current.contains("Token: tok."), current);
        String strict = GiveUpMessage.exception(e, null, mergeTree(Set.of()), false, false, true).getMessage();
        assertTrue(strict.contains("dedup.mode=strict inserts without deduplication"), strict);
    }

    @Test
    void aRefusedInsertThatMaySpanBlocksSaysSomeMayHaveLanded() {
        RetryExecutor.GaveUpException e = gaveUp(1, new SQLException("Code: 62. DB::Exception: Syntax error"));
        assertEquals("Code: 62. DB::Exception: Syntax error", GiveUpMessage.exception(e, null, mergeTree(Set.of()), true, true, false).getMessage());
        assertTrue(GiveUpMessage.mayFollowACommittedPart(252), "TOO_MANY_PARTS may come between blocks");
        assertFalse(GiveUpMessage.mayFollowACommittedPart(62));
        assertFalse(GiveUpMessage.mayFollowACommittedPart(0));
    }

    @Test
    void earlierAttemptsAreSuppressedAndTheTokenIsNamed() {
        RetryExecutor.GaveUpException e = gaveUp(3, new SQLException("Code: 202. DB::Exception: Too many simultaneous queries"));
        SQLException out = GiveUpMessage.exception(e, "tok-1", mergeTree(Set.of()), true, false, false);
        assertTrue(out.getMessage().startsWith("INSERT into db.t gave up after 3 attempt(s) with insert_deduplication_token 'tok-1'."),
            out.getMessage());
        assertEquals(2, out.getSuppressed().length);
    }
}
