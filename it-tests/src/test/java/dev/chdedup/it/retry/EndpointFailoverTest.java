package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.conformance.ConformanceClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A URL with two hosts ({@code jdbc:dedup:clickhouse://r1,r2/default}), two stub replicas of one shard, and the first
 * host killed for good while a HikariCP pool inserts: every insert is acknowledged and every row lands once, since an
 * insert whose host died is retried on the other host with the same token (the replicated table's log is shared, so a
 * block that landed on r1 is dropped on r2), new connections go to the live host, and reads through the pool recover.
 * A table whose log is its own server's (MergeTree) is never retried on another host.
 */
class EndpointFailoverTest {
    private static final int WRITERS = 3;
    private static final int BATCHES = 30;
    private static final int ROWS = 10;
    private StubCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = StubCluster.builder().replicas(2).build().start();
    }

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private String url(String options) {
        return "jdbc:dedup:clickhouse://127.0.0.1:" + cluster.replica(1).port() + ",127.0.0.1:" + cluster.replica(2).port()
            + "/default?socket_timeout=3000&retry.maxAttempts=10&retry.initialBackoffMs=20&retry.maxBackoffMs=300" + options;
    }

    private String query(int replica, String sql) throws Exception {
        return new ConformanceClient(cluster.replica(replica).httpUrl()).query(sql, Map.of()).strip();
    }

    @Test
    void everyInsertLandsOnceWhenTheFirstHostDiesForGood() throws Exception {
        String table = "failover_" + System.nanoTime();
        for (int r = 1; r <= 2; r++) {
            query(r, "CREATE TABLE " + table + " (w UInt32, id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/"
                + table + "', 'r" + r + "') ORDER BY id");
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("failover");
        config.setJdbcUrl(url("&dedup.endpointQuarantineMs=60000"));
        config.setMaximumPoolSize(WRITERS + 1);
        config.setConnectionTimeout(20_000);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch killed = new CountDownLatch(1);
        int acknowledged = 0;
        try (HikariDataSource pool = new HikariDataSource(config)) {
            ExecutorService threads = Executors.newFixedThreadPool(WRITERS);
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    done.add(threads.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < BATCHES; i++) {
                            if (writer == 0 && i == BATCHES / 3) {
                                cluster.kill(1); // the first host goes away for good, with the pool's connections to it
                                killed.countDown();
                            }
                            try (Connection c = pool.getConnection();
                                 PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (w, id, s) VALUES (?, ?, ?)")) {
                                for (int k = 0; k < ROWS; k++) {
                                    long id = ((long) writer * BATCHES + i) * ROWS + k;
                                    ps.setInt(1, writer);
                                    ps.setLong(2, id);
                                    ps.setString(3, "row-" + id);
                                    ps.addBatch();
                                }
                                ps.executeBatch();
                                ok++;
                            } catch (SQLException e) {
                                failures.add("writer " + writer + " batch " + i + ": " + e);
                            }
                        }
                        return ok;
                    }));
                }
                for (Future<Integer> f : done) {
                    acknowledged += f.get(5, TimeUnit.MINUTES);
                }
            } finally {
                threads.shutdownNow();
            }
            assertTrue(killed.await(0, TimeUnit.SECONDS), "the first host was killed mid-run");
            // reads and metadata through the pool work on the live host: a connection to the dead one is evicted
            int reads = 0;
            for (int i = 0; i < 20 && reads < 5; i++) {
                try (Connection c = pool.getConnection(); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT count() FROM " + table)) {
                    rs.next();
                    c.getMetaData().getDatabaseProductVersion();
                    reads++;
                } catch (SQLException e) {
                    // a pooled connection to the dead host: the application's read fails once, the pool evicts it
                }
            }
            assertEquals(5, reads, "reads through the pool recover on the live host");
        }
        System.out.printf("FAILOVER 2 stub replicas, r1 killed after a third of the run: acknowledged %d/%d batches; failures %s%n",
            acknowledged, WRITERS * BATCHES, failures);
        assertEquals(WRITERS * BATCHES, acknowledged, "every insert acknowledged: " + failures);
        // the blocks r1 committed before it died are read from r1 once it is back; r2 dropped their retries
        cluster.restart(1);
        query(2, "SYSTEM SYNC REPLICA " + table);
        query(1, "SYSTEM SYNC REPLICA " + table);
        for (int r = 1; r <= 2; r++) {
            assertEquals(Integer.toString(WRITERS * BATCHES * ROWS) + "\t" + WRITERS * BATCHES * ROWS,
                query(r, "SELECT count(), uniqExact(id) FROM " + table), "replica r" + r + ": every row once");
        }
    }

    @Test
    void aTableWhoseLogIsItsOwnServersIsRetriedOnItsOwnHostOnly() throws Exception {
        String table = "own_log_" + System.nanoTime();
        for (int r = 1; r <= 2; r++) {
            query(r, "CREATE TABLE " + table + " (id UInt64) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100");
        }
        try (Connection c = DriverManager.getConnection(url("&dedup.endpointQuarantineMs=0"));
             Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO " + table + " VALUES (1)");
            cluster.kill(1);
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                () -> st.executeUpdate("INSERT INTO " + table + " VALUES (2)"));
            assertTrue(String.valueOf(e.getMessage()).contains(table), e.getMessage());
        }
        assertEquals("0", query(2, "SELECT count() FROM " + table), "nothing went to the other server's own table");
    }

    @Test
    void aNewConnectionGoesToTheLiveHost() throws Exception {
        cluster.kill(1);
        try (Connection c = DriverManager.getConnection(url("")); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 0, 1")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(2));
        }
        cluster.kill(2);
        SQLException none = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> DriverManager.getConnection(url("")));
        assertTrue(none.getMessage().contains("None of the 2 endpoints"), none.getMessage());
        assertEquals(2, none.getSuppressed().length, "each endpoint's failure is attached");
    }
}
