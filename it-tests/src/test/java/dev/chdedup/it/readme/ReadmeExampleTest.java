package dev.chdedup.it.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's two examples, as they are printed there: the dedup driver under HikariCP, and the stub in a JUnit 5 test. */
class ReadmeExampleTest {
    @RegisterExtension
    static StubServerExtension stub = StubServerExtension.builder().build();   // one server for the class

    @Test
    void aLostAcknowledgementStillLandsOnce(StubServer server) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.jdbcUrl().replace("jdbc:", "jdbc:dedup:") + "?retry.maxAttempts=5");
        try (HikariDataSource pool = new HikariDataSource(config);
             Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE events (id UInt64, s String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 100");
            // the server commits the insert, then resets the connection: the client cannot know it landed
            server.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default.events").times(1));
            st.executeUpdate("INSERT INTO events VALUES (1, 'a'), (2, 'b')");   // retried with the same token
            try (ResultSet rs = st.executeQuery("SELECT count() FROM events")) {
                rs.next();
                assertEquals(2, rs.getLong(1));                                 // once, not twice
            }
            assertEquals(1, server.faults().fired(FaultKind.DROP_AFTER_COMMIT));
        }
    }

    /** The README's driver example, with the stub's URL in place of ch.example. */
    static void writeEvents(String url) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        try (HikariDataSource pool = new HikariDataSource(config);
             Connection c = pool.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO events (id, s) VALUES (?, ?)")) {
            for (int id = 0; id < 1000; id++) {
                ps.setLong(1, id);
                ps.setString(2, "row " + id);
                ps.addBatch();
            }
            try {
                ps.executeBatch();            // one token for the batch, kept for every retry
            } catch (DedupInsertException e) {
                ps.unwrap(DedupStatement.class).setNextToken(e.token());
                throw e;
            }
        }
    }

    @Test
    void theDriverExampleWritesEachRowOnceThroughALostAcknowledgement(StubServer server) throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS events (id UInt64, s String) ENGINE = MergeTree ORDER BY id"
                    + " SETTINGS non_replicated_deduplication_window = 100");
            st.execute("TRUNCATE TABLE events");
        }
        server.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default.events").times(1));
        writeEvents(server.jdbcUrl().replace("jdbc:", "jdbc:dedup:") + "?retry.maxAttempts=5");
        try (Connection c = java.sql.DriverManager.getConnection(server.jdbcUrl()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM events")) {
            rs.next();
            assertEquals(1000, rs.getLong(1));
            assertEquals(1000, rs.getLong(2));
            st.execute("DROP TABLE events");   // the other example creates its own
        }
    }
}
