package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A URL naming both replicas of a real ClickHouse 18.16 pair (Debian's packages), each behind a link that loses 15% of
 * acknowledgements and cuts 5% of requests, with the first replica killed (SIGKILL) for good a few seconds into a run
 * of several writers, and no driver property beyond the retry budget: every insert is acknowledged and, once the killed
 * replica is back and both have synced, every row is stored once. 18.16 has no tokens: the retry on the second replica
 * carries the same blocks, whose content hashes the first replica had registered in the shared ZooKeeper log.
 */
class DebianFailoverTest {
    private static final int WRITERS = 3;
    private static final int BATCHES = 30;
    private static final int ROWS = 10;
    private static DebianClickHouse pair;

    @BeforeAll
    static void start() throws Exception {
        pair = DebianClickHouse.startOrSkip(2);
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(pair);
    }

    @Test
    void everyInsertLandsOnceWhenTheFirstReplicaDiesForGood() throws Exception {
        String table = "failover_" + System.nanoTime();
        for (int r = 0; r < 2; r++) {
            pair.query(r, "CREATE TABLE default." + table + " (w UInt32, id UInt64, s String) ENGINE = ReplicatedMergeTree("
                + "'/clickhouse/tables/{shard}/" + table + "', '{replica}') ORDER BY id");
        }
        try (LossyLink link1 = new LossyLink(pair.httpPort(0), 0.15, 0.05, 0.0, 0, 51);
             LossyLink link2 = new LossyLink(pair.httpPort(1), 0.15, 0.05, 0.0, 0, 53)) {
            String url = "jdbc:dedup:clickhouse://127.0.0.1:" + link1.port() + ",127.0.0.1:" + link2.port() + "/default"
                + "?socket_timeout=3000&retry.maxAttempts=12&retry.initialBackoffMs=20&retry.maxBackoffMs=300";
            run(table, url);
            System.out.printf("FAILOVER links: r1 %d exchanges, %d lost acks, %d cut; r2 %d exchanges, %d lost acks, %d cut%n",
                link1.exchanges.get(), link1.lostAcks.get(), link1.cutRequests.get(), link2.exchanges.get(), link2.lostAcks.get(),
                link2.cutRequests.get());
        }
        pair.restartCrashed(0);
        int rows = WRITERS * BATCHES * ROWS;
        // the restarted replica loads its queue from ZooKeeper in the background: poll both, with a deadline
        long deadline = System.nanoTime() + 60_000_000_000L;
        String[] counts = new String[2];
        do {
            for (int r = 0; r < 2; r++) {
                pair.query(r, "SYSTEM SYNC REPLICA default." + table);
                counts[r] = pair.query(r, "SELECT count(), uniqExact(id) FROM default." + table).strip();
            }
            if (counts[0].equals(counts[1]) && counts[0].equals(rows + "\t" + rows)) {
                break;
            }
            Thread.sleep(500); // polling replication after a restart, with a deadline
        } while (System.nanoTime() < deadline);
        System.out.printf("FAILOVER after the restart: r1 %s, r2 %s%n", counts[0], counts[1]);
        for (int r = 0; r < 2; r++) {
            assertEquals(rows + "\t" + rows, pair.query(r, "SELECT count(), uniqExact(id) FROM default." + table).strip(),
                "replica r" + (r + 1) + ": every row once");
        }
    }

    private static void run(String table, String url) throws Exception {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        int acknowledged = 0;
        ExecutorService threads = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(threads.submit(() -> {
                    int ok = 0;
                    try (Connection c = DriverManager.getConnection(url);
                         PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (w, id, s) VALUES (?, ?, ?)")) {
                        for (int i = 0; i < BATCHES; i++) {
                            if (writer == 0 && i == BATCHES / 3) {
                                pair.kill(0);
                            }
                            for (int k = 0; k < ROWS; k++) {
                                long id = ((long) writer * BATCHES + i) * ROWS + k;
                                ps.setInt(1, writer);
                                ps.setLong(2, id);
                                ps.setString(3, "row-" + id);
                                ps.addBatch();
                            }
                            try {
                                ps.executeBatch();
                                ok++;
                            } catch (SQLException e) {
                                ps.clearBatch();
                                failures.add("writer " + writer + " batch " + i + ": " + e.getMessage());
                            }
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
        System.out.printf("FAILOVER ClickHouse 18.16, 2 replicas, r1 killed after a third of the run: acknowledged %d/%d batches;"
            + " failures %s%n", acknowledged, WRITERS * BATCHES, failures);
        assertEquals(WRITERS * BATCHES, acknowledged, "every insert acknowledged: " + failures);
    }
}
