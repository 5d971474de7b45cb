package dev.chdedup.it.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Who shares a journal: every connection of a HikariCP pool (one journal per directory and process, appended to by
 * many threads at once, empty again when nothing is in flight), async-insert connections, and never a second
 * process: it fails to open a directory another process holds, with a message that says so, until that one dies.
 */
class JournalSharingTest extends JournalTestBase {
    @Test
    void aSecondProcessCannotOpenTheJournal() throws Exception {
        try (ChildJvm holder = ChildJvm.start(JournalWriter.class, List.of(), dir.toString(), "hold")) {
            holder.await(false, "HOLDING"::equals, 1, 30_000, "HOLDING");
            SQLException e = assertThrows(SQLException.class, () -> DedupJournal.open(dir));
            assertTrue(e.getMessage().contains("is in use by another process") && e.getMessage().contains("journal.lock"), e.getMessage());
            e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url()));
            assertTrue(e.getMessage().contains("is in use by another process"), e.getMessage());
            holder.kill();
        }
        try (Connection c = DriverManager.getConnection(url())) {
            assertEquals(0, DedupJournal.open(dir).size(), "the dead process's lock is gone");
        }
    }

    @Test
    void aPoolsConnectionsShareOneJournal() throws Exception {
        String t = logTable();
        HikariConfig config = new HikariConfig();
        config.setMaximumPoolSize(4);
        config.setJdbcUrl(url("retry.maxAttempts=5"));
        try (HikariDataSource pool = new HikariDataSource(config)) {
            DedupJournal journal = DedupJournal.open(dir);
            ExecutorService threads = Executors.newFixedThreadPool(4);
            List<Future<?>> futures = new ArrayList<>();
            for (int th = 0; th < 4; th++) {
                int thread = th;
                futures.add(threads.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        if (i % 5 == 0) {
                            stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
                        }
                        try (Connection c = pool.getConnection();
                             PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?)")) {
                            for (int r = 0; r < 20; r++) {
                                ps.setLong(1, (thread * 15L + i) * 20 + r);
                                ps.setString(2, "p");
                                ps.addBatch();
                            }
                            ps.executeBatch();
                            assertSame(journal, DedupJournal.open(dir));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            threads.shutdown();
            assertEquals(0, journal.size());
            assertEquals(8, journal.fileBytes(), "nothing in flight: the journal file holds its header only");
        }
        assertArrayEquals(new long[] {4 * 15 * 20, 4 * 15 * 20}, countAndUniq(t));
    }

    @Test
    void anAsyncInsertLeftPendingIsReSentThroughTheAsyncQueue() throws SQLException {
        String t = logTable();
        String async = url("clickhouse_setting_async_insert=1", "clickhouse_setting_async_insert_busy_timeout_ms=50");
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(2));
        try (Connection c = DriverManager.getConnection(async); Statement st = c.createStatement()) {
            assertThrows(DedupInsertException.class, () -> st.executeUpdate("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')"));
            assertEquals("1", DedupJournal.open(dir).pending().get(0).settings().get("wait_for_async_insert"));
        }
        DedupJournal.open(dir).close();
        try (Connection c = DriverManager.getConnection(async)) {
            assertEquals(0, DedupJournal.open(dir).size());
        }
        assertArrayEquals(new long[] {2, 2}, countAndUniq(t));
    }
}
