package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The on-disk deduplication log: its records, rotation every 2 x window records, and what reloading gives back. */
class MergeTreeDeduplicationLogTest {
    @TempDir
    Path table;

    private static String id(int i) {
        return "all_" + (1000 + i) + "_" + (2000 + i);
    }

    private static String part(int i) {
        return "all_" + i + "_" + i + "_0";
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(table.resolve(MergeTreeDeduplicationLog.DIR))) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    private List<String> lines(String file) throws IOException {
        return Files.readAllLines(table.resolve(MergeTreeDeduplicationLog.DIR).resolve(file), StandardCharsets.UTF_8);
    }

    @Test
    void keepsTheLastWindowIdsAcrossRotationAndReload() throws IOException {
        MergeTreeDeduplicationLog log = new MergeTreeDeduplicationLog(table, 3, false);
        for (int i = 1; i <= 20; i++) {
            log.add(id(i), part(i));
        }
        assertEquals(3, log.size());
        for (int i = 1; i <= 20; i++) {
            assertEquals(i > 17, log.contains(id(i)), "id " + i);
        }
        log.close();
        // rotated every 6 records: each new file starts with the window (3 records) and takes 3 more, and the older
        // files go once it is on disk: 1-6 | 4-9 | 7-12 | 10-15 | 13-18 | 16-20
        List<String> files = files();
        assertEquals(List.of("deduplication_log_6.txt"), files);
        List<String> expected = new ArrayList<>();
        for (int i = 16; i <= 20; i++) {
            expected.add("1\t" + part(i) + "\t" + id(i));
        }
        assertEquals(expected, lines("deduplication_log_6.txt"));

        MergeTreeDeduplicationLog reloaded = new MergeTreeDeduplicationLog(table, 3, false);
        assertEquals(3, reloaded.size());
        List<String> kept = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            if (reloaded.contains(id(i))) {
                kept.add(id(i));
            }
        }
        assertEquals(List.of(id(18), id(19), id(20)), kept);
        assertEquals(part(20), reloaded.partFor(id(20)));
        // appending after a reload continues the newest file
        reloaded.add(id(21), part(21));
        reloaded.close();
        assertEquals(6, lines("deduplication_log_6.txt").size());
    }

    /**
     * Drop records are not ids: a file full of them must not make the log delete an older file that still holds ids
     * inside the window (window 4: seven ids into partition 1 and h into partition 2, DROP PARTITION 1, then more
     * inserts with reloads in between; h must stay known).
     */
    @Test
    void dropRecordsNeverPushLiveIdsOutOfTheWindow() throws IOException {
        MergeTreeDeduplicationLog log = new MergeTreeDeduplicationLog(table, 4, false);
        for (int i = 1; i <= 7; i++) {
            log.add("1_id" + i, "1_" + i + "_" + i + "_0");
        }
        log.add("2_h", "2_8_8_0");
        log.dropPart(MergeTreePartInfo.tryParse("1_1_7_999"));
        log.add("2_i", "2_9_9_0");
        log.close();
        MergeTreeDeduplicationLog second = new MergeTreeDeduplicationLog(table, 4, false);
        second.add("2_j", "2_10_10_0");
        second.close();
        for (int round = 0; round < 3; round++) {
            MergeTreeDeduplicationLog again = new MergeTreeDeduplicationLog(table, 4, false);
            // h, i, j, then k0, k1, ...: h is the oldest of the four newest ids until k1 arrives
            assertEquals(round < 2, again.contains("2_h"), "round " + round + ": " + files());
            assertTrue(again.contains("2_i") && again.contains("2_j"), "round " + round + ": " + files());
            assertFalse(again.contains("1_id7"));
            again.add("2_k" + round, "2_" + (11 + round) + "_" + (11 + round) + "_0");
            again.close();
        }
        MergeTreeDeduplicationLog last = new MergeTreeDeduplicationLog(table, 4, false);
        assertTrue(last.contains("2_k0") && last.contains("2_k1") && last.contains("2_k2") && last.contains("2_j"));
        assertFalse(last.contains("2_h"), "pushed out by four newer ids");
        last.close();
    }

    @Test
    void droppedPartsAreForgottenAndStayForgottenAfterReload() throws IOException {
        MergeTreeDeduplicationLog log = new MergeTreeDeduplicationLog(table, 10, false);
        log.add(id(1), part(1));
        log.add(id(2), part(2));
        log.add(id(3), part(3));
        // a merged part all_1_2_1 covers parts 1 and 2
        log.dropPart(MergeTreePartInfo.tryParse("all_1_2_1"));
        assertFalse(log.contains(id(1)));
        assertFalse(log.contains(id(2)));
        assertTrue(log.contains(id(3)));
        log.close();
        // one drop record per id the dropped part took away, with the part the id was recorded with
        assertEquals(List.of("2\t" + part(1) + "\t" + id(1), "2\t" + part(2) + "\t" + id(2)),
            lines("deduplication_log_1.txt").subList(3, 5));
        MergeTreeDeduplicationLog reloaded = new MergeTreeDeduplicationLog(table, 10, false);
        assertEquals(1, reloaded.size());
        assertNull(reloaded.partFor(id(1)));
        assertEquals(part(3), reloaded.partFor(id(3)));
        reloaded.close();
    }

    @Test
    void aTornLastRecordIsIgnored() throws IOException {
        MergeTreeDeduplicationLog log = new MergeTreeDeduplicationLog(table, 5, true);
        log.add(id(1), part(1));
        log.close();
        Files.writeString(table.resolve(MergeTreeDeduplicationLog.DIR).resolve("deduplication_log_1.txt"), "1\tall_2_2",
            StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        MergeTreeDeduplicationLog reloaded = new MergeTreeDeduplicationLog(table, 5, false);
        assertEquals(1, reloaded.size());
        assertTrue(reloaded.contains(id(1)));
        // the torn record is cut off: the next record starts on its own line
        reloaded.add(id(2), part(2));
        reloaded.close();
        assertEquals(List.of("1\t" + part(1) + "\t" + id(1), "1\t" + part(2) + "\t" + id(2)), lines("deduplication_log_1.txt"));
        MergeTreeDeduplicationLog again = new MergeTreeDeduplicationLog(table, 5, false);
        assertTrue(again.contains(id(1)) && again.contains(id(2)));
        again.close();
    }

    @Test
    void shrinkingTheWindowEvictsTheOldestAtOnce() throws IOException {
        MergeTreeDeduplicationLog log = new MergeTreeDeduplicationLog(table, 5, false);
        for (int i = 1; i <= 5; i++) {
            log.add(id(i), part(i));
        }
        log.setWindow(2);
        assertEquals(2, log.size());
        assertTrue(log.contains(id(4)) && log.contains(id(5)));
        log.setWindow(0);
        assertEquals(0, log.size());
        log.add(id(6), part(6));
        assertEquals(0, log.size(), "a window of 0 keeps nothing");
        log.close();
    }
}
