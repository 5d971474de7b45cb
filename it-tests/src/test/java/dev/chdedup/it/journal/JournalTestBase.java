package dev.chdedup.it.journal;

import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.driver.journal.JournalEntry;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the journal suites share: one stub per class, a fresh journal directory per test (closed after it, so that
 * every test starts as a new process would), our driver's URL with that journal and short retries, tables with a
 * deduplication log, and the count/uniqExact check, both through the raw official driver.
 */
abstract class JournalTestBase {
    private static final AtomicInteger TABLES = new AtomicInteger();
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    @TempDir
    Path dir;

    static StubServer stub() {
        return STUB.server();
    }

    @AfterEach
    void closeJournal() throws SQLException {
        stub().faults().clear();
        DedupJournal.open(dir).close();
    }

    /** Closes the journal as a process exit would, keeping its file. */
    void restart() throws SQLException {
        DedupJournal.open(dir).close();
    }

    /** Leaves {@code entries} pending in this test's journal, as a process that died with them in flight would. */
    void leavePending(JournalEntry... entries) throws SQLException {
        DedupJournal j = DedupJournal.open(dir);
        for (JournalEntry e : entries) {
            j.release(j.append(e));
        }
        restart();
    }

    /**
     * Our URL with this test's journal, 2 attempts and short backoff, a replay that is done before the connection is
     * handed out ({@code dedup.journalReplay=blocking}, so a test can look at once), and {@code k=v} extras (a later
     * one wins).
     */
    String url(String... params) {
        return "jdbc:dedup:" + stub().jdbcUrl().substring("jdbc:".length()) + "?retry.initialBackoffMs=10&retry.maxBackoffMs=50"
            + "&retry.maxAttempts=2&dedup.journalReplay=blocking&dedup.journalDir=" + dir
            + (params.length == 0 ? "" : "&" + String.join("&", params));
    }

    static String table(String engine) throws SQLException {
        String t = "default.journal_" + TABLES.incrementAndGet();
        exec("CREATE TABLE " + t + " (id UInt64, s String) ENGINE = " + engine);
        return t;
    }

    static String logTable() throws SQLException {
        return table("MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 1000");
    }

    static void exec(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    static long[] countAndUniq(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM " + table)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }
}
