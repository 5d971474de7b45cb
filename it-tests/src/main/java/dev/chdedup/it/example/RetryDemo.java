package dev.chdedup.it.example;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A newcomer's tour from URL swap to a retried insert, against the embedded stub and its SQL failpoints:
 * the official driver duplicating rows when the server closes the connection after committing, ClickHouse's
 * content hashing dropping a legitimate second insert of identical rows, and the dedup driver getting both right.
 * Run: {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.example.RetryDemo}.
 */
public final class RetryDemo {
    private static final String ROWS = "(1, 'click'), (2, 'click')";

    private RetryDemo() {
    }

    public static void main(String[] args) throws Exception {
        try (StubServer server = StubServer.builder().port(0).build().start()) {
            String official = server.jdbcUrl();
            String ours = "jdbc:dedup:clickhouse://127.0.0.1:" + server.port() + "/default?retry.maxAttempts=5&retry.initialBackoffMs=50";
            try (Connection c = DriverManager.getConnection(official); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE plain (id UInt64, what String) ENGINE = MergeTree ORDER BY id");
                st.execute("CREATE TABLE logged (id UInt64, what String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 1000");

                System.out.println("1. Official driver, plain MergeTree; the server commits, then closes without answering:");
                st.execute("SYSTEM ENABLE FAILPOINT stub_insert_close_after_commit FOR 1 INSERTS ON TABLE plain");
                st.executeUpdate("INSERT INTO plain VALUES " + ROWS);
                System.out.println("   executeUpdate returned normally; rows in the table: " + count(st, "plain") + " (2 were inserted)");

                System.out.println("2. Official driver, table with a deduplication log; the same two rows inserted twice on purpose:");
                st.executeUpdate("INSERT INTO logged VALUES " + ROWS);
                st.executeUpdate("INSERT INTO logged VALUES " + ROWS);
                System.out.println("   rows in the table: " + count(st, "logged") + " (4 were inserted: content hashing dropped the second)");
                st.execute("TRUNCATE TABLE logged");
            }
            try (Connection c = DriverManager.getConnection(ours); Statement st = c.createStatement()) {
                System.out.println("3. Dedup driver, same table; the server resets the connection after committing the first insert:");
                st.execute("SYSTEM ENABLE FAILPOINT stub_insert_drop_after_commit FOR 1 INSERTS ON TABLE logged");
                st.executeUpdate("INSERT INTO logged VALUES " + ROWS);
                DedupStatement info = st.unwrap(DedupStatement.class);
                System.out.println("   attempts: " + info.lastAttempts() + ", insert_deduplication_token: " + info.lastToken());
                st.executeUpdate("INSERT INTO logged VALUES " + ROWS);
                System.out.println("   then the same rows again on purpose; rows in the table: " + count(st, "logged") + " (4 were inserted)");

                System.out.println("4. Dedup driver, plain MergeTree (no log), same fault: it refuses to guess:");
                st.execute("SYSTEM ENABLE FAILPOINT stub_insert_drop_after_commit FOR 1 INSERTS ON TABLE plain");
                try {
                    st.executeUpdate("INSERT INTO plain VALUES (3, 'view')");
                } catch (SQLException e) {
                    System.out.println("   " + e.getMessage());
                }
            }
        }
    }

    private static long count(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count() FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
