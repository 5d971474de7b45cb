package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The part set's rules, the merge selector and the table's insert, merge and mutation steps, without a server. */
class MergeTreeDataTest {
    private static final MergeTreeDataMergerMutator.KeyOrder BY_FIRST_COLUMN = new MergeTreeDataMergerMutator.KeyOrder() {
        @Override
        public boolean sorted() {
            return true;
        }

        @Override
        public Object key(Object[] row) {
            return row[0];
        }

        @Override
        public int compare(Object a, Object b) {
            return Long.compare((Long) a, (Long) b);
        }
    };

    private static StorageMergeTree table(Path dir) throws Exception {
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parse("CREATE TABLE t (k UInt32, v String) ENGINE = MergeTree ORDER BY k");
        return new StorageMergeTree("default", "t", TableDefinition.from(ct), dir, null);
    }

    private static List<Object[]> rows(long... keys) {
        List<Object[]> l = new ArrayList<>();
        for (long k : keys) {
            l.add(new Object[] {k, "v" + k});
        }
        return l;
    }

    private static List<String> names(List<IMergeTreeDataPart> parts) {
        return parts.stream().map(IMergeTreeDataPart::name).toList();
    }

    @Test
    void partNamesParseAndCover() {
        MergeTreePartInfo merged = MergeTreePartInfo.parse("all_1_5_2");
        assertTrue(merged.contains(MergeTreePartInfo.parse("all_3_3_0")));
        assertFalse(merged.contains(MergeTreePartInfo.parse("all_5_6_1")));
        assertFalse(merged.isDisjoint(MergeTreePartInfo.parse("all_5_6_1")));
        assertTrue(MergeTreePartInfo.parse("all_3_3_0_7").contains(MergeTreePartInfo.parse("all_3_3_0")), "a mutated part replaces its source");
        assertFalse(MergeTreePartInfo.parse("202401_1_1_0").contains(MergeTreePartInfo.parse("202402_1_1_0")), "partitions never cover each other");
        assertEquals("all_3_3_0_7", MergeTreePartInfo.parse("all_3_3_0_7").name());
        assertNull(MergeTreePartInfo.tryParse("tmp_insert_all_1_1_0"));
    }

    @Test
    void blockNumbersAreTakenInCommitOrderAndIdsTravelInThePart(@TempDir Path dir) throws Exception {
        StorageMergeTree t = table(dir);
        IMergeTreeDataPart a = t.writePart("all", rows(1), List.of("all_1_2"));
        IMergeTreeDataPart b = t.writePart("all", rows(2), List.of());
        assertEquals(List.of("all_1_1_0", "all_2_2_0"), names(t.activeParts()));
        assertEquals(List.of("all_1_2"), a.blockIds());
        assertEquals(List.of(), b.blockIds());
        StorageMergeTree reloaded = table(dir);
        assertEquals(List.of("all_1_2"), reloaded.activeParts().get(0).blockIds(), "the ids are read back from the part file");
        assertEquals("all_3_3_0", reloaded.writePart("all", rows(3), List.of()).name(), "numbering continues after a reload");
    }

