package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupMetrics;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The driver against the stub playing an older ClickHouse (18.16: old error text, no token, no deduplicate_insert, no
 * INSERT ... SETTINGS, a JDBC SELECT that cannot be read; 22.1: modern text, no token): the fallback drops each refused
 * setting once per connection, the table's engine is still read (so a lost acknowledgement into a ReplicatedMergeTree is
 * retried and lands once), and dedup.mode decides what a second INSERT of identical rows does.
 */
class OlderServerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AtomicInteger TABLES = new AtomicInteger();

    private static String http(StubServer s, String sql) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body().strip();
    }

    private static String replicated(StubServer s) throws Exception {
        String t = "old_" + TABLES.incrementAndGet();
        http(s, "CREATE TABLE " + t + " (id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/" + t + "', 'r1') ORDER BY id");
        return t;
    }

    private static Connection ours(StubServer s, String... params) throws SQLException {
        return DriverManager.getConnection("jdbc:dedup:" + s.jdbcUrl().substring("jdbc:".length()) + "?" + RetryFixtures.FAST_RETRY
            + (params.length == 0 ? "" : "&" + String.join("&", params)));
    }

    private static void assertOnce(StubServer s, String t, long rows) throws Exception {
        assertEquals(rows + "\t" + rows, http(s, "SELECT count(), uniqExact(id) FROM " + t), "rows and distinct ids in " + t);
    }

    @ParameterizedTest
    @ValueSource(strings = {"18.16", "22.1"})
    void insertsFallBackOnceAndALostAcknowledgementIsRetried(String version) throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate(version).build().start()) {
            String t = replicated(s);
            long fallbacks = DedupMetrics.INSTANCE.getTokenFallbacks();
            try (Connection c = ours(s); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + t + " (id, s) VALUES (1, 'a'), (2, 'b')");
                assertEquals(fallbacks + 1, DedupMetrics.INSTANCE.getTokenFallbacks(), "the token is refused once");
                s.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default." + t).times(1));
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?)")) {
                    for (int i = 10; i < 20; i++) {
                        ps.setLong(1, i);
                        ps.setString(2, "r" + i);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                    assertEquals(2, ps.unwrap(dev.chdedup.driver.DedupStatement.class).lastAttempts(),
                        "the lost acknowledgement was retried: the table was read as replicated");
                    assertNull(ps.unwrap(dev.chdedup.driver.DedupStatement.class).lastToken());
                }
                st.executeUpdate("INSERT INTO " + t + " (id, s) VALUES (3, 'c')");
            }
            assertEquals(fallbacks + 1, DedupMetrics.INSTANCE.getTokenFallbacks(), "settled once for the connection");
            assertOnce(s, t, 13);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"18.16", "22.1"})
    void dedupModeDecidesWhatIdenticalRowsDo(String version) throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate(version).build().start()) {
            String hashed = replicated(s);
            try (Connection c = ours(s); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + hashed + " (id, s) VALUES (1, 'a')");
                st.executeUpdate("INSERT INTO " + hashed + " (id, s) VALUES (1, 'a')");
            }
            assertEquals("1", http(s, "SELECT count() FROM " + hashed), "token mode without tokens: content hashing drops the second");

            String strict = replicated(s);
            try (Connection c = ours(s, "dedup.mode=strict"); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO " + strict + " (id, s) VALUES (1, 'a')");
                st.executeUpdate("INSERT INTO " + strict + " (id, s) VALUES (1, 'a')");
                s.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default." + strict).times(1));
                DedupInsertException e = assertThrows(DedupInsertException.class,
                    () -> st.executeUpdate("INSERT INTO " + strict + " (id, s) VALUES (2, 'b')"));
                assertTrue(e.getMessage().contains("dedup.mode=strict"), e.getMessage());
            }
            assertEquals("3", http(s, "SELECT count() FROM " + strict), "strict: both identical inserts land, the unknown one once");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"18.16", "22.1"})
    void anErrorAfterSomeBlocksIntoATableWithoutLogIsNotRetried(String version) throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate(version).build().start()) {
            String t = "nolog_" + TABLES.incrementAndGet();
            // partitioned, so the 7 rows are written as several parts (the driver counts the VALUES rows: one block of an
            // unpartitioned table is whole or absent)
            http(s, "CREATE TABLE " + t + " (id UInt64, s String) ENGINE = MergeTree PARTITION BY id % 3 ORDER BY id");
            // MEMORY_LIMIT_EXCEEDED after blocks were committed: "refused before writing" no longer holds
            s.faults().add(FaultRule.errorAfterCommit(241).onTable("default." + t).times(1));
            try (Connection c = ours(s); Statement st = c.createStatement()) {
                DedupInsertException e = assertThrows(DedupInsertException.class,
                    () -> st.executeUpdate("INSERT INTO " + t + " (id, s) VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d'),(5,'e'),(6,'f'),(7,'g')"));
                assertTrue(e.outcomeUnknown(), e.getMessage());
                assertEquals(1, e.attempts(), "a retry would duplicate what landed");
                assertTrue(e.getMessage().contains("may or may not have landed"), e.getMessage());
            }
            assertOnce(s, t, 7);
        }
    }
}
