package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The engines of issue 13's last cut through the official JDBC driver: a Buffer table fed by batches (reads see the
 * buffered rows at once, the destination gets them when max_time passes), AggregatingMergeTree behind a materialized
 * view (sumMerge/uniqMerge over the states; FINAL leaves one row per key), VersionedCollapsingMergeTree (a state
 * cancelled by its -1 row with the same version even when the -1 row came first), and EPHEMERAL columns given by a
 * PreparedStatement.
 */
class MergingEnginesJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static String rows(Connection c, String sql) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
                    sb.append(i > 1 ? "," : "").append(rs.getString(i));
                }
                sb.append(';');
            }
        }
        return sb.toString();
    }

    @Test
    void aBufferFlushesToItsDestinationWhenMaxTimePasses() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE hits (id UInt32, url String) ENGINE = MergeTree ORDER BY id");
            st.execute("CREATE TABLE hits_buffer (id UInt32, url String) ENGINE = Buffer(default, hits, 1, 10, 1, 100000, 1000000, 10000000, 100000000)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO hits_buffer (id, url) VALUES (?, ?)")) {
                for (int i = 0; i < 50; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "/p" + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            assertEquals("50;", rows(c, "SELECT count() FROM hits_buffer"), "the buffered rows are read at once");
            long deadline = System.nanoTime() + 10_000_000_000L;
            String inDestination = rows(c, "SELECT count() FROM hits");
            while (!inDestination.equals("50;") && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L); // polls the condition until the deadline
                inDestination = rows(c, "SELECT count() FROM hits");
            }
            assertEquals("50;", inDestination, "max_time = 1 s: the destination has every row");
            assertEquals("50;", rows(c, "SELECT count() FROM hits_buffer"), "and the buffer reads them once, not twice");
        }
    }

    @Test
    void anAggregatingMergeTreeBehindAMaterializedView() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE visits (day Date, user UInt32, ms UInt64) ENGINE = MergeTree ORDER BY day");
            st.execute("CREATE TABLE daily (day Date, total AggregateFunction(sum, UInt64), users AggregateFunction(uniq, UInt32),"
                + " longest SimpleAggregateFunction(max, UInt64)) ENGINE = AggregatingMergeTree ORDER BY day");
            st.execute("CREATE MATERIALIZED VIEW daily_mv TO daily AS SELECT day, sumState(ms) AS total, uniqState(user) AS users,"
                + " max(ms) AS longest FROM visits GROUP BY day");
            for (int batch = 0; batch < 3; batch++) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO visits VALUES (?, ?, ?)")) {
                    for (int u = 0; u < 4; u++) {
                        ps.setString(1, "2024-03-0" + (1 + u % 2));
                        ps.setInt(2, u + batch);
                        ps.setLong(3, 10L * (u + 1) + batch);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            String expected = "2024-03-01,126,5,32;2024-03-02,186,5,42;";
            assertEquals(expected, rows(c, "SELECT day, sumMerge(total), uniqMerge(users), max(longest) FROM daily GROUP BY day ORDER BY day"));
            assertEquals("6;", rows(c, "SELECT count() FROM daily"), "one row per day and insert until a merge");
            assertEquals("2;", rows(c, "SELECT count() FROM daily FINAL"));
            st.execute("OPTIMIZE TABLE daily FINAL");
            assertEquals("2;", rows(c, "SELECT count() FROM daily"));
            assertEquals(expected, rows(c, "SELECT day, sumMerge(total), uniqMerge(users), longest FROM daily GROUP BY day, longest ORDER BY day"));
        }
    }

    @Test
    void versionedCollapsingCancelsInAnyOrder() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE sessions (id UInt32, pages UInt16, sign Int8, version UInt8)"
                + " ENGINE = VersionedCollapsingMergeTree(sign, version) ORDER BY id");
            st.execute("INSERT INTO sessions VALUES (1, 5, -1, 1)"); // the cancel row first
            st.execute("INSERT INTO sessions VALUES (1, 5, 1, 1), (1, 6, 1, 2), (2, 3, 1, 1)");
            assertEquals("1,6,1,2;2,3,1,1;", rows(c, "SELECT * FROM sessions FINAL ORDER BY id"));
            assertEquals("4;", rows(c, "SELECT count() FROM sessions"));
            st.execute("OPTIMIZE TABLE sessions FINAL");
            assertEquals("1,6,1,2;2,3,1,1;", rows(c, "SELECT * FROM sessions ORDER BY id"));
        }
    }

    @Test
    void ephemeralColumnsFeedDefaultsAndAreNeverStored() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ev (id UInt32, raw String EPHEMERAL, len UInt32 DEFAULT length(raw), up String DEFAULT upper(raw))"
                + " ENGINE = MergeTree ORDER BY ()");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ev (id, raw) VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setString(2, "hello");
                ps.addBatch();
                ps.setInt(1, 2);
                ps.setString(2, "ok");
                ps.addBatch();
                ps.executeBatch();
            }
            assertEquals("1,5,HELLO;2,2,OK;", rows(c, "SELECT * FROM ev ORDER BY id"));
            try (ResultSet rs = c.getMetaData().getColumns(null, "default", "ev", "%")) {
                StringBuilder names = new StringBuilder();
                while (rs.next()) {
                    names.append(rs.getString("COLUMN_NAME")).append(' ');
                }
                assertTrue(names.toString().contains("raw"), "JDBC metadata lists the EPHEMERAL column as system.columns does: " + names);
            }
        }
    }
}
