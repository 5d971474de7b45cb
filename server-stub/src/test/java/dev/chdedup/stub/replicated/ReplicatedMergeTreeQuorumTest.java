package dev.chdedup.stub.replicated;

import static dev.chdedup.stub.replicated.ReplicaRecoveryTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quorum inserts on three replicas, each rule of ClickHouse's protocol (clickhouse-observed/02d-*.txt): the quorum
 * node and its text, its removal by the replica that completes the quorum, 285/286/319, a retry that waits, parallel
 * inserts, select_sequential_consistency and failed_parts. SYSTEM STOP FETCHES holds replicas back.
 */
class ReplicatedMergeTreeQuorumTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    static String base(String table) {
        return "/clickhouse/tables/01/" + table;
    }

    static void create(String table) throws Exception {
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/"
                + table + "', '{replica}') ORDER BY id");
        }
    }

    /** The node's value (TSVRaw ends the row with a newline of its own). */
    static String zk(String path, String name) throws Exception {
        String row = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '" + path + "' AND name = '" + name + "' FORMAT TSVRaw");
        return row.isEmpty() ? null : row.substring(0, row.length() - 1);
    }

    static boolean exists(String path, String name) throws Exception {
        return Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '" + path + "' AND name = '" + name + "'").equals("1\n");
    }

    static CompletableFuture<HttpResponse<String>> async(int replica, String sql, String params) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Http.send(url(replica), sql, params);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    static StorageReplicatedMergeTree table(String name) {
        return (StorageReplicatedMergeTree) replicas.cluster().replica(1).components().catalog().mergeTree("default", name);
    }

    /** After syncing each of {@code replicaIds}, {@code sql} answers {@code expected} there. */
    static void assertOnReplicas(String table, String sql, String expected, int... replicaIds) throws Exception {
        for (int i : replicaIds) {
            Http.query(url(i), "SYSTEM SYNC REPLICA " + table);
            assertEquals(expected, Http.query(url(i), sql), "r" + i);
        }
    }

    static void fetches(String table, boolean on, int... replicaIds) throws Exception {
        for (int r : replicaIds) {
            Http.query(url(r), "SYSTEM " + (on ? "START" : "STOP") + " FETCHES " + table);
        }
    }

    @Test
    void theParallelQuorumNodeNamesTheWriterUntilTheQuorumIsReachedThenGoes() throws Exception {
        create("qpar");
        fetches("qpar", false, 2, 3);
        CompletableFuture<HttpResponse<String>> insert = async(1, "INSERT INTO qpar VALUES (1,'a')", "insert_quorum=2");
        waitFor("the quorum node", () -> exists(base("qpar") + "/quorum/parallel", "all_0_0_0"));
        assertEquals(ReplicatedMergeTreeQuorumEntryTest.OBSERVED_STATUS.replace("all_4_4_0", "all_0_0_0"),
            zk(base("qpar") + "/quorum/parallel", "all_0_0_0"));
        assertTrue(zk(base("qpar") + "/log", "log-0000000000").endsWith("get\nall_0_0_0\nquorum: 2\n"), "the log entry carries the quorum");
        assertTrue(!insert.isDone(), "the insert waits while no other replica has the part");
        fetches("qpar", true, 2);
        HttpResponse<String> r = insert.get(30, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(!exists(base("qpar") + "/quorum/parallel", "all_0_0_0"), "the replica that completed the quorum removed the node");
        assertEquals("1\n", Http.query(url(2), "SELECT count() FROM qpar"), "acknowledged: on the quorum's other replica already");
        assertEquals("", zk(base("qpar") + "/quorum", "last_part"), "a parallel quorum leaves last_part alone");
        fetches("qpar", true, 3);
    }

    @Test
    void aNonParallelQuorumUsesQuorumStatusRefusesTheNextInsertAndRecordsLastPart() throws Exception {
        create("qstat");
        fetches("qstat", false, 2, 3);
        String params = "insert_quorum=2&insert_quorum_parallel=0";
        CompletableFuture<HttpResponse<String>> first = async(1, "INSERT INTO qstat VALUES (1,'a')", params);
        waitFor("quorum/status", () -> exists(base("qstat") + "/quorum", "status"));
        assertEquals(ReplicatedMergeTreeQuorumEntryTest.OBSERVED_STATUS.replace("all_4_4_0", "all_0_0_0"), zk(base("qstat") + "/quorum", "status"));
        HttpResponse<String> next = Http.send(url(2), "INSERT INTO qstat VALUES (2,'b')", params);
        assertEquals("Code: 286. DB::Exception: Quorum for previous write has not been satisfied yet. Status: "
            + ReplicatedMergeTreeQuorumEntryTest.OBSERVED_STATUS.replace("all_4_4_0", "all_0_0_0") + ". (UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE)",
            next.body().replaceAll(" \\(version [^)]*\\)\n$", ""));
        fetches("qstat", true, 3);
        assertEquals(200, first.get(30, TimeUnit.SECONDS).statusCode());
        assertTrue(!exists(base("qstat") + "/quorum", "status"));
        assertEquals("version: 2\nparts count: 1\nall\tall_0_0_0\n", zk(base("qstat") + "/quorum", "last_part"));
        assertEquals(200, Http.send(url(2), "INSERT INTO qstat VALUES (2,'b')", params).statusCode(), "the next one may go now");
        assertEquals("version: 2\nparts count: 1\nall\tall_1_1_0\n", zk(base("qstat") + "/quorum", "last_part"));
        assertEquals("1\ta\n2\tb\n", Http.query(url(3), "SELECT * FROM qstat ORDER BY id"));
        fetches("qstat", true, 2);
    }

    /**
     * A sequential quorum that timed out is complete once the late replica fetched the part: SYSTEM SYNC REPLICA returns
     * only after the fetch counted it in the quorum (a GET_PART leaves the queue after that, as in ClickHouse), so the
     * next quorum insert is accepted, as on a real 18.16 pair. It answered 286 before, now and then.
     */
    @Test
    void aLateFetchCompletesASequentialQuorumBeforeSyncReplicaReturns() throws Exception {
        create("qlate");
        String params = "insert_quorum=2&insert_quorum_parallel=0&insert_quorum_timeout=200";
        for (int round = 0; round < 8; round++) {
            fetches("qlate", false, 2, 3);
            HttpResponse<String> timedOut = Http.send(url(1), "INSERT INTO qlate VALUES (" + (2 * round) + ", 'a')", params);
            assertTrue(timedOut.body().startsWith("Code: 319."), "round " + round + ": " + timedOut.body());
            HttpResponse<String> refused = Http.send(url(1), "INSERT INTO qlate VALUES (" + (2 * round + 1) + ", 'b')", params);
            assertTrue(refused.body().startsWith("Code: 286."), "round " + round + ": " + refused.body());
            fetches("qlate", true, 2);
            Http.query(url(2), "SYSTEM SYNC REPLICA qlate");
            // replica 2 fetches again: the quorum is reached however long a loaded machine takes to fetch
            HttpResponse<String> next = Http.send(url(1), "INSERT INTO qlate VALUES (" + (2 * round + 1) + ", 'b')",
                "insert_quorum=2&insert_quorum_parallel=0&insert_quorum_timeout=60000");
            assertEquals(200, next.statusCode(), "round " + round + ": " + next.body());
            fetches("qlate", true, 3);
            Http.query(url(3), "SYSTEM SYNC REPLICA qlate");
        }
        assertOnReplicas("qlate", "SELECT count() FROM qlate", "16\n", 1, 2, 3);
    }

    @Test
    void tooFewLiveReplicasWritesNothingAndAutoIsAMajority() throws Exception {
        create("qfew");
        HttpResponse<String> r = Http.send(url(1), "INSERT INTO qfew VALUES (1,'a')", "insert_quorum=4");
        assertEquals("Code: 285. DB::Exception: Number of alive replicas (3) is less than requested quorum (4). (TOO_FEW_LIVE_REPLICAS)",
            r.body().replaceAll(" \\(version [^)]*\\)\n$", ""));
        assertEquals("0\n", Http.query(url(1), "SELECT count() FROM qfew"));
        assertEquals("", Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '" + base("qfew") + "/log'"), "no log entry");
        fetches("qfew", false, 2, 3);
        HttpResponse<String> auto = Http.send(url(1), "INSERT INTO qfew VALUES (1,'a')", "insert_quorum=auto&insert_quorum_timeout=100");
        assertEquals(500, auto.statusCode());
        assertTrue(zk(base("qfew") + "/quorum/parallel", "all_0_0_0").contains("required_number_of_replicas: 2\n"), "auto = 3 / 2 + 1");
        fetches("qfew", true, 2, 3);
        waitFor("the quorum to complete", () -> !exists(base("qfew") + "/quorum/parallel", "all_0_0_0"));
        assertEquals(200, Http.send(url(1), "INSERT INTO qfew VALUES (3,'c')", "insert_quorum=1").statusCode(), "1 is no quorum");
    }

    @Test
    void aTimeoutIsUnknownStatusAndThePartStillReachesItsQuorumLater() throws Exception {
        create("qtime");
        fetches("qtime", false, 2, 3);
        long t0 = System.nanoTime();
        HttpResponse<String> r = Http.send(url(1), "INSERT INTO qtime VALUES (1,'a')", "insert_quorum=3&insert_quorum_timeout=300");
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(300), "waited the timeout");
        assertEquals("Code: 319. DB::Exception: Unknown status, client must retry. Reason: Code: 159. DB::Exception: Timeout while waiting for"
            + " quorum. (TIMEOUT_EXCEEDED). (UNKNOWN_STATUS_OF_INSERT)", r.body().replaceAll(" \\(version [^)]*\\)\n$", ""));
        assertEquals("1\n", Http.query(url(1), "SELECT count() FROM qtime"), "the part stays");
        fetches("qtime", true, 2);
        waitFor("r2 to count itself", () -> zk(base("qtime") + "/quorum/parallel", "all_0_0_0").contains("actual_number_of_replicas: 2\nreplicas:\nr1\nr2\n"));
        fetches("qtime", true, 3);
        waitFor("the quorum to complete", () -> !exists(base("qtime") + "/quorum/parallel", "all_0_0_0"));
        for (int i = 1; i <= 3; i++) {
            assertEquals("1\ta\n", Http.query(url(i), "SELECT * FROM qtime"), "r" + i);
        }
    }

    /** No merge takes a part whose quorum is still open (OPTIMIZE FINAL and the leader's background selection alike). */
    @Test
    void aPartWhoseQuorumIsOpenIsNotMerged() throws Exception {
        create("qmerge");
        fetches("qmerge", false, 2, 3);
        assertEquals(500, Http.send(url(1), "INSERT INTO qmerge VALUES (1,'a')", "insert_quorum=2&insert_quorum_timeout=200").statusCode());
        Http.query(url(1), "INSERT INTO qmerge VALUES (2,'b')");
        Http.query(url(1), "INSERT INTO qmerge VALUES (3,'c')");
        Http.query(url(1), "OPTIMIZE TABLE qmerge FINAL");
        assertEquals("all_0_0_0\nall_1_1_0\nall_2_2_0\n", Http.query(url(1), "SELECT name FROM system.parts WHERE table = 'qmerge' AND active"
            + " ORDER BY name"), "the open quorum part all_0_0_0 stays out of every merge");
        fetches("qmerge", true, 2, 3);
        waitFor("the quorum to complete", () -> !exists(base("qmerge") + "/quorum/parallel", "all_0_0_0"));
        Http.query(url(1), "OPTIMIZE TABLE qmerge FINAL");
        assertOnReplicas("qmerge", "SELECT name FROM system.parts WHERE table = 'qmerge' AND active", "all_0_2_1\n", 1, 2, 3);
    }

    @Test
    void aRetryOfTheSameBlockWaitsForTheExistingPartsQuorumAndLeavesOneCopy() throws Exception {
        create("qretry");
        fetches("qretry", false, 2, 3);
        String sql = "INSERT INTO qretry VALUES (1,'a'),(2,'b')";
        assertEquals(500, Http.send(url(1), sql, "insert_quorum=2&insert_quorum_timeout=100").statusCode());
        HttpResponse<String> again = Http.send(url(2), sql, "insert_quorum=2&insert_quorum_timeout=200");
        assertTrue(again.body().startsWith("Code: 319.") && again.body().contains("Timeout while waiting for quorum"),
            "a duplicate does not pass before the quorum: " + again.body());
        CompletableFuture<HttpResponse<String>> waiting = async(3, sql, "insert_quorum=2&insert_quorum_timeout=30000");
        waitFor("the retry to be running", () -> Http.query(url(3), "SELECT count() FROM system.processes WHERE query LIKE 'INSERT INTO qretry%'")
            .equals("1\n"));
        assertTrue(!waiting.isDone());
        fetches("qretry", true, 2);
        HttpResponse<String> ok = waiting.get(30, TimeUnit.SECONDS);
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(200, Http.send(url(1), sql, "insert_quorum=2").statusCode(), "once the quorum is reached a retry returns at once");
        fetches("qretry", true, 3);
        assertOnReplicas("qretry", "SELECT count() FROM qretry", "2\n", 1, 2, 3);
    }

    @Test
    void aQuorumInsertStillCostsTwoZooKeeperWriteRoundTrips() throws Exception {
        create("qtrips");
        StorageReplicatedMergeTree t = table("qtrips");
        ZooKeeperClient zk = replicas.cluster().replica(1).replication().zookeeper();
        t.commitPart("all", new ArrayList<>(List.<Object[]>of(new Object[] {0L, "first: creates block_numbers/all"})), "all_0_0");
        for (int i = 1; i <= 10; i++) {
            ReplicatedMergeTreeQuorum.Insert q = ReplicatedMergeTreeQuorum.checkPrecondition(t,
                new ReplicatedMergeTreeQuorum.Insert(i % 2 == 0 ? 2 : 3, true, 30_000, null, 0));
            long before = zk.writeRoundTripsOfThisThread();
            assertTrue(t.commitPart("all", new ArrayList<>(List.<Object[]>of(new Object[] {(long) i, "x"})), "all_" + i + "_" + i,
                KeeperFaultInjection.NONE, q) != null);
            assertEquals(2, zk.writeRoundTripsOfThisThread() - before, "quorum insert " + i);
            assertTrue(!exists(base("qtrips") + "/quorum/parallel", "all_" + i + "_" + i + "_0"), "returned after the quorum was reached");
        }
    }

    @Test
    void concurrentParallelQuorumInsertsAllSucceedWithNoLostRow() throws Exception {
        create("qconc");
        int threads = 6;
        int each = 8;
        List<CompletableFuture<List<Integer>>> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            workers.add(CompletableFuture.supplyAsync(() -> {
                List<Integer> codes = new ArrayList<>();
                for (int i = 0; i < each; i++) {
                    try {
                        codes.add(Http.send(url(1 + worker % 3), "INSERT INTO qconc VALUES (" + (worker * 1000 + i) + ",'w')", "insert_quorum=2")
                            .statusCode());
                    } catch (Exception e) {
                        codes.add(-1);
                    }
                }
                return codes;
            }));
        }
        for (CompletableFuture<List<Integer>> f : workers) {
            assertEquals(java.util.Collections.nCopies(each, 200), f.get(60, TimeUnit.SECONDS));
        }
        assertEquals("", Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '" + base("qconc") + "/quorum/parallel'"),
            "every quorum node went");
        assertOnReplicas("qconc", "SELECT count(), uniqExact(id) FROM qconc", threads * each + "\t" + threads * each + "\n", 1, 2, 3);
    }

    @Test
    void sequentialConsistencyReadsUpToTheLastQuorumPartAndFailsOnAReplicaMissingIt() throws Exception {
        create("qseq");
        String quorum = "insert_quorum=2&insert_quorum_parallel=0";
        assertEquals(200, Http.send(url(1), "INSERT INTO qseq VALUES (1,'a')", quorum).statusCode());
        Http.query(url(3), "SYSTEM SYNC REPLICA qseq");
        fetches("qseq", false, 3);
        assertEquals(200, Http.send(url(1), "INSERT INTO qseq VALUES (2,'b')", quorum).statusCode(), "r2 makes the quorum");
        assertEquals("version: 2\nparts count: 1\nall\tall_1_1_0\n", zk(base("qseq") + "/quorum", "last_part"));
        HttpResponse<String> r3 = Http.send(url(3), "SELECT count() FROM qseq", "select_sequential_consistency=1");
        assertEquals("Code: 289. DB::Exception: Replica doesn't have part all_1_1_0 which was successfully written to quorum of other replicas."
            + " Send query to another replica or disable 'select_sequential_consistency' setting. (REPLICA_IS_NOT_IN_QUORUM)",
            r3.body().replaceAll(" \\(version [^)]*\\)\n$", ""));
        assertEquals("1\n", Http.query(url(3), "SELECT count() FROM qseq"), "without the setting r3 reads what it has");
        assertEquals(200, Http.send(url(1), "INSERT INTO qseq VALUES (3,'c')", "").statusCode(), "a plain insert after the last quorum part");
        assertEquals("1\ta\n2\tb\n", Http.send(url(1), "SELECT * FROM qseq ORDER BY id", "select_sequential_consistency=1").body(),
            "parts after the last quorum part are not read");
        assertEquals("3\n", Http.query(url(1), "SELECT count() FROM qseq"));
        fetches("qseq", true, 3);
        Http.query(url(3), "SYSTEM SYNC REPLICA qseq");
        assertEquals("2\n", Http.send(url(3), "SELECT count() FROM qseq", "select_sequential_consistency=1").body());
    }

    @Test
    void aQuorumPartThatNoReplicaHasAnyMoreIsRecordedInFailedPartsAndItsBlockCanBeWrittenAgain() throws Exception {
        create("qlost");
        fetches("qlost", false, 2, 3);
        String sql = "INSERT INTO qlost VALUES (7,'lost')";
        assertEquals(500, Http.send(url(1), sql, "insert_quorum=2&insert_quorum_timeout=100").statusCode());
        String entry = zk(base("qlost") + "/log", "log-0000000000");
        String blockId = entry.split("\n")[3].substring("block_id: ".length());
        assertEquals("all_0_0_0", zk(base("qlost") + "/deduplication_hashes", blockId));
        Http.query(url(1), "DROP TABLE qlost"); // the only replica with the part goes, with its nodes
        fetches("qlost", true, 2);
        waitFor("the quorum to be marked failed", () -> Http.query(url(2), "SELECT count() FROM system.zookeeper WHERE path = '" + base("qlost")
            + "/quorum/failed_parts' AND name = 'all_0_0_0'").equals("1\n"));
        String q = base("qlost") + "/quorum/parallel";
        assertEquals("0\n", Http.query(url(2), "SELECT count() FROM system.zookeeper WHERE path = '" + q + "'"), "the quorum node went");
        assertEquals("0\n", Http.query(url(2), "SELECT count() FROM system.zookeeper WHERE path = '" + base("qlost")
            + "/deduplication_hashes' AND name = '" + blockId + "'"), "so did the block id of the lost part");
        Http.query(url(2), "SYSTEM SYNC REPLICA qlost");
        fetches("qlost", true, 3);
        HttpResponse<String> again = Http.send(url(2), sql, "insert_quorum=2");
        assertEquals(200, again.statusCode(), again.body());
        assertOnReplicas("qlost", "SELECT * FROM qlost", "7\tlost\n", 2, 3);
    }

    @Test
    void aNonParallelQuorumStartedByAnotherInsertAfterThePreconditionFailsTheCommitMultiWithNothingWritten() throws Exception {
        create("qrace");
        StorageReplicatedMergeTree t = table("qrace");
        ZooKeeperClient zk = replicas.cluster().replica(1).replication().zookeeper();
        ReplicatedMergeTreeQuorum.Insert q = ReplicatedMergeTreeQuorum.checkPrecondition(t,
            new ReplicatedMergeTreeQuorum.Insert(2, false, 30_000, null, 0));
        // another writer's quorum insert starts between this one's precondition and its commit
        String other = ReplicatedMergeTreeQuorumEntry.of("all_99_99_0", 2, "r2").toText();
        zk.create(base("qrace") + "/quorum/status", other, org.apache.zookeeper.CreateMode.PERSISTENT);
        ChException e = assertThrows(ChException.class, () -> t.commitPart("all", new ArrayList<>(List.<Object[]>of(new Object[] {1L, "x"})),
            "all_1_1", KeeperFaultInjection.NONE, q));
        assertEquals(ErrorCode.UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE, e.code());
        assertEquals("Quorum for previous write has not been satisfied yet. Status: " + other, e.getMessage());
        assertEquals("0\n", Http.query(url(1), "SELECT count() FROM qrace"), "nothing written");
        assertEquals("", Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '" + base("qrace") + "/log'"), "no log entry");
        assertEquals("", Http.query(url(1), "SELECT name FROM system.zookeeper WHERE path = '" + base("qrace") + "/block_numbers/all'"),
            "the block number's lock is gone");
        assertEquals(null, zk.get(base("qrace") + "/deduplication_hashes/all_1_1"), "the block id is free for a retry");
        zk.delete(base("qrace") + "/quorum/status");
        assertTrue(t.commitPart("all", new ArrayList<>(List.<Object[]>of(new Object[] {1L, "x"})), "all_1_1", KeeperFaultInjection.NONE,
            ReplicatedMergeTreeQuorum.checkPrecondition(t, q)) != null, "the retry commits");
        // a quorum of 2 is this replica and whichever of the other two fetched first (r3 wins now and then on a busy machine)
        int others = 0;
        for (int r = 2; r <= 3; r++) {
            others += Http.query(url(r), "SELECT count() FROM qrace").equals("1\n") ? 1 : 0;
        }
        assertTrue(others >= 1, "on another replica of the quorum already");
    }

    @Test
    void anInsertWaitingWhileItsQuorumIsMarkedFailedAnswersUnknownStatusNotSuccess() throws Exception {
        create("qwait");
        fetches("qwait", false, 2, 3);
        CompletableFuture<HttpResponse<String>> insert = async(1, "INSERT INTO qwait VALUES (1,'w')", "insert_quorum=2&insert_quorum_timeout=60000");
        waitFor("the quorum node", () -> exists(base("qwait") + "/quorum/parallel", "all_0_0_0"));
        String blockId = zk(base("qwait") + "/log", "log-0000000000").split("\n")[3].substring("block_id: ".length());
        // the part's only copy leaves ZooKeeper (as when its replica is dropped) while the insert waits: the lost-part
        // check fails the quorum, and the waiting insert must hear of it, though the quorum node goes in the same multi
        ZooKeeperClient zk = replicas.cluster().replica(1).replication().zookeeper();
        zk.deleteRecursive(base("qwait") + "/replicas/r1/parts/all_0_0_0");
        assertTrue(ReplicatedMergeTreeQuorum.markFailedIfLost(table("qwait"), "all_0_0_0", blockId));
        HttpResponse<String> r = insert.get(30, TimeUnit.SECONDS);
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().contains("(UNKNOWN_STATUS_OF_INSERT)") && r.body().contains("Quorum for part all_0_0_0 failed"), r.body());
        fetches("qwait", true, 2, 3);
    }
}
