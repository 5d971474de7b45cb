package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupStatement;
import dev.chdedup.stub.conformance.CaseFile;
import dev.chdedup.stub.conformance.CaseRunner;
import dev.chdedup.stub.conformance.ConformanceClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The stub's conformance cases and the driver against a real ClickHouse in Docker (image from the system property
 * {@code chdedup.clickhouse.image}, default a 26.2 server, whose deduplication settings the stub follows). Where no
 * Docker engine runs, as on our build machines, JUnit skips the class.
 */
@Testcontainers(disabledWithoutDocker = true)
class RealClickHouseTest {
    @Container
    static final ClickHouseContainer CLICKHOUSE = new ClickHouseContainer(System.getProperty("chdedup.clickhouse.image",
        "clickhouse/clickhouse-server:26.2"));

    @Test
    void seedCasesBehaveTheSameOnARealServer() throws Exception {
        ConformanceClient client = new ConformanceClient(CLICKHOUSE.getHttpUrl(), CLICKHOUSE.getUsername(), CLICKHOUSE.getPassword());
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, CaseFile> c : CaseRunner.seedCases().entrySet()) {
            List<String> problems = c.getValue().run(client);
            if (!problems.isEmpty()) {
                failures.add(c.getKey() + ": " + problems);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void theDriverDeduplicatesARetriedInsertOnARealServer() throws Exception {
        Properties p = new Properties();
        p.setProperty("user", CLICKHOUSE.getUsername());
        p.setProperty("password", CLICKHOUSE.getPassword());
        String url = "jdbc:dedup:" + CLICKHOUSE.getJdbcUrl().substring("jdbc:".length());
        try (Connection c = DriverManager.getConnection(url, p); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS real_t (id UInt64) ENGINE = MergeTree ORDER BY id"
                + " SETTINGS non_replicated_deduplication_window = 100");
            st.executeUpdate("INSERT INTO real_t VALUES (1), (2)");
            String token = st.unwrap(DedupStatement.class).lastToken();
            st.unwrap(DedupStatement.class).setNextToken(token);
            st.executeUpdate("INSERT INTO real_t VALUES (1), (2)");
            st.executeUpdate("INSERT INTO real_t VALUES (1), (2)");
            try (ResultSet rs = st.executeQuery("SELECT count() FROM real_t")) {
                rs.next();
                assertEquals(4, rs.getLong(1), "the re-send with the same token is dropped; a new execution lands");
            }
        }
    }
}
