package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.StubProcess;
import dev.chdedup.stub.server.StubServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills replica r1 of a two-replica table for real (a child JVM: SIGKILL at a random moment, or a halt just before
 * or just after an insert's ZooKeeper commit) while two writers send token inserts to it, restarts it on the same
 * data directory, and retries every unacknowledged insert with its token, alternately on r1 and on r2 (which runs in
 * this JVM on the same ZooKeeper). Afterwards every insert must be present exactly once on both replicas and both
 * queues must be empty: a commit that reached ZooKeeper keeps its part through the crash (the part is on disk under
 * its final name before the commit multi), and one that did not leaves no part and no block id.
 */
class ReplicatedKillNineTest {
    private static final int ROUNDS = 9;
    private static final String[] CRASH_POINTS = {"stub_crash_before_keeper_commit", "stub_crash_after_keeper_commit"};
    private static final String CREATE = "CREATE TABLE rk (id UInt32, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/rk', '{replica}')"
        + " ORDER BY id";

    @Test
    void everyRetriedInsertIsOnEachReplicaExactlyOnceAfterKills(@TempDir Path data) throws Exception {
        Random random = new Random(20261202);
        AtomicInteger nextId = new AtomicInteger();
        Map<Integer, Boolean> sent = new ConcurrentHashMap<>();
        try (TestingServer zk = EmbeddedZooKeeper.start(Files.createDirectories(data.resolve("zk")).toFile());
             StubServer r2 = StubServer.builder().port(0).dataDir(data.resolve("r2")).zookeeper(zk.getConnectString()).replicaName("r2")
                 .build().start()) {
            List<String> args = List.of("--zookeeper", zk.getConnectString(), "--replica-name", "r1");
            StubProcess r1 = StubProcess.start(data.resolve("r1"), List.of("-Xmx256m"), args);
            try {
                Http.query(r1.url(), CREATE);
                Http.query(r2.httpUrl(), CREATE);
                for (int round = 0; round < ROUNDS; round++) {
                    String url = r1.url();
                    ExecutorService writers = Executors.newFixedThreadPool(2);
                    List<Future<?>> fs = new ArrayList<>();
                    for (int w = 0; w < 2; w++) {
                        fs.add(writers.submit(() -> {
                            while (true) {
                                int id = nextId.getAndIncrement();
                                sent.put(id, false);
                                if (!insert(url, id)) {
                                    return null;
                                }
                                sent.put(id, true);
                            }
                        }));
                    }
                    if (round % 3 == 0) {
                        Thread.sleep(50 + random.nextInt(300));
                        r1.kill();
                    } else {
                        Thread.sleep(random.nextInt(150));
                        try {
                            Http.query(url, "SYSTEM ENABLE FAILPOINT " + CRASH_POINTS[round % 3 - 1]);
                        } catch (java.io.IOException halted) {
                            // a writer's insert reached the point before this statement's answer was sent
                        }
                        assertTrue(r1.process().waitFor(30, TimeUnit.SECONDS), "the crash point was reached");
                        assertEquals(137, r1.process().exitValue());
                    }
                    for (Future<?> f : fs) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    writers.shutdownNow();
                    r1 = StubProcess.start(data.resolve("r1"), List.of("-Xmx256m"), args);
                    for (Map.Entry<Integer, Boolean> e : sent.entrySet()) {
                        if (!e.getValue()) {
                            String retryOn = e.getKey() % 2 == 0 ? r1.url() : r2.httpUrl();
                            assertTrue(insert(retryOn, e.getKey()), "retry of " + e.getKey() + " after restart");
                            e.setValue(true);
                        }
                    }
                }
                for (String url : List.of(r1.url(), r2.httpUrl())) {
                    Http.query(url, "SYSTEM SYNC REPLICA rk");
                }
                for (String url : List.of(r1.url(), r2.httpUrl())) {
                    assertEquals("", Http.query(url, "SELECT id, count() AS c FROM rk GROUP BY id HAVING c > 1").trim(), "duplicated inserts on " + url);
                    String counts = Http.query(url, "SELECT count(), uniqExact(id) FROM rk").trim();
                    System.out.printf("ReplicatedKillNineTest %s: %d kills, %d inserts started, rows and distinct ids %s%n", url, ROUNDS,
                        sent.size(), counts.replace('\t', ' '));
                    assertEquals(sent.size() + "\t" + sent.size(), counts, "rows vs distinct inserts on " + url);
                    assertEquals("0", Http.query(url, "SELECT count() FROM system.replication_queue WHERE table = 'rk'").trim(),
                        "entries left in the queue of " + url);
                }
                // a background merge may be assigned between the two syncs: wait for both to have run it
                String r1Url = r1.url();
                ReplicaRecoveryTest.waitFor("the same parts on both replicas", () -> samePartsAfterSync("rk", List.of(r1Url, r2.httpUrl())));
            } finally {
                r1.kill();
            }
        }
    }

    /** A crash after the commit multi: the part survives on r1, and its retry on r2 is a duplicate, not a lost row. */
    @Test
    void aPartWhoseCommitReachedZooKeeperSurvivesACrashBeforeItWasActive(@TempDir Path data) throws Exception {
        try (Pair p = new Pair(data)) {
            p.crashUnder("stub_crash_after_keeper_commit", 7);
            assertTrue(insert(p.r2.httpUrl(), 7), "the retry on r2");
            p.restartR1();
            p.assertOnBoth(7);
        }
    }

    /** A crash before the commit multi: r1 detaches the part it had written, and the retry lands once everywhere. */
    @Test
    void aPartWhoseCommitNeverReachedZooKeeperIsDetachedOnRestart(@TempDir Path data) throws Exception {
        try (Pair p = new Pair(data)) {
            p.crashUnder("stub_crash_before_keeper_commit", 8);
            p.restartR1();
            assertEquals("0", Http.query(p.r1.url(), "SELECT count() FROM rk").trim(), "the uncommitted part is not active");
            try (var files = Files.walk(data.resolve("r1"))) {
                assertEquals(1, files.filter(f -> f.getFileName().toString().startsWith("unexpected_")).count(), "one detached part");
            }
            assertTrue(insert(p.r1.url(), 8), "the retry on r1");
            p.assertOnBoth(8);
        }
    }

    /** r1 in a child JVM and r2 in this one, on a ZooKeeper of this JVM, both with table rk. */
    private static final class Pair implements AutoCloseable {
        final Path data;
        final TestingServer zk;
        final StubServer r2;
        final List<String> args;
        StubProcess r1;

        Pair(Path data) throws Exception {
            this.data = data;
            zk = EmbeddedZooKeeper.start(Files.createDirectories(data.resolve("zk")).toFile());
            r2 = StubServer.builder().port(0).dataDir(data.resolve("r2")).zookeeper(zk.getConnectString()).replicaName("r2").build().start();
            args = List.of("--zookeeper", zk.getConnectString(), "--replica-name", "r1");
            restartR1();
            Http.query(r1.url(), CREATE);
            Http.query(r2.httpUrl(), CREATE);
        }

        void restartR1() throws Exception {
            r1 = StubProcess.start(data.resolve("r1"), List.of("-Xmx256m"), args);
        }

        /** Arms {@code failpoint} on r1 and sends insert {@code id}, which r1 does not survive. */
        void crashUnder(String failpoint, int id) throws Exception {
            Http.query(r1.url(), "SYSTEM ENABLE FAILPOINT " + failpoint);
            assertFalse(insert(r1.url(), id), "the insert was cut by the crash");
            assertTrue(r1.process().waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, r1.process().exitValue());
        }

        void assertOnBoth(int id) throws Exception {
            for (String url : List.of(r1.url(), r2.httpUrl())) {
                Http.query(url, "SYSTEM SYNC REPLICA rk");
                assertEquals("1", Http.query(url, "SELECT count() FROM rk WHERE id = " + id).trim(), "row " + id + " on " + url);
            }
        }

        @Override
        public void close() throws Exception {
            try {
                if (r1 != null) {
                    r1.kill();
                }
                r2.close();
            } finally {
                zk.close();
            }
        }
    }

    /** Syncs each replica at {@code urls}; whether they then hold the same active parts of {@code table}. */
    static boolean samePartsAfterSync(String table, List<String> urls) throws Exception {
        String first = null;
        for (String url : urls) {
            Http.query(url, "SYSTEM SYNC REPLICA " + table);
            String parts = Http.query(url, "SELECT name FROM system.parts WHERE table = '" + table + "' AND active ORDER BY name");
            if (first != null && !first.equals(parts)) {
                return false;
            }
            first = parts;
        }
        return true;
    }

    /** One insert with its token, the same bytes every time; false if the server went away before answering. */
    private static boolean insert(String url, int id) {
        try {
            HttpResponse<String> r = Http.send(url, "INSERT INTO rk VALUES (" + id + ", '" + "x".repeat(id % 40) + "')",
                "insert_deduplication_token=tok-" + id);
            assertEquals(200, r.statusCode(), r.body());
            return true;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
