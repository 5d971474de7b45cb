package dev.chdedup.it.retry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The three ways an application inserts, each writing {@link #rows} distinct ids from a base: a Statement with
 * {@code INSERT ... VALUES}, a PreparedStatement batch of 100 rows, and {@code INSERT ... SELECT FROM numbers(..)}.
 * Works with the raw official driver and with ours; reports what our driver says about the execution.
 */
enum InsertForm {
    STATEMENT_VALUES(10) {
        @Override
        RetryFixtures.Sent insert(Connection c, String table, long base) throws SQLException {
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (id, s) VALUES ");
            for (long i = 0; i < rows; i++) {
                sql.append(i == 0 ? "" : ", ").append('(').append(base + i).append(", 'row ").append(base + i).append("')");
            }
            try (Statement st = c.createStatement()) {
                st.executeUpdate(sql.toString());
                return RetryFixtures.Sent.of(st);
            }
        }
    },
    PREPARED_BATCH(100) {
        @Override
        RetryFixtures.Sent insert(Connection c, String table, long base) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
                for (long i = 0; i < rows; i++) {
                    ps.setLong(1, base + i);
                    ps.setString(2, "row " + (base + i));
                    ps.addBatch();
                }
                ps.executeBatch();
                return RetryFixtures.Sent.of(ps);
            }
        }
    },
    INSERT_SELECT(1000) {
        @Override
        RetryFixtures.Sent insert(Connection c, String table, long base) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + table + " (id, s) SELECT number + " + base + ", toString(number) FROM numbers(" + rows + ")");
                return RetryFixtures.Sent.of(st);
            }
        }
    };

    final long rows;

    InsertForm(long rows) {
        this.rows = rows;
    }

    /** Inserts ids {@code base .. base + rows - 1}. */
    abstract RetryFixtures.Sent insert(Connection c, String table, long base) throws SQLException;
}
