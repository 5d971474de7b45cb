package dev.chdedup.driver.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal file's guarantees, each tried against what would break it: entries survive a reopen field for field;
 * done entries do not come back; a record torn at any byte of the end is cut while every whole one before it
 * survives; damage with whole records after it refuses to open; the file stays bounded by what is in flight over
 * thousands of inserts; concurrent appends and dones from many threads (the group commit, compactions meanwhile)
 * lose nothing.
 */
class DedupJournalTest {
    @TempDir
    Path dir;

    static JournalEntry entry(String token, String sql) {
        return new JournalEntry(-1, token, "default", "t", "INSERT_VALUES", 3, sql,
            Map.of("insert_deduplication_token", token, "max_insert_block_size", "1048576"), System.currentTimeMillis());
    }

    private static Set<String> tokens(List<JournalEntry> entries) {
        Set<String> out = new HashSet<>();
        entries.forEach(e -> out.add(e.token()));
        return out;
    }

    @Test
    void pendingEntriesSurviveAReopenAndDoneOnesDoNot() throws Exception {
        DedupJournal j = DedupJournal.open(dir);
        assertSame(j, DedupJournal.open(dir.resolve(".")), "one journal per canonical directory and process");
        String sql = "INSERT INTO default.t VALUES (1, 'é\\n{fn now()}'), (2, '" + "x".repeat(70_000) + "')";
        JournalEntry a = j.append(entry("a", sql));
        JournalEntry b = j.append(entry("b", "INSERT INTO default.t VALUES (3, 'c')"));
        JournalEntry c = j.append(entry("c", "INSERT INTO default.t VALUES (4, 'd')"));
        assertEquals(List.of(), j.pending(), "entries being executed are not pending");
        j.done(b);
        j.release(a);
        assertEquals(List.of(a), j.pending());
        j.close();

        DedupJournal k = DedupJournal.open(dir);
        List<JournalEntry> p = k.pending();
        assertEquals(List.of(a, c), p, "field for field, oldest first");
        assertEquals(sql, p.get(0).sql());
        JournalEntry d = k.append(entry("d", "INSERT INTO default.t VALUES (5, 'e')"));
        assertTrue(d.id() > c.id(), "ids keep growing across opens");
        k.done(p.get(0));
        k.done(p.get(1));
        k.done(d);
        assertEquals(JournalFile.HEADER, k.fileBytes(), "nothing in flight: the file is empty");
        k.close();
        assertEquals(List.of(), DedupJournal.open(dir).pending());
        DedupJournal.open(dir).close();
    }

    /**
     * A RowBinary entry keeps its statement and body byte for byte across a reopen, in a record of type 3; a text entry
     * is still written as a type-1 record, the format older drivers read, and both kinds are read back side by side.
     */
    @Test
    void aRowBinaryEntrySurvivesAReopenByteForByteNextToATextEntry() throws Exception {
        byte[] body = new byte[70_000];
        new java.util.Random(7).nextBytes(body);
        JournalEntry binary = new JournalEntry(-1, "rb", "default", "t", "INSERT_FORMAT", 1000, "INSERT INTO `t` (`a`) FORMAT RowBinary",
            Map.of("insert_deduplication_token", "rb"), System.currentTimeMillis(), body);
        JournalEntry text = entry("text", "INSERT INTO default.t VALUES (1)");
        assertEquals(JournalFile.ENTRY, JournalFile.frame(JournalFile.ENTRY, text)[8], "a text entry keeps the first record format");
        assertEquals(JournalFile.ENTRY_WITH_PAYLOAD, JournalFile.frame(JournalFile.ENTRY, binary)[8]);
        DedupJournal j = DedupJournal.open(dir);
        j.release(j.append(binary));
        j.release(j.append(text));
        j.close();
        DedupJournal k = DedupJournal.open(dir);
        List<JournalEntry> p = k.pending();
        assertEquals(2, p.size());
        assertTrue(p.get(0).rowBinary() && !p.get(1).rowBinary());
        assertTrue(java.util.Arrays.equals(body, p.get(0).data()), "the body byte for byte");
        assertEquals(binary.sql(), p.get(0).sql());
        assertEquals(text.sql(), p.get(1).sql());
        k.close();
    }

