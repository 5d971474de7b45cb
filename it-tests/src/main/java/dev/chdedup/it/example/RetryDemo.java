package dev.chdedup.it.example;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A newcomer's tour from URL swap to a retried insert: starts the embedded stub, makes the server drop the
 * connection after committing an INSERT (the client cannot know it landed), and shows the official driver
 * duplicating the rows on its own retry while the dedup driver ends with exactly one copy. Run:
 * {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.example.RetryDemo}.
 */
public final class RetryDemo {
    private RetryDemo() {
    }

    public static void main(String[] args) throws Exception {
        try (StubServer server = StubServer.builder().port(0).build().start()) {
            String official = server.jdbcUrl();
            String ours = "jdbc:dedup:clickhouse://127.0.0.1:" + server.port() + "/default?retry.maxAttempts=5&retry.initialBackoffMs=50";
            try (Connection c = DriverManager.getConnection(official); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE events (id UInt64, what String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 1000");
            }
            System.out.println("1. The official driver, the server drops the connection after committing:");
            try (Connection c = DriverManager.getConnection(official); Statement st = c.createStatement()) {
                st.execute("SYSTEM ENABLE FAILPOINT stub_insert_drop_after_commit FOR 1 INSERTS ON TABLE events");
                try {
                    st.executeUpdate("INSERT INTO events VALUES (1, 'signup'), (2, 'login')");
                    System.out.println("   the insert 'succeeded' after the client's own retry");
                } catch (SQLException e) {
                    System.out.println("   the insert failed: " + e.getMessage());
                    System.out.println("   the application retries it, as it must not lose the rows");
                    st.executeUpdate("INSERT INTO events VALUES (1, 'signup'), (2, 'login')");
                }
                System.out.println("   rows in the table: " + count(st) + " (2 were inserted)");
                st.execute("TRUNCATE TABLE events");
            }
            System.out.println("2. The dedup driver, same fault:");
            try (Connection c = DriverManager.getConnection(ours); Statement st = c.createStatement()) {
                st.execute("SYSTEM ENABLE FAILPOINT stub_insert_drop_after_commit FOR 1 INSERTS ON TABLE events");
                st.executeUpdate("INSERT INTO events VALUES (1, 'signup'), (2, 'login')");
                DedupStatement info = st.unwrap(DedupStatement.class);
                System.out.println("   attempts: " + info.lastAttempts() + ", token: " + info.lastToken());
                System.out.println("   rows in the table: " + count(st) + " (2 were inserted)");
            }
        }
    }

    private static long count(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count() FROM events")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
