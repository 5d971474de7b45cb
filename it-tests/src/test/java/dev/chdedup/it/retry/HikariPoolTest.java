package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.assertExactlyOnce;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static dev.chdedup.it.retry.RetryFixtures.firedOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Our driver under HikariCP (a pool of 4, configured by {@code jdbcUrl} and by {@code dataSourceClassName}) with 8
 * threads inserting distinct batches while faults fire: every 5th insert arms one fault, rotating through the kinds,
 * that the next insert into the table (any thread's, any attempt) takes. Every armed fault must fire, and the table
 * must end with exactly one copy of every row.
 */
class HikariPoolTest {
    private static final int THREADS = 8;
    private static final int INSERTS_PER_THREAD = 20;
    private static final int ROWS_PER_INSERT = 50;
    private static final FaultRule[] FAULTS = {
        FaultRule.of(FaultKind.DROP_AFTER_COMMIT), FaultRule.of(FaultKind.HTTP_503), FaultRule.errorAfterCommit(319),
        FaultRule.of(FaultKind.DROP_BEFORE_BODY), FaultRule.error(202)};
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @AfterEach
    void disarm() {
        stub().faults().clear();
    }

    private static HikariConfig pool(String name) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(4);
        config.setConnectionTimeout(20_000);
        return config;
    }

    @Test
    void byJdbcUrl() throws Exception {
        HikariConfig config = pool("dedup-url");
        // more attempts than the default: several armed faults may hit one insert in a row
        config.setJdbcUrl(RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "retry.maxAttempts=10"));
        run(config);
    }

    @Test
    void byDataSourceClassName() throws Exception {
        HikariConfig config = pool("dedup-datasource");
        config.setDataSourceClassName("dev.chdedup.driver.DedupDataSource");
        config.addDataSourceProperty("url", RetryFixtures.oursUrl(stub(), RetryFixtures.FAST_RETRY, "retry.maxAttempts=10"));
        run(config);
    }

    private static void run(HikariConfig config) throws Exception {
        String table = createTable(stub(), "pool", true);
        AtomicInteger inserts = new AtomicInteger();
        AtomicInteger armed = new AtomicInteger();
        try (HikariDataSource ds = new HikariDataSource(config)) {
            ExecutorService workers = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < THREADS; w++) {
                    int worker = w;
                    done.add(workers.submit(() -> {
                        for (int k = 0; k < INSERTS_PER_THREAD; k++) {
                            int n = inserts.incrementAndGet();
                            if (n % 5 == 0) {
                                stub().faults().add(FAULTS[armed.getAndIncrement() % FAULTS.length].onTable(table).times(1));
                            }
                            long base = ((long) worker * INSERTS_PER_THREAD + k) * ROWS_PER_INSERT;
                            insert(ds, table, base, k % 2 == 0);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                workers.shutdownNow();
            }
        }
        // the last thread to arm a fault made a successful attempt afterwards, which no armed fault can have survived
        assertEquals(THREADS * INSERTS_PER_THREAD / 5, armed.get());
        assertEquals(armed.get(), firedOn(stub(), table), "every armed fault fired");
        assertTrue(firedOn(stub().faults(), table, FaultKind.DROP_AFTER_COMMIT) > 0);
        assertExactlyOnce(stub(), table, (long) THREADS * INSERTS_PER_THREAD * ROWS_PER_INSERT);
    }

    /** One insert of ROWS_PER_INSERT ids from {@code base}, as a PreparedStatement batch or a Statement with VALUES. */
    private static void insert(HikariDataSource ds, String table, long base, boolean prepared) throws SQLException {
        try (Connection c = ds.getConnection()) {
            if (prepared) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s) VALUES (?, ?)")) {
                    for (int i = 0; i < ROWS_PER_INSERT; i++) {
                        ps.setLong(1, base + i);
                        ps.setString(2, "p" + (base + i));
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            } else {
                StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
                for (int i = 0; i < ROWS_PER_INSERT; i++) {
                    sql.append(i == 0 ? "" : ",").append('(').append(base + i).append(",'s").append(base + i).append("')");
                }
                try (Statement st = c.createStatement()) {
                    st.executeUpdate(sql.toString());
                }
            }
        }
    }
}