    @Test
    void aRecordTornAtAnyByteIsCutAndTheOnesBeforeItSurvive() throws Exception {
        DedupJournal j = DedupJournal.open(dir);
        j.append(entry("kept1", "INSERT INTO default.t VALUES (1)"));
        j.append(entry("kept2", "INSERT INTO default.t VALUES (2)"));
        long whole = j.fileBytes();
        j.append(entry("torn", "INSERT INTO default.t VALUES (3, 'a longer row so that the record has many bytes to cut')"));
        long full = j.fileBytes();
        j.close();
        Path f = dir.resolve(JournalFile.NAME);
        byte[] original = Files.readAllBytes(f);
        for (long cut = whole; cut < full; cut++) {
            Files.write(f, java.util.Arrays.copyOf(original, (int) cut));
            DedupJournal k = DedupJournal.open(dir);
            assertEquals(Set.of("kept1", "kept2"), tokens(k.pending()), "cut at " + cut);
            assertEquals(whole, k.fileBytes(), "the torn bytes are gone, cut at " + cut);
            k.close();
        }
        // a torn tail that a crash left as garbage of the right length: its checksum gives it away
        byte[] garbled = original.clone();
        garbled[garbled.length - 3] ^= 0x55;
        Files.write(f, garbled);
        DedupJournal k = DedupJournal.open(dir);
        assertEquals(Set.of("kept1", "kept2"), tokens(k.pending()));
        k.close();
    }

    @Test
    void damageBeforeWholeRecordsRefusesToOpen() throws Exception {
        DedupJournal j = DedupJournal.open(dir);
        j.append(entry("a", "INSERT INTO default.t VALUES (1)"));
        j.append(entry("b", "INSERT INTO default.t VALUES (2)"));
        j.close();
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve(JournalFile.NAME).toFile(), "rw")) {
            raf.seek(JournalFile.HEADER + 20);
            raf.write(raf.read() ^ 0x01);
        }
        SQLException e = assertThrows(SQLException.class, () -> DedupJournal.open(dir));
        assertTrue(e.getMessage().contains("damaged at offset " + JournalFile.HEADER), e.getMessage());
        Files.write(dir.resolve(JournalFile.NAME), "not a journal at all".getBytes());
        e = assertThrows(SQLException.class, () -> DedupJournal.open(dir));
        assertTrue(e.getMessage().contains("is not a chdedup journal"), e.getMessage());
    }

    @Test
    void theFileStaysBoundedByWhatIsInFlight() throws Exception {
        DedupJournal j = DedupJournal.open(dir);
        String row = "INSERT INTO default.t VALUES " + "(1, 'abcdefghij'),".repeat(200);
        List<JournalEntry> inFlight = new ArrayList<>();
        long max = 0;
        for (int i = 0; i < 3_000; i++) {
            inFlight.add(j.append(entry("t" + i, row)));
            if (inFlight.size() > 5) {
                // keep up to 5 in flight, finishing them out of order
                j.done(inFlight.remove(i % 5));
            }
            max = Math.max(max, j.fileBytes());
        }
        long one = JournalFile.frame(JournalFile.ENTRY, entry("t0", row)).length;
        assertTrue(max <= Math.max(JournalFile.COMPACT_MIN_BYTES + one, 2 * 6 * one + one),
            "max file size " + max + " for 6 records of " + one + " bytes in flight over 3,000 inserts");
        j.close();
        DedupJournal k = DedupJournal.open(dir);
        assertEquals(tokens(inFlight), tokens(k.pending()));
        k.close();
    }

    @Test
    void concurrentAppendsAndDonesLoseNothing() throws Exception {
        DedupJournal j = DedupJournal.open(dir);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<String> kept = Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    String token = thread + "-" + i;
                    // records of about 2 KB: the file passes the compaction threshold many times while threads append
                    JournalEntry e = j.append(entry(token, "INSERT INTO default.t VALUES (" + i + ", '" + "x".repeat(2000) + "')"));
                    if (i % 7 == 0) {
                        j.release(e);
                        kept.add(token);
                    } else {
                        j.done(e);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertEquals(new HashSet<>(kept), tokens(j.pending()));
        j.close();
        DedupJournal k = DedupJournal.open(dir);
        assertEquals(new HashSet<>(kept), tokens(k.pending()));
        assertEquals(8 * 29, k.pending().size());
        k.close();
    }

    @Test
    void aClosedJournalRefusesAppends() throws Exception {
        DedupJournal j = DedupJournal.open(dir);
        j.close();
        SQLException e = assertThrows(SQLException.class, () -> j.append(entry("x", "INSERT INTO t VALUES (1)")));
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }

    @Test
    void aJournalIsNotADirectoryItCannotCreate() throws IOException {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        SQLException e = assertThrows(SQLException.class, () -> DedupJournal.open(file.resolve("sub")));
        assertTrue(e.getMessage().contains("Cannot create the insert journal directory"), e.getMessage());
    }
}
