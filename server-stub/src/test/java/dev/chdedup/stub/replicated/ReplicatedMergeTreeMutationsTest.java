package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replicated ALTER UPDATE/DELETE: the mutation node and MUTATE_PART entries as ClickHouse writes them, exactly the
 * parts committed before the mutation are changed, every replica ends with the same rows and the same files, a replica
 * killed before it ran a mutation runs it after its restart, and {@code mutations_sync=2} waits for every replica.
 */
class ReplicatedMergeTreeMutationsTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).build();

    private String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    private void create(String table) throws Exception {
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (k UInt64, v UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/" + table
                + "', '{replica}') ORDER BY k SETTINGS merge_selecting_sleep_ms = 50");
        }
    }

    private String checksums(int replica, String table) throws Exception {
        return Http.query(url(1), "SELECT name, value FROM system.zookeeper WHERE path LIKE '/clickhouse/tables/01/" + table + "/replicas/r"
            + replica + "/parts/%' AND name = 'checksums' ORDER BY path").replace("/r" + replica + "/", "/");
    }

    private void syncAll(String table) throws Exception {
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "SYSTEM SYNC REPLICA " + table);
        }
    }

    /** A part a mutation rewrote is inside DROP PARTITION's and TRUNCATE's range on every replica, as on a real 18.16 pair. */
    @Test
    void mutatedPartsGoWithDropPartitionAndTruncate() throws Exception {
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "CREATE TABLE dm (k UInt64, v String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/dm', '{replica}')"
                + " PARTITION BY k % 3 ORDER BY k");
        }
        Http.query(url(2), "INSERT INTO dm VALUES (0, 'a'), (3, 'a'), (1, 'a')");
        Http.query(url(1), "SYSTEM SYNC REPLICA dm");
        Http.query(url(1), "ALTER TABLE dm DELETE WHERE k = 2 SETTINGS mutations_sync = 2");
        syncAll("dm");
        assertEquals("0_0_0_0_1\n1_0_0_0_1\n", Http.query(url(2), "SELECT name FROM system.parts WHERE table = 'dm' AND active ORDER BY name"));
        Http.query(url(1), "ALTER TABLE dm DROP PARTITION 0");
        syncAll("dm");
        for (int i = 1; i <= 3; i++) {
            assertEquals("1\ta\n", Http.query(url(i), "SELECT k, v FROM dm ORDER BY k"), "r" + i);
        }
        Http.query(url(3), "ALTER TABLE dm UPDATE v = 'b' WHERE k = 1 SETTINGS mutations_sync = 2");
        Http.query(url(2), "TRUNCATE TABLE dm");
        syncAll("dm");
        for (int i = 1; i <= 3; i++) {
            assertEquals("0\n", Http.query(url(i), "SELECT count() FROM dm"), "r" + i);
        }
    }

    @Test
    void theEntryTextsAreClickHouses() {
        ReplicatedMergeTreeMutationEntry e = new ReplicatedMergeTreeMutationEntry("0000000000", 1_700_000_000L, "r1",
            java.util.Map.of("all", 5L, "202401", 12L), "UPDATE s = 'a\tb' WHERE k = 1");
        String text = e.toText();
        String head = "format version: 1\ncreate time: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\nsource replica: r1\n"
            + "block numbers count: 2\n202401\t12\nall\t5\n";
        // ClickHouse's writeEscapedString: the quotes and the tab escaped
        assertTrue(text.matches(head + "commands: UPDATE s = \\\\'a\\\\tb\\\\' WHERE k = 1\nalter version: -1"), text);
        assertEquals(e, ReplicatedMergeTreeMutationEntry.parse("0000000000", text));
        String legacy = e.toText(true);
        assertTrue(legacy.matches(head + "mutation commands:\nUPDATE s = \\\\'a\\\\tb\\\\' WHERE k = 1"), legacy);
        assertEquals(e, ReplicatedMergeTreeMutationEntry.parse("0000000000", legacy));
        ReplicatedMergeTreeMutationEntry rename = new ReplicatedMergeTreeMutationEntry("0000000001", 1_700_000_000L, "r1",
            java.util.Map.of("all", 7L), "RENAME COLUMN v TO w", 3);
        assertTrue(rename.toText().endsWith("\ncommands: RENAME COLUMN v TO w\nalter version: 3"), rename.toText());
        assertEquals(rename, ReplicatedMergeTreeMutationEntry.parse("0000000001", rename.toText()));
        ReplicatedMergeTreeLogEntry m = ReplicatedMergeTreeLogEntry.mutatePart("r2", "all_0_3_1", "all_0_3_1_5");
        assertTrue(m.toText().endsWith("source replica: r2\nblock_id: \nmutate\nall_0_3_1\nto\nall_0_3_1_5\n"), m.toText());
        assertEquals(m, ReplicatedMergeTreeLogEntry.parse(m.toText()));
    }

    @Test
    void concurrentInsertsAndAnUpdateConvergeOnEveryReplicaAndChangeExactlyTheRowsAcknowledgedBefore() throws Exception {
        create("mu");
        Set<Long> before = ConcurrentHashMap.newKeySet();
        AtomicBoolean altering = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        Set<Long> after = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int writer = w;
            writers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (long k = writer; !stop.get() || k < 60 + writer; k += 3) {
                        boolean wasAltering = altering.get();
                        Http.query(url(writer + 1), "INSERT INTO mu VALUES (" + k + ", 1)");
                        (wasAltering ? after : before).add(k);
                        if (k > 600) {
                            break;
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        ReplicaRecoveryTest.waitFor("some rows", () -> before.size() >= 30);
        Set<Long> acknowledgedBefore = new TreeSet<>(before);
        altering.set(true);
        HttpResponse<String> r = Http.send(url(2), "ALTER TABLE mu UPDATE v = v + 100 WHERE 1", "mutations_sync=2");
        assertEquals(200, r.statusCode(), r.body());
        Set<Long> acknowledgedAfterAlterReturned = new TreeSet<>();
        ReplicaRecoveryTest.waitFor("rows after the ALTER", () -> after.size() >= 30);
        stop.set(true);
        CompletableFuture.allOf(writers.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        acknowledgedAfterAlterReturned.addAll(after);
        syncAll("mu");
        String rows = Http.query(url(1), "SELECT k, v FROM mu ORDER BY k");
        for (int i = 2; i <= 3; i++) {
            String other = Http.query(url(i), "SELECT k, v FROM mu ORDER BY k");
            assertEquals(rows, other, "r" + i + " has the same rows as r1");
        }
        for (String line : rows.split("\n")) {
            long k = Long.parseLong(line.split("\t")[0]);
            long v = Long.parseLong(line.split("\t")[1]);
            if (acknowledgedBefore.contains(k)) {
                assertEquals(101, v, "row " + k + " was acknowledged before the ALTER: it is updated");
            }
        }
        // an insert sent after mutations_sync=2 returned must not be updated
        Http.query(url(3), "INSERT INTO mu VALUES (100000, 1)");
        syncAll("mu");
        assertEquals("1\n", Http.query(url(1), "SELECT v FROM mu WHERE k = 100000"));
        ReplicaRecoveryTest.waitFor("the same files everywhere", () -> {
            syncAll("mu");
            String c1 = checksums(1, "mu");
            return !c1.isEmpty() && c1.equals(checksums(2, "mu")) && c1.equals(checksums(3, "mu"));
        });
        for (int i = 1; i <= 3; i++) {
            assertEquals("0000000000\tUPDATE v = v + 100 WHERE 1\t1\t0\t\n", Http.query(url(i),
                "SELECT mutation_id, command, is_done, parts_to_do, latest_fail_reason FROM system.mutations WHERE table = 'mu'"));
            assertEquals("0000000000\n", Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '/clickhouse/tables/01/mu/replicas/r"
                + i + "' AND name = 'mutation_pointer'"));
        }
        String mutation = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '/clickhouse/tables/01/mu/mutations'");
        assertTrue(mutation.contains("source replica: r2\\nblock numbers count: 1\\nall\\t"), mutation);
        assertTrue(Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/mu/log' AND value LIKE '%\\nmutate\\n%'")
            .matches("[1-9]\\d*\n"));
    }

    @Test
    void mutationsSync2WaitsForAReplicaThatIsBehindAndAKilledReplicaFinishesAfterItsRestart() throws Exception {
        create("ms");
        for (int k = 0; k < 6; k++) {
            Http.query(url(k % 3 + 1), "INSERT INTO ms VALUES (" + k + ", 1)");
        }
        syncAll("ms");
        Http.query(url(3), "SYSTEM STOP MERGES ms");
        CompletableFuture<HttpResponse<String>> alter = CompletableFuture.supplyAsync(() -> {
            try {
                return Http.send(url(1), "ALTER TABLE ms DELETE WHERE k % 2 = 0", "mutations_sync=2");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        String pointers = "SELECT name FROM system.zookeeper WHERE path IN ('/clickhouse/tables/01/ms/replicas/r1', "
            + "'/clickhouse/tables/01/ms/replicas/r2', '/clickhouse/tables/01/ms/replicas/r3') AND name = 'mutation_pointer' AND value = '0000000000'";
        ReplicaRecoveryTest.waitFor("r1 and r2 to finish the mutation", () -> Http.query(url(1), pointers).lines().count() == 2);
        ReplicaRecoveryTest.waitFor("r3 to postpone it", () -> !Http.query(url(3),
            "SELECT postpone_reason FROM system.replication_queue WHERE table = 'ms' AND type = 'MUTATE_PART'").isBlank());
        assertEquals("3\n", Http.query(url(3), "SELECT count() FROM ms WHERE k % 2 = 0"), "r3 has not mutated");
        assertEquals("0\t1\n", Http.query(url(3), "SELECT is_done, parts_to_do > 0 FROM system.mutations WHERE table = 'ms'"));
        assertFalse(alter.isDone(), "mutations_sync=2 returned while r3 had not mutated");
        replicas.cluster().kill(3);
        replicas.cluster().restart(3);
        HttpResponse<String> r = alter.get(60, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode(), r.body());
        // returned only once r3 was done: no sync needed to see it
        for (int i = 1; i <= 3; i++) {
            assertEquals("1\n3\n5\n", Http.query(url(i), "SELECT k FROM ms ORDER BY k"), "r" + i);
        }
        assertEquals(checksums(1, "ms"), checksums(3, "ms"));
        assertEquals(checksums(1, "ms"), checksums(2, "ms"));
    }

    @Test
    void aReplicaThatStaysInactiveEndsTheWaitWithUnfinished() throws Exception {
        create("mi");
        Http.query(url(1), "INSERT INTO mi VALUES (1, 1)");
        syncAll("mi");
        replicas.cluster().kill(3);
        HttpResponse<String> r = Http.send(url(1), "ALTER TABLE mi UPDATE v = 2 WHERE 1",
            "mutations_sync=2&replication_wait_for_inactive_replica_timeout=1");
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("Code: 341. DB::Exception: Mutation is not finished because some replicas are inactive right now"), r.body());
        ReplicaRecoveryTest.waitFor("the mutation to run where it can", () -> Http.query(url(2), "SELECT v FROM mi").equals("2\n"));
    }

    @Test
    void killMutationStopsItOnEveryReplicaAndLeavesTheRowsAsTheyAre() throws Exception {
        create("mk");
        Http.query(url(1), "INSERT INTO mk VALUES (1, 1), (2, 1)");
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "SYSTEM SYNC REPLICA mk");
            Http.query(url(i), "SYSTEM STOP MERGES mk");
        }
        Http.query(url(2), "ALTER TABLE mk UPDATE v = 9 WHERE 1");
        ReplicaRecoveryTest.waitFor("the MUTATE_PART postponed on every replica", () -> {
            for (int i = 1; i <= 3; i++) {
                if (Http.query(url(i), "SELECT count() FROM system.replication_queue WHERE table = 'mk' AND type = 'MUTATE_PART'"
                    + " AND postpone_reason != ''").equals("0\n")) {
                    return false;
                }
            }
            return true;
        });
        assertEquals("waiting\tdefault\tmk\t0000000000\tUPDATE v = 9 WHERE 1\n", Http.query(url(1),
            "KILL MUTATION WHERE table = 'mk' AND mutation_id = '0000000000' TEST"));
        assertEquals("1\n", Http.query(url(3), "SELECT count() FROM system.mutations WHERE table = 'mk'"), "TEST kills nothing");
        assertEquals("waiting\tdefault\tmk\t0000000000\tUPDATE v = 9 WHERE 1\n", Http.query(url(1), "KILL MUTATION WHERE table = 'mk'"));
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "SYSTEM START MERGES mk");
        }
        for (int i = 1; i <= 3; i++) {
            int r = i;
            ReplicaRecoveryTest.waitFor("r" + i + "'s queue to drop the killed mutation's entries", () -> Http.query(url(r),
                "SELECT count() FROM system.replication_queue WHERE table = 'mk'").equals("0\n"));
            assertEquals("1\n1\n", Http.query(url(i), "SELECT v FROM mk ORDER BY k"), "r" + i);
            assertEquals("0\n", Http.query(url(i), "SELECT count() FROM system.mutations WHERE table = 'mk'"));
        }
        assertEquals("", Http.query(url(1), "KILL MUTATION WHERE table = 'mk'"), "nothing left to kill");
    }

    @Test
    void aMutationThatFailsShowsWhyAndMutationsSyncAnswersUnfinishedUntilItIsKilled() throws Exception {
        create("mf");
        Http.query(url(1), "INSERT INTO mf VALUES (1, 1), (2, 1)");
        HttpResponse<String> r = Http.send(url(1), "ALTER TABLE mf UPDATE v = throwIf(k = 2, 'no two') WHERE 1", "mutations_sync=1");
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("Code: 341. DB::Exception: Exception happened during execution of mutation '0000000000' on replica r1"),
            r.body());
        assertTrue(r.body().contains("no two"), r.body());
        String status = Http.query(url(1), "SELECT is_done, latest_fail_reason != '' FROM system.mutations WHERE table = 'mf'");
        assertEquals("0\t1\n", status);
        Http.query(url(1), "KILL MUTATION WHERE table = 'mf'");
        for (int i = 1; i <= 3; i++) {
            Http.query(url(i), "SYSTEM SYNC REPLICA mf");
            assertEquals("1\t1\n2\t1\n", Http.query(url(i), "SELECT k, v FROM mf ORDER BY k"), "r" + i);
        }
        Http.query(url(2), "INSERT INTO mf VALUES (3, 1)");
        Http.query(url(1), "SYSTEM SYNC REPLICA mf");
        assertEquals("3\n", Http.query(url(1), "SELECT count() FROM mf"), "the table works on after the kill");
    }

    @Test
    void aBadCommandWritesNoMutation() throws Exception {
        create("mb");
        HttpResponse<String> r = Http.send(url(1), "ALTER TABLE mb UPDATE nope = 1 WHERE 1", "");
        assertTrue(r.body().startsWith("Code: "), r.body());
        assertEquals("0\n", Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/mb/mutations'"));
    }
}
