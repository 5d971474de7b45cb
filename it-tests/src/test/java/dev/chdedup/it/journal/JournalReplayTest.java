package dev.chdedup.it.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupMetrics;
import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.driver.journal.JournalEntry;
import dev.chdedup.driver.journal.JournalReplay;
import dev.chdedup.driver.journal.JournalSettings;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The journal in one process, a "restart" being the journal closed and opened again: an insert that gives up with
 * an unknown outcome stays pending (the exception says so) and the next first connection re-sends it with its own
 * token, whether it had landed or not, counting it; an insert proved not written leaves nothing pending;
 * {@code dedup.journalReplay=manual} leaves the re-send to {@code DedupJournal.replay}; an entry the window no
 * longer protects fails the replay (default), is skipped or re-sent as {@code dedup.journalStale} says.
 */
class JournalReplayTest extends JournalTestBase {
    @Test
    void anInsertThatGaveUpUnknownIsReSentAtTheNextOpen() throws SQLException {
        String t = logTable();
        // the first: committed, acknowledgement lost every time; the second: refused before the write with an unknown outcome
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(2));
        String landed;
        String notLanded;
        try (Connection c = DriverManager.getConnection(url()); Statement st = c.createStatement()) {
            DedupInsertException e = assertThrows(DedupInsertException.class,
                () -> st.executeUpdate("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')"));
            assertTrue(e.getMessage().contains("stays pending in the insert journal " + dir.toRealPath()), e.getMessage());
            landed = e.token();
            stub().faults().add(new FaultRule(FaultKind.ERROR_CODE, t, 2, 319, 0));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?)")) {
                for (int i = 3; i <= 5; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "{fn now()}");
                    ps.addBatch();
                }
                BatchUpdateException b = assertThrows(BatchUpdateException.class, ps::executeBatch);
                notLanded = assertInstanceOf(DedupInsertException.class, b.getCause()).token();
            }
            List<JournalEntry> pending = DedupJournal.open(dir).pending();
            assertEquals(List.of(landed, notLanded), pending.stream().map(JournalEntry::token).toList());
            assertEquals(t, pending.get(1).target());
            // the PreparedStatement batch is journaled as RowBinary: its statement and its body, re-sent byte for byte
            assertTrue(pending.get(1).rowBinary() && pending.get(1).sql().endsWith("(`id`, `s`) FORMAT RowBinary"), pending.get(1).toString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertArrayEquals(new long[] {2, 2}, countAndUniq(t));
        restart();
        long before = DedupMetrics.INSTANCE.getJournalResent();
        try (Connection c = DriverManager.getConnection(url())) {
            assertEquals(List.of(), DedupJournal.open(dir).pending());
        }
        assertEquals(before + 2, DedupMetrics.INSTANCE.getJournalResent());
        assertArrayEquals(new long[] {5, 5}, countAndUniq(t), "the landed one was dropped as a duplicate, the other landed");
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement()) {
            st.setEscapeProcessing(false);
            try (ResultSet rs = st.executeQuery("SELECT count() FROM " + t + " WHERE s = '{fn now()}'")) {
                rs.next();
                assertEquals(3, rs.getLong(1), "the re-send is byte-identical: the value's braces were not taken for an escape");
            }
        }
    }

    @Test
    void aStatementIsJournaledAsItWasSentWithItsEscapesConverted() throws SQLException {
        String t = logTable();
        String sql = "INSERT INTO " + t + " VALUES (1, {fn concat('a', 'b')}), (2, '{d ''2024-01-02''}')";
        stub().faults().add(new FaultRule(FaultKind.ERROR_CODE, t, 2, 319, 0));
        try (Connection c = DriverManager.getConnection(url()); Statement st = c.createStatement()) {
            assertThrows(DedupInsertException.class, () -> st.executeUpdate(sql));
            assertTrue(!DedupJournal.open(dir).pending().get(0).sql().contains("{fn"), DedupJournal.open(dir).pending().get(0).sql());
        }
        restart();
        try (Connection c = DriverManager.getConnection(url())) {
            assertEquals(0, DedupJournal.open(dir).size());
        }
        // what the official driver itself makes of the same statement
        String direct = logTable();
        exec(sql.replace(t, direct));
        assertEquals(values(direct), values(t));
        assertEquals(2, values(t).size());
    }

    private static List<String> values(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT s FROM " + table + " ORDER BY id")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }

    @Test
    void aReSendThatFailsKeepsTheEntryAndFailsTheConnectionUntilOneSucceeds() throws SQLException {
        String t = logTable();
        leavePending(entry(t, "refused", 9, System.currentTimeMillis()));
        stub().faults().add(FaultRule.of(FaultKind.HTTP_503).onTable(t).times(2));
        long failures = DedupMetrics.INSTANCE.getJournalReplayFailures();
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url()));
        assertTrue(e.getMessage().contains("could not be re-sent and stay pending"), e.getMessage());
        assertEquals(failures + 1, DedupMetrics.INSTANCE.getJournalReplayFailures());
        assertEquals(1, DedupJournal.open(dir).pending().size());
        try (Connection c = DriverManager.getConnection(url())) {
            assertEquals(0, DedupJournal.open(dir).size(), "the next connection tried again");
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(t));

        leavePending(entry("default.dropped_table", "gone", 1, System.currentTimeMillis()));
        try (Connection c = DriverManager.getConnection(url("dedup.journalStale=resend"))) {
            assertEquals(0, DedupJournal.open(dir).size(), "refused for good (unknown table): dropped, with an error in the log");
        }
    }

    /**
     * {@code dedup.journalReplay=auto}, the default: a link that fails the re-send (three 503s: two rounds of two
     * attempts) does not keep the application from connecting. The connection is handed out at once and works; the
     * entry stays pending and a background thread re-sends it after the retry policy's backoff until it lands.
     * Blocking, as before, the connect failed.
     */
    @Test
    void aReSendThatFailsDoesNotKeepTheApplicationFromConnectingAndLandsInTheBackground() throws Exception {
        String t = logTable();
        leavePending(entry(t, "background", 9, System.currentTimeMillis()));
        stub().faults().add(FaultRule.of(FaultKind.HTTP_503).onTable(t).times(3));
        long failures = DedupMetrics.INSTANCE.getJournalReplayFailures();
        String app = logTable(); // the application's own table: the faults are armed on the pending entry's
        try (Connection c = DriverManager.getConnection(url("dedup.journalReplay=auto")); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + app + " VALUES (10, 'app')");
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (DedupJournal.open(dir).size() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling the background re-send, with a deadline
            }
            assertEquals(0, DedupJournal.open(dir).size(), "the background re-send landed");
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(t), "the pending row, once");
        assertArrayEquals(new long[] {1, 1}, countAndUniq(app), "the application's row, while the re-send was failing");
        assertTrue(DedupMetrics.INSTANCE.getJournalReplayFailures() > failures, "the failed round is counted");
        assertEquals(3, stub().faults().journal().stream().filter(e -> e.kind() == FaultKind.HTTP_503 && t.equals(e.database() + "." + e.table()))
            .count(), "three rounds' attempts met the faults");
    }

    /**
     * A re-send answered 200 with {@code X-ClickHouse-Exception-Code: 209} (its body cut while the server read it, the
     * complete rows before the cut committed) is a failure of unknown outcome, not a success: the entry is sent again,
     * and as the body went as one compressed frame the cut committed nothing, so the row lands once.
     */
    @Test
    void aReSendAnswered200WithAnExceptionCodeIsSentAgain() throws SQLException {
        String t = logTable();
        leavePending(entry(t, "cut-200", 11, System.currentTimeMillis()));
        stub().faults().add(FaultRule.of(FaultKind.COMMIT_CUT_BODY_200).onTable(t).times(1));
        try (Connection c = DriverManager.getConnection(url())) {
            assertEquals(0, DedupJournal.open(dir).size());
        }
        assertEquals(1, stub().faults().journal().stream().filter(e -> e.kind() == FaultKind.COMMIT_CUT_BODY_200).count());
        assertArrayEquals(new long[] {1, 1}, countAndUniq(t));
    }

    @Test
    void acknowledgedAndRefusedInsertsLeaveNothingPending() throws SQLException {
        String t = logTable();
        stub().faults().add(FaultRule.of(FaultKind.HTTP_503).onTable(t).times(2));
        try (Connection c = DriverManager.getConnection(url()); Statement st = c.createStatement()) {
            DedupInsertException e = assertThrows(DedupInsertException.class,
                () -> st.executeUpdate("INSERT INTO " + t + " VALUES (1, 'a')"));
            assertTrue(e.getMessage().contains("Nothing was written"), e.getMessage());
            st.executeUpdate("INSERT INTO " + t + " VALUES (2, 'b')");
            assertThrows(SQLException.class, () -> st.executeUpdate("INSERT INTO default.no_such_table VALUES (1)"));
            assertEquals(0, DedupJournal.open(dir).size());
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(t));
    }

    @Test
    void manualReplayLeavesTheReSendToTheApplication() throws SQLException {
        String t = logTable();
        leavePending(entry(t, "manual-1", 7, System.currentTimeMillis()));
        try (Connection c = DriverManager.getConnection(url("dedup.journalReplay=manual"))) {
            DedupJournal k = DedupJournal.open(dir);
            assertEquals(List.of("manual-1"), k.pending().stream().map(JournalEntry::token).toList());
            assertArrayEquals(new long[] {0, 0}, countAndUniq(t));
            assertEquals(new JournalReplay.Report(1, 0, 0), k.replay(c));
            assertEquals(new JournalReplay.Report(0, 0, 0), k.replay(c), "nothing left");
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(t));
        SQLException e = assertThrows(SQLException.class, () -> {
            DedupJournal k = DedupJournal.open(dir);
            k.release(k.append(entry(t, "manual-2", 8, System.currentTimeMillis())));
            try (Connection raw = DriverManager.getConnection(stub().jdbcUrl())) {
                k.replay(raw);
            }
        });
        assertTrue(e.getMessage().contains("needs a connection of the chdedup driver"), e.getMessage());
    }

    @Test
    void aStaleEntryFailsTheReplayUnlessToldToSkipOrResend() throws SQLException {
        String noLog = table("MergeTree ORDER BY id");
        String replicated = table("ReplicatedMergeTree ORDER BY id SETTINGS replicated_deduplication_window_seconds = 60");
        leavePending(entry(noLog, "no-log", 1, System.currentTimeMillis()),
            entry(replicated, "too-old", 2, System.currentTimeMillis() - 600_000),
            entry(replicated, "fresh", 3, System.currentTimeMillis() - 1_000));
        long stale = DedupMetrics.INSTANCE.getJournalStale();
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url()));
        String m = e.getMessage();
        assertTrue(m.contains("'no-log' into " + noLog + " (the table keeps no deduplication log"), m);
        assertTrue(m.contains("'too-old' into " + replicated + " (journaled 600 s ago, older than"
            + " replicated_deduplication_window_seconds = 60)"), m);
        assertTrue(!m.contains("'fresh'") && m.contains("dedup.journalStale=resend or skip"), m);
        assertEquals(stale + 2, DedupMetrics.INSTANCE.getJournalStale());
        assertArrayEquals(new long[] {0, 0}, countAndUniq(replicated), "nothing was sent");
        assertEquals(3, DedupJournal.open(dir).pending().size(), "and everything stays pending");

        try (Connection c = DriverManager.getConnection(url("dedup.journalStale=skip"))) {
            assertEquals(List.of(), DedupJournal.open(dir).pending());
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(replicated), "only the fresh one was re-sent");
        assertArrayEquals(new long[] {0, 0}, countAndUniq(noLog), "the stale ones were skipped");

        leavePending(entry(noLog, "no-log-2", 4, System.currentTimeMillis()));
        try (Connection c = DriverManager.getConnection(url("dedup.journalStale=resend"))) {
            assertEquals(List.of(), DedupJournal.open(dir).pending());
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(noLog), "re-sent as told");

        leavePending(entry(noLog, "no-log-3", 5, System.currentTimeMillis()),
            entry(replicated, "too-old-2", 6, System.currentTimeMillis() - 600_000));
        try (Connection c = DriverManager.getConnection(url("dedup.journalReplay=manual"))) {
            DedupJournal manual = DedupJournal.open(dir);
            assertThrows(SQLException.class, () -> manual.replay(c));
            assertEquals(new JournalReplay.Report(0, 2, 0), manual.replay(c, JournalSettings.Stale.SKIP));
            assertEquals(List.of(), manual.pending());
        }
        assertArrayEquals(new long[] {1, 1}, countAndUniq(noLog), "skipped, not sent");
    }

    static JournalEntry entry(String table, String token, long id, long createdMillis) {
        String[] dt = table.split("\\.");
        return new JournalEntry(-1, token, dt[0], dt[1], "INSERT_VALUES", 1, "INSERT INTO " + table + " VALUES (" + id + ", 'j')",
            Map.of("insert_deduplication_token", token, "insert_deduplicate", "1"), createdMillis);
    }
}
