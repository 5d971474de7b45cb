package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.assertExactlyOnce;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.chdedup.driver.DedupInsertException;
import dev.chdedup.driver.DedupMetrics;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.server.StubServer;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The driver's counters over JMX ({@code dev.chdedup:type=DedupDriver}): each insert counts once, each retry once,
 * retries after an unknown outcome also as AmbiguousRetries, and a given-up insert as GiveUps. Test classes run one
 * after another, so the deltas are exact.
 */
class MetricsTest {
    private static final String[] ATTRIBUTES = {"Inserts", "Retries", "AmbiguousRetries", "GiveUps", "TokenFallbacks"};
    private static StubServer stub;
    private static Connection conn;

    @BeforeAll
    static void start() throws Exception {
        stub = StubServer.builder().port(0).build().start();
        // connecting loads the driver, which registers the MBean
        conn = DriverManager.getConnection(RetryFixtures.oursUrl(stub, RetryFixtures.FAST_RETRY, "retry.maxAttempts=2"));
    }

    @AfterAll
    static void stop() throws Exception {
        conn.close();
        stub.close();
    }

    @AfterEach
    void disarm() {
        stub.faults().clear();
    }

    private static Map<String, Long> read() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("dev.chdedup:type=DedupDriver");
        Map<String, Long> values = new TreeMap<>();
        for (String a : ATTRIBUTES) {
            values.put(a, (Long) server.getAttribute(name, a));
        }
        return values;
    }

    private static Map<String, Long> delta(Map<String, Long> before) throws Exception {
        Map<String, Long> after = read();
        Map<String, Long> d = new TreeMap<>();
        for (String a : ATTRIBUTES) {
            d.put(a, after.get(a) - before.get(a));
        }
        return d;
    }

    private static Map<String, Long> expect(long inserts, long retries, long ambiguous, long giveUps) {
        return new TreeMap<>(Map.of("Inserts", inserts, "Retries", retries, "AmbiguousRetries", ambiguous, "GiveUps", giveUps,
            "TokenFallbacks", 0L));
    }

    private static void insert(String table) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.executeUpdate("INSERT INTO " + table + " (id, s) VALUES (1, 'a'), (2, 'b')");
        }
    }

    @Test
    void jmxMatchesTheInstance() throws Exception {
        Map<String, Long> jmx = read();
        assertEquals(DedupMetrics.INSTANCE.getRetries(), jmx.get("Retries"));
        assertEquals(DedupMetrics.INSTANCE.getInserts(), jmx.get("Inserts"));
    }

    @Test
    void aSafeRetry() throws Exception {
        String t = createTable(stub, "metrics", true);
        stub.faults().add(FaultRule.of(FaultKind.HTTP_503).onTable(t).times(1));
        Map<String, Long> before = read();
        insert(t);
        assertEquals(expect(1, 1, 0, 0), delta(before));
        assertExactlyOnce(stub, t, 2);
    }

    @Test
    void anAmbiguousRetry() throws Exception {
        String t = createTable(stub, "metrics", true);
        stub.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
        Map<String, Long> before = read();
        insert(t);
        assertEquals(expect(1, 1, 1, 0), delta(before));
        assertExactlyOnce(stub, t, 2);
    }

    @Test
    void aGiveUp() throws Exception {
        String t = createTable(stub, "metrics", true);
        stub.faults().add(FaultRule.errorAfterCommit(319).onTable(t).times(2));
        Map<String, Long> before = read();
        assertThrows(DedupInsertException.class, () -> insert(t));
        assertEquals(expect(1, 1, 1, 1), delta(before));
    }

    @Test
    void noRetryNoCount() throws Exception {
        String t = createTable(stub, "metrics", true);
        Map<String, Long> before = read();
        insert(t);
        try (Statement st = conn.createStatement()) {
            st.executeQuery("SELECT count() FROM " + t).close();
        }
        assertEquals(expect(1, 0, 0, 0), delta(before), "a SELECT is not an insert");
    }
}
