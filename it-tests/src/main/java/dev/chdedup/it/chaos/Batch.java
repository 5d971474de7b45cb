package dev.chdedup.it.chaos;

import dev.chdedup.driver.DedupStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One batch a writer executes: its id (on every one of its rows, with the row's position and a payload derived from
 * both, so two executions of one id have identical content), its row count and whether it goes as a PreparedStatement
 * batch or a Statement with VALUES. {@link #plan} draws a writer's batches from the seed: mostly single rows, some of
 * 100 rows, every {@code largeEvery}-th of 10,000, and every 25th a second execution of the batch before it.
 */
record Batch(long id, int rows, boolean prepared) {
    static final int TWIN_EVERY = 25;

    static List<Batch> plan(long seed, int writer, int count, int largeEvery) {
        Random r = new Random(seed * 31 + writer);
        List<Batch> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean prepared = r.nextBoolean();
            if (i % TWIN_EVERY == TWIN_EVERY - 1) {
                Batch before = out.get(i - 1);
                out.add(new Batch(before.id(), before.rows(), prepared));
                continue;
            }
            int rows = largeEvery > 0 && i % largeEvery == largeEvery - 1 ? 10_000 : r.nextInt(4) == 0 ? 100 : 1;
            out.add(new Batch((long) (writer + 1) * 10_000_000L + i, rows, prepared));
        }
        return out;
    }

    /** What one acknowledged execution took: our driver's attempts and token (0 and null through another driver). */
    record Sent(int attempts, String token) {
    }

    /** Inserts the batch into {@code table} (batch UInt64, seq UInt32, payload String) through {@code c}. */
    Sent insert(Connection c, String table) throws SQLException {
        if (prepared) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (batch, seq, payload) VALUES (?, ?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    ps.setLong(1, id);
                    ps.setInt(2, i);
                    ps.setString(3, payload(i));
                    ps.addBatch();
                }
                ps.executeBatch();
                return attempts(ps);
            }
        }
        StringBuilder sql = new StringBuilder(rows * 32).append("INSERT INTO ").append(table).append(" (batch, seq, payload) VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ",").append('(').append(id).append(',').append(i).append(",'").append(payload(i)).append("')");
        }
        try (Statement st = c.createStatement()) {
            st.executeUpdate(sql.toString());
            return attempts(st);
        }
    }

    private static Sent attempts(Statement st) throws SQLException {
        if (!st.isWrapperFor(DedupStatement.class)) {
            return new Sent(0, null);
        }
        DedupStatement d = st.unwrap(DedupStatement.class);
        return new Sent(d.lastAttempts(), d.lastToken());
    }

    private String payload(int seq) {
        return "b" + id + "-" + seq;
    }
}
