package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Inserts through a Distributed table on a real ClickHouse 18.16 cluster of two shards (Debian's packages, each shard one
 * ReplicatedMergeTree replica), by several writers through a link that loses acknowledgements and cuts requests, with
 * no driver property beyond the retry budget. With a deterministic sharding key every insert is acknowledged and every
 * row is stored once, with foreground sends (one shard frozen for seconds mid-run) and background ones: a retry splits
 * its rows as the first attempt did and each shard drops the block it already has. With {@code rand()} the driver does
 * not re-send an insert of unknown outcome (a retry would split the rows anew and duplicate some), so no row is stored
 * twice and every failure names the key.
 */
class DebianDistributedLossyLinkTest {
    private static final int WRITERS = 3;
    private static final int BATCHES = 25;
    private static final int ROWS = 20;
    private static DebianClickHouse cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = DebianClickHouse.startShardsOrSkip(2);
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(cluster);
    }

    /** The outcome of a run: acknowledged batches, failures' messages, acknowledged ids and how often each id is stored. */
    private record Run(int acknowledged, List<String> failures, List<Long> ackedIds, Map<Long, Integer> stored, LossyLink link) {
        long duplicated() {
            return stored.values().stream().filter(n -> n > 1).count();
        }

        long lost() {
            return ackedIds.stream().filter(id -> !stored.containsKey(id)).count();
        }

        @Override
        public String toString() {
            return String.format("acknowledged %d/%d batches, duplicated ids %d, lost acknowledged ids %d; exchanges %d, lost acks %d,"
                + " cut requests %d", acknowledged, WRITERS * BATCHES, duplicated(), lost(), link.exchanges.get(), link.lostAcks.get(),
                link.cutRequests.get());
        }
    }

    private static String createTables(String key) throws Exception {
        String t = "d" + System.nanoTime();
        for (int s = 0; s < 2; s++) {
            cluster.query(s, "CREATE TABLE default." + t + "_local (w UInt32, i UInt32, id UInt64, s String) ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/" + t + "', '{replica}') ORDER BY id");
        }
        cluster.query(0, "CREATE TABLE default." + t + " AS default." + t + "_local ENGINE = Distributed(" + DebianClickHouse.CLUSTER
            + ", default, " + t + "_local, " + key + ")");
        return t;
    }

    /**
     * {@link #WRITERS} writers insert {@link #BATCHES} batches of {@link #ROWS} distinct rows each into {@code table} on
     * shard 1 through a lossy link; {@code midRun} runs once while they write. Waits until background sends are done.
     */
    private static Run run(String table, String settings, long seed, ThrowingRunnable midRun) throws Exception {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<Long> acked = Collections.synchronizedList(new ArrayList<>());
        int acknowledged = 0;
        try (LossyLink link = new LossyLink(cluster.httpPort(0), 0.15, 0.05, 0.0, 0, seed)) {
            String url = "jdbc:dedup:clickhouse://127.0.0.1:" + link.port() + "/default?socket_timeout=2000"
                + "&retry.maxAttempts=12&retry.initialBackoffMs=20&retry.maxBackoffMs=500" + settings;
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            AtomicBoolean halfway = new AtomicBoolean();
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    done.add(pool.submit(() -> {
                        int ok = 0;
                        try (Connection c = DriverManager.getConnection(url);
                             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (w, i, id, s) VALUES (?, ?, ?, ?)")) {
                            for (int i = 0; i < BATCHES; i++) {
                                if (writer == 0 && i == BATCHES / 3 && halfway.compareAndSet(false, true)) {
                                    midRun.run();
                                }
                                List<Long> ids = new ArrayList<>();
                                for (int k = 0; k < ROWS; k++) {
                                    long id = ((long) writer * BATCHES + i) * ROWS + k;
                                    ps.setInt(1, writer);
                                    ps.setInt(2, i);
                                    ps.setLong(3, id);
                                    ps.setString(4, "row-" + id);
                                    ps.addBatch();
                                    ids.add(id);
                                }
                                try {
                                    ps.executeBatch();
                                    ok++;
                                    acked.addAll(ids);
                                } catch (SQLException e) {
                                    ps.clearBatch();
                                    failures.add(e.getMessage());
                                }
                            }
                        }
                        return ok;
                    }));
                }
                for (Future<Integer> f : done) {
                    acknowledged += f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            return new Run(acknowledged, failures, acked, settledRows(table), link);
        }
    }

    /** How often each id is stored over both shards, once background sends stopped changing the count for 3 s. */
    private static Map<Long, Integer> settledRows(String table) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String last = "";
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            String count = cluster.query(0, "SELECT count() FROM default." + table).strip();
            if (!count.equals(last)) {
                last = count;
                stableSince = System.nanoTime();
            } else if (System.nanoTime() - stableSince > 3_000_000_000L) {
                break;
            }
            Thread.sleep(200); // polling background sends, with a deadline
        }
        Map<Long, Integer> seen = new HashMap<>();
        for (String line : cluster.query(0, "SELECT id FROM default." + table).split("\n")) {
            if (!line.isBlank()) {
                seen.merge(Long.parseLong(line.strip()), 1, Integer::sum);
            }
        }
        return seen;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static void assertBothShardsHoldRows(String table) throws Exception {
        for (int s = 0; s < 2; s++) {
            long n = Long.parseLong(cluster.query(s, "SELECT count() FROM default." + table + "_local").strip());
            assertTrue(n > 0, "shard " + (s + 1) + " holds rows of " + table + ": " + n);
        }
    }

    /** Every batch acknowledged, every row stored once, on both shards, through a link that did lose acknowledgements. */
    private static void assertEveryRowOnce(Run r, String table) throws Exception {
        assertEquals(0, r.duplicated(), "no id stored twice");
        assertEquals(0, r.lost(), "no acknowledged id missing");
        assertEquals(WRITERS * BATCHES, r.acknowledged(), "every insert acknowledged: " + r.failures());
        assertTrue(r.link().lostAcks.get() > 5, "the link lost acknowledgements");
        assertBothShardsHoldRows(table);
    }

    @Test
    void aDeterministicKeyWithForegroundSendsLandsEveryRowOnceWithAShardFrozenMidRun() throws Exception {
        String table = createTables("cityHash64(id)");
        Run r = run(table, "&clickhouse_setting_insert_distributed_sync=1", 41, () -> {
            cluster.freeze(1);
            try {
                Thread.sleep(3000); // a shard stalled for seconds while the writers go on
            } finally {
                cluster.thaw(1);
            }
        });
        System.out.printf("DISTRIBUTED ClickHouse 18.16, 2 shards, cityHash64(id), foreground, shard 2 frozen 3 s: %s%n", r);
        assertEveryRowOnce(r, table);
    }

    @Test
    void aDeterministicKeyWithBackgroundSendsLandsEveryRowOnce() throws Exception {
        String table = createTables("cityHash64(w, i, id)");
        Run r = run(table, "", 43, () -> { });
        System.out.printf("DISTRIBUTED ClickHouse 18.16, 2 shards, cityHash64(w, i, id), background: %s%n", r);
        assertEveryRowOnce(r, table);
    }

    @Test
    void aRandomKeyIsNotRetriedAndEveryFailureNamesIt() throws Exception {
        String table = createTables("rand()");
        Run r = run(table, "&clickhouse_setting_insert_distributed_sync=1", 47, () -> { });
        System.out.printf("DISTRIBUTED ClickHouse 18.16, 2 shards, rand(), foreground: %s%n", r);
        assertEquals(0, r.duplicated(), "no id stored twice");
        assertEquals(0, r.lost(), "no acknowledged id missing");
        assertTrue(!r.failures().isEmpty(), "lost acknowledgements end inserts of unknown outcome");
        for (String f : r.failures()) {
            assertTrue(f.contains("sharding key rand()") && f.contains("cityHash64"), f);
        }
        assertBothShardsHoldRows(table);
        // the hazard is real: forced retries (the user accepting duplicates) re-split the rows and store some twice
        String forcedTable = createTables("rand()");
        Run forced = run(forcedTable, "&clickhouse_setting_insert_distributed_sync=1&dedup.onTableWithoutLog=retry", 47, () -> { });
        System.out.printf("DISTRIBUTED ClickHouse 18.16, 2 shards, rand(), foreground, dedup.onTableWithoutLog=retry: %s%n", forced);
        assertTrue(forced.duplicated() > 0, "forced retries with rand() duplicate rows: " + forced);
    }
}
