package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A request body cut off on the way, with a server that commits the complete rows it got (18.16 does; the failpoints
 * {@code stub_insert_commit_cut_body} and {@code _200} play it in every mode). With a token the damage is a loss: the
 * committed prefix carries the token, so the retry is dropped as a duplicate. The driver's compressed framing
 * ({@code dedup.framing=compressed}, the default) makes the cut an error on the server, nothing commits, and the retry
 * lands every row once; {@code dedup.framing=none} shows the loss.
 */
class CutBodyRetryTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    private static long insert50(String url, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
            for (int i = 0; i < 50; i++) {
                ps.setLong(1, i);
                ps.setString(2, "row-" + i);
                ps.addBatch();
            }
            ps.executeBatch();
            return ps.unwrap(DedupStatement.class).lastAttempts();
        }
    }

    @Test
    void aCutBodyCommitsNothingAndTheRetryLandsEveryRowOnce() throws SQLException {
        for (FaultKind kind : new FaultKind[] {FaultKind.COMMIT_CUT_BODY, FaultKind.COMMIT_CUT_BODY_200}) {
            String table = RetryFixtures.createTable(stub(), "cut", true);
            stub().faults().add(FaultRule.of(kind).onTable(table).times(1));
            long attempts = insert50(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY), table);
            assertEquals(1, RetryFixtures.firedOn(stub().faults(), table, kind), kind + " fired");
            assertEquals(2, attempts, kind + ": the cut attempt failed, the retry landed");
            RetryFixtures.assertExactlyOnce(stub(), table, 50);
        }
    }

    /**
     * A RowBinary batch (the PreparedStatement batch above takes that path) cut in flight with no retry allowed: the
     * framed body fails to decompress, nothing of it commits, and the server saw it as {@code FORMAT RowBinary}.
     */
    @Test
    void aCutRowBinaryBatchCommitsNothing() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "cutrb", true);
        stub().faults().add(FaultRule.of(FaultKind.COMMIT_CUT_BODY_200).onTable(table).times(1));
        SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
            () -> insert50(RetryFixtures.oursUrl(stub(), "retry.maxAttempts=1"), table));
        assertEquals(1, RetryFixtures.firedOn(stub().faults(), table, FaultKind.COMMIT_CUT_BODY_200), e.toString());
        assertEquals(0, RetryFixtures.countAndUniq(stub(), table)[0], "rows of the cut batch");
        List<String> inserts = new ArrayList<>();
        try (Connection c = RetryFixtures.raw(stub()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT query FROM system.query_log WHERE query LIKE 'INSERT%"
                 + table.substring(table.indexOf('.') + 1) + "%'")) {
            while (rs.next()) {
                inserts.add(rs.getString(1));
            }
        }
        assertTrue(!inserts.isEmpty() && inserts.stream().allMatch(q -> q.endsWith("FORMAT RowBinary")), "sent as RowBinary: " + inserts);
    }

    @Test
    void withoutFramingTheCommittedPrefixSwallowsTheRetry() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "cutnone", true);
        stub().faults().add(FaultRule.of(FaultKind.COMMIT_CUT_BODY).onTable(table).times(1));
        insert50(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "dedup.framing=none"), table);
        long[] rows = RetryFixtures.countAndUniq(stub(), table);
        assertTrue(rows[0] > 0 && rows[0] < 50, "the prefix landed and the retry was dropped as its duplicate: " + rows[0] + " rows");
    }

    @Test
    void aStatementInsertIsFramedToo() throws SQLException {
        String table = RetryFixtures.createTable(stub(), "cutst", true);
        stub().faults().add(FaultRule.of(FaultKind.COMMIT_CUT_BODY).onTable(table).times(1));
        StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id, s) VALUES ");
        for (int i = 0; i < 50; i++) {
            sql.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'row-").append(i).append("')");
        }
        try (Connection c = DriverManager.getConnection(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY)); Statement st = c.createStatement()) {
            st.executeUpdate(sql.toString());
        }
        RetryFixtures.assertExactlyOnce(stub(), table, 50);
    }
}