    @Test
    void aPartIntersectingAnActiveOneIsRefusedAndItsFileRemoved(@TempDir Path dir) throws Exception {
        MergeTreeData data = new MergeTreeData(dir, table(dir.resolve("x")).columns());
        data.renameTempPartAndAdd(data.writeTempPart("all", rows(1, 2), List.of(), false), MergeTreePartInfo.parse("all_1_5_1"));
        MergeTreeData.TempPart late = data.writeTempPart("all", rows(3), List.of(), false);
        ChException e = assertThrows(ChException.class, () -> data.renameTempPartAndAdd(late, MergeTreePartInfo.parse("all_3_3_0")));
        assertEquals(ErrorCode.LOGICAL_ERROR, e.code());
        assertEquals(List.of("all_1_5_1"), names(data.activeParts()));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith(DataPartStorageOnDisk.TMP_PREFIX)).count(),
                "the refused part's temporary file is removed");
        }
    }

    @Test
    void aReplacementCommitsOnlyOverExactlyItsSources(@TempDir Path dir) throws Exception {
        StorageMergeTree t = table(dir);
        for (long k = 1; k <= 3; k++) {
            t.writePart("all", rows(k), List.of());
        }
        MergeTreeData data = new MergeTreeData(dir.resolve("d"), t.columns());
        for (long k = 1; k <= 3; k++) {
            long b = k;
            data.renameTempPartAndAdd(data.writeTempPart("all", rows(k), List.of(), false), () -> b);
        }
        List<IMergeTreeDataPart> sources = data.activeParts().subList(0, 2);
        MergeTreeDataMergerMutator mm = new MergeTreeDataMergerMutator(data, BY_FIRST_COLUMN);
        MergeTreeDataMergerMutator.Result merged = mm.mergePartsToTemporaryPart(sources, data.openIfActive(sources), false);
        // a mutation replaced one source meanwhile: the merge must not commit over the new version
        MergeTreeDataMergerMutator.Result mutated = mm.mutatePartToTemporaryPart(sources.get(1), data.openIfActive(List.of(sources.get(1))).get(0),
            r -> new Object[] {r[0], "changed"}, 9, false);
        assertTrue(data.renameTempPartAndReplace(mutated.tmp(), mutated.info(), List.of(sources.get(1))));
        assertFalse(data.renameTempPartAndReplace(merged.tmp(), merged.info(), sources));
        assertEquals(List.of("all_1_1_0", "all_2_2_0_9", "all_3_3_0"), names(data.activeParts()));
        // merging over a range that holds a part the merge did not read is refused too
        List<IMergeTreeDataPart> now = data.activeParts();
        MergeTreeDataMergerMutator.Result gap = mm.mergePartsToTemporaryPart(List.of(now.get(0), now.get(2)),
            data.openIfActive(List.of(now.get(0), now.get(2))), false);
        assertFalse(data.renameTempPartAndReplace(gap.tmp(), gap.info(), List.of(now.get(0), now.get(2))));
        assertEquals(3, data.activeParts().size());
        MergeTreeDataMergerMutator.Result all = mm.mergePartsToTemporaryPart(now, data.openIfActive(now), false);
        assertTrue(data.renameTempPartAndReplace(all.tmp(), all.info(), now));
        assertEquals(List.of("all_1_3_1_9"), names(data.activeParts()));
        assertEquals("[1, v1] [2, changed] [3, v3]", data.activeParts().get(0).readAllRows().stream().map(java.util.Arrays::toString)
            .collect(java.util.stream.Collectors.joining(" ")));
    }

    @Test
    void aMergeInterleavesSortedSourcesAndKeepsTiesInSourceOrder(@TempDir Path dir) throws Exception {
        MergeTreeData data = new MergeTreeData(dir, table(dir.resolve("x")).columns());
        long[][] keys = {{1, 4, 4, 9}, {2, 4, 8}, {0, 4, 10}};
        for (int i = 0; i < keys.length; i++) {
            List<Object[]> rs = new ArrayList<>();
            for (long k : keys[i]) {
                rs.add(new Object[] {k, "s" + i});
            }
            long b = i + 1;
            data.renameTempPartAndAdd(data.writeTempPart("all", rs, List.of(), false), () -> b);
        }
        List<IMergeTreeDataPart> sources = data.activeParts();
        MergeTreeDataMergerMutator.Result r = new MergeTreeDataMergerMutator(data, BY_FIRST_COLUMN)
            .mergePartsToTemporaryPart(sources, data.openIfActive(sources), false);
        assertTrue(data.renameTempPartAndReplace(r.tmp(), r.info(), sources));
        assertEquals("0s2 1s0 2s1 4s0 4s0 4s1 4s2 8s1 9s0 10s2", data.activeParts().get(0).readAllRows().stream()
            .map(row -> row[0] + "" + row[1]).collect(java.util.stream.Collectors.joining(" ")));
    }

    @Test
    void theSelectorTakesOnlyRunsThePredicateAllows(@TempDir Path dir) throws Exception {
        StorageMergeTree t = table(dir);
        for (long k = 1; k <= SimpleMergeSelector.MERGE_TRIGGER_PARTS; k++) {
            t.writePart("all", rows(k), List.of());
        }
        assertNull(SimpleMergeSelector.select(t.activeParts(), (l, r) -> true), "at the trigger, nothing is merged yet");
        t.writePart("all", rows(99), List.of());
        List<IMergeTreeDataPart> ps = t.activeParts();
        int[] run = SimpleMergeSelector.select(ps, (l, r) -> true);
        assertNotNull(run);
        assertTrue(run[1] - run[0] >= 2 && run[1] - run[0] <= SimpleMergeSelector.MAX_PARTS_TO_MERGE);
        IMergeTreeDataPart blocked = ps.get(5);
        int[] around = SimpleMergeSelector.select(ps, (l, r) -> l != blocked && r != blocked);
        assertNotNull(around);
        for (int i = around[0]; i < around[1]; i++) {
            assertFalse(ps.get(i) == blocked, "the run must not include the part the predicate refuses");
        }
    }

    @Test
    void aNewPartIsNotMergedOrMutatedBeforeItsInsertFinishes(@TempDir Path dir) throws Exception {
        StorageMergeTree t = table(dir);
        for (long k = 1; k <= SimpleMergeSelector.MERGE_TRIGGER_PARTS; k++) {
            t.writePart("all", rows(k), List.of());
        }
        List<String> seenWhileHeld = new ArrayList<>();
        IMergeTreeDataPart fresh = t.writePart("all", rows(100), List.of("all_x_y"), part -> {
            while (t.mergeStep()) {
                // merge everything the policy allows while the new part is held
            }
            seenWhileHeld.addAll(names(t.activeParts()));
        });
        assertTrue(seenWhileHeld.contains(fresh.name()), "the held part stays a level-0 part with its ids: " + seenWhileHeld);
        assertEquals(List.of("all_x_y"), t.activeParts().stream().filter(p -> p.name().equals(fresh.name())).findFirst().orElseThrow().blockIds());
    }

    /**
     * A query's snapshot leases its parts and opens their files one at a time as it reaches them; parts removed while
     * it reads (a drop) stay readable to it, and their files go once it is done.
     */
    @Test
    void aSnapshotHoldsOneFileOpenAndOutlivesARemoval(@TempDir Path dir) throws Exception {
        MergeTreeData data = new MergeTreeData(dir, table(dir.resolve("x")).columns());
        for (long k = 1; k <= 50; k++) {
            long b = k;
            data.renameTempPartAndAdd(data.writeTempPart("all", rows(k, k + 100), List.of(), false), () -> b);
        }
        List<MergeTreeDataPartReader> snapshot = data.openForRead();
        assertEquals(50, snapshot.size());
        assertEquals(0, snapshot.stream().filter(MergeTreeDataPartReader::isOpen).count(), "no file is opened before it is read");
        assertEquals(1L, snapshot.get(0).next()[0]);
        assertEquals(50, data.removeParts(p -> true).size(), "every part dropped while the snapshot is held");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(50, files.filter(f -> f.getFileName().toString().startsWith(DataPartStorageOnDisk.TMP_PREFIX + "removed_")).count(),
                "the removed files wait, under temporary names, for the readers that lease them");
        }
        long sum = (long) snapshot.get(0).next()[0];
        for (MergeTreeDataPartReader r : snapshot.subList(1, 50)) {
            while (r.hasNext()) {
                sum += (long) r.next()[0];
                assertTrue(snapshot.stream().filter(MergeTreeDataPartReader::isOpen).count() <= 2, "one file open at a time, besides the first");
            }
        }
        assertEquals(2 * (50 * 51 / 2) + 50 * 100 - 1, sum, "every row of the dropped parts was read (but the first, read above)");
        snapshot.get(0).close();
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.filter(Files::isRegularFile).count(), "the last reader deletes the removed files");
        }
    }

    /**
     * Inserts race mutations: when a mutation returns, no active part has a data version below its version (every
     * insert that took a lower block number was mutated), and every row inserted before it started was rewritten.
     */
    @Test
    void aMutationCoversEveryInsertThatCameBeforeIt(@TempDir Path dir) throws Exception {
        StorageMergeTree t = table(dir);
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            Thread th = new Thread(() -> {
                // a bounded number of inserts: every mutation rewrites all the parts before it
                for (int i = 0; i < 100 && !done.get(); i++) {
                    t.writePart("all", rows(next.incrementAndGet()), List.of());
                }
            });
            th.start();
            writers.add(th);
        }
        try {
            for (int m = 0; m < 8; m++) {
                String mark = "m" + m;
                long before = next.get();
                t.mutate("UPDATE v = '" + mark + "' WHERE 1", r -> new Object[] {r[0], mark});
                long version = t.mutationStatuses().get(t.mutationStatuses().size() - 1).entry().version();
                for (IMergeTreeDataPart p : t.activeParts()) {
                    assertTrue(p.dataVersion() >= version, p.name() + " escaped mutation " + version);
                    for (Object[] r : p.readAllRows()) {
                        if ((long) r[0] <= before && p.dataVersion() == version) {
                            assertEquals(mark, r[1], "row " + r[0] + " of " + p.name());
                        }
                    }
                }
                for (int step = 0; step < 3 && t.mergeStep(); step++) {
                    // a few merges between mutations, as the background would run them (writers keep making parts)
                }
            }
        } finally {
            done.set(true);
            for (Thread th : writers) {
                th.join();
            }
        }
        assertEquals(next.get(), t.activeParts().stream().mapToLong(IMergeTreeDataPart::rowCount).sum(), "no row lost");
    }

    @Test
    void mutationsArePersistedAppliedAndShown(@TempDir Path dir) throws Exception {
        StorageMergeTree t = table(dir);
        t.writePart("all", rows(1, 2), List.of());
        t.writePart("all", rows(3), List.of());
        t.mutate("UPDATE v = 'x' WHERE k > 1", r -> (long) r[0] > 1 ? new Object[] {r[0], "x"} : r);
        assertTrue(Files.exists(dir.resolve("mutation_3.txt")));
        assertTrue(Files.readString(dir.resolve("mutation_3.txt")).matches("(?s)format version: 1\ncreate time: .*\ncommands: UPDATE v = 'x' WHERE k > 1\n"));
        assertEquals(List.of("all_1_1_0_3", "all_2_2_0_3"), names(t.activeParts()));
        MergeTreeMutationStatus status = t.mutationStatuses().get(0);
        assertTrue(status.done());
        assertEquals(0, status.partsToDo());
        assertEquals("all_4_4_0", t.writePart("all", rows(4), List.of()).name(), "an insert after the mutation is not mutated");
        assertTrue(table(dir).mutationStatuses().get(0).done(), "done after a reload too");
    }
}
