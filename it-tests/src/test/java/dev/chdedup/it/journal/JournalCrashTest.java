package dev.chdedup.it.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.driver.journal.JournalEntry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Kill -9 of a writer process with inserts in flight, 20 rounds: each round starts a {@link JournalWriter} on the
 * same journal (its first connection re-sends what the previous, killed one left pending) and kills it with SIGKILL
 * at a chosen kind of moment: at a random batch (just after it starts, or just after it is journaled), in the
 * middle of a journal append (the writer pauses inside each append, so the kill leaves a torn record), or in the
 * middle of a retry (after a fault, while it waits to re-send), or while it re-sends at its start what the one
 * before it left. Faults fire on about half the batches. At the end the test itself opens the journal and finishes.
 * Then every batch that was journaled is in the table exactly once, a batch that was only started (killed before its
 * entry was durable) is there once or not at all, no row is duplicated, each torn append was cut by the next writer,
 * and each insert killed mid-retry was re-sent from the journal.
 */
class JournalCrashTest extends JournalTestBase {
    private static final int ROUNDS = 20;
    private static final long WAIT_MS = 30_000;

    private static final Pattern RESENT = Pattern.compile("Insert journal: re-sent insert into .* with token batch-(\\d+)-");

    private enum Moment { RANDOM_BATCH, MID_APPEND, MID_RETRY, MID_REPLAY }

    /**
     * A RowBinary batch journaled, committed, its acknowledgement lost, and its writer killed with SIGKILL while it waits
     * to retry: the journal keeps it as RowBinary (the statement and the body), the next connection re-sends the same
     * bytes as {@code FORMAT RowBinary} with the same token, and the rows are in the table once.
     */
    @Test
    void aJournaledRowBinaryBatchReSentAfterAKillLandsOnce() throws Exception {
        String table = logTable();
        String ours = "jdbc:dedup:" + stub().jdbcUrl().substring("jdbc:".length()) + "?retry.initialBackoffMs=60000&retry.maxBackoffMs=60000"
            + "&dedup.journalReplay=manual&dedup.journalDir=" + dir;
        try (ChildJvm child = ChildJvm.start(JournalWriter.class, List.of(), ours, stub().jdbcUrl(), table, "one-batch")) {
            child.await(true, l -> l.contains("; retrying in "), 1, WAIT_MS, "the retry of the batch");
            child.kill();
        }
        assertEquals(JournalWriter.ROWS, countAndUniq(table)[0], "the first attempt committed before its acknowledgement was lost");
        try (Connection c = DriverManager.getConnection(ours)) {
            DedupJournal j = DedupJournal.open(dir);
            List<JournalEntry> left = j.pending();
            assertEquals(1, left.size(), left.toString());
            assertTrue(left.get(0).sql().endsWith("FORMAT RowBinary"), "journaled as RowBinary: " + left.get(0).sql());
            assertEquals(1, j.replay(c).resent());
            assertEquals(List.of(), j.pending());
        }
        long[] cu = countAndUniq(table);
        assertEquals(JournalWriter.ROWS, cu[0], "rows after the re-send");
        assertEquals(JournalWriter.ROWS, cu[1], "distinct ids after the re-send");
        List<String> inserts = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT query FROM system.query_log WHERE type = 'QueryFinish' AND query LIKE '%"
                 + table.substring(table.indexOf('.') + 1) + "%' AND query LIKE 'INSERT%'")) {
            while (rs.next()) {
                inserts.add(rs.getString(1));
            }
        }
        assertEquals(2, inserts.stream().filter(q -> q.endsWith("FORMAT RowBinary")).count(), "the batch and its re-send: " + inserts);
    }

    @Test
    void everyJournaledBatchLandsExactlyOnceAcrossKills() throws Exception {
        String table = logTable();
        Path journalDir = dir;
        String ours = "jdbc:dedup:" + stub().jdbcUrl().substring("jdbc:".length()) + "?retry.initialBackoffMs=300&retry.maxBackoffMs=600"
            + "&dedup.journalReplay=blocking&dedup.journalDir=" + journalDir; // each writer re-sends what it found before it writes
        Random random = new Random();
        long seed = random.nextLong();
        Set<Long> started = new HashSet<>();
        Set<Long> journaled = new HashSet<>();
        Set<Long> lastStarted = new HashSet<>();
        Map<Moment, Integer> kills = new HashMap<>();
        List<String> problems = new ArrayList<>();
        Set<Long> killedMidRetry = new HashSet<>();
        Set<Long> resent = new HashSet<>();
        long next = 0;
        Moment previous = null;
        for (int round = 0; round < ROUNDS; round++) {
            // MID_REPLAY follows MID_RETRY, so that the writer it kills has a pending insert to re-send
            Moment moment = Moment.values()[round % 4];
            List<String> jvm = moment == Moment.MID_APPEND ? List.of("-Ddev.chdedup.journal.appendPauseMs=300") : List.of();
            try (ChildJvm child = ChildJvm.start(JournalWriter.class, jvm, ours, stub().jdbcUrl(), table, journalDir.toString(),
                Long.toString(next), Long.toString(seed + round))) {
                if (moment == Moment.MID_REPLAY) {
                    child.await(true, l -> l.contains("pending insert(s) from an earlier process"), 1, WAIT_MS, "a replay");
                } else {
                    child.await(false, "READY"::equals, 1, WAIT_MS, "READY");
                }
                int k = 1 + random.nextInt(4);
                // retries of the replay at the start (a fault armed by a killed writer) do not count
                int retriesBefore = child.count(true, l -> l.contains("; retrying in "));
                switch (moment) {
                    case RANDOM_BATCH -> {
                        boolean atJournal = random.nextBoolean();
                        child.await(false, l -> l.startsWith(atJournal ? "JOURNALED " : "START "), k, WAIT_MS, "batch " + k);
                    }
                    case MID_APPEND -> child.await(true, l -> l.contains("test hook: pausing"), k, WAIT_MS, "an append");
                    case MID_RETRY -> child.await(true, l -> l.contains("; retrying in "), retriesBefore + 1, WAIT_MS, "a retry");
                    case MID_REPLAY -> { }
                    default -> throw new IllegalStateException();
                }
                child.kill();
                kills.merge(moment, 1, Integer::sum);
                long last = -1;
                for (String line : child.stdout()) {
                    String[] w = line.split(" ");
                    if (w[0].equals("START")) {
                        last = Long.parseLong(w[1]);
                        started.add(last);
                    } else if (w[0].equals("JOURNALED")) {
                        journaled.add(Long.parseLong(w[1]));
                    }
                }
                if (last >= 0) {
                    lastStarted.add(last);
                    next = last + 1;
                    if (moment == Moment.MID_RETRY) {
                        killedMidRetry.add(last);
                    }
                }
                List<String> err = child.stderr();
                for (String l : err) {
                    Matcher m = RESENT.matcher(l);
                    if (m.find()) {
                        resent.add(Long.parseLong(m.group(1)));
                    }
                }
                // what this writer did at its start about the previous writer's crash
                if (previous == Moment.MID_APPEND && err.stream().noneMatch(l -> l.contains("cutting a torn record"))) {
                    problems.add("round " + round + ": the torn append of round " + (round - 1) + " was not cut");
                }
            }
            previous = moment;
        }
        // the test finishes what the last writer left, replaying by hand to see what it re-sends
        try (Connection c = DriverManager.getConnection(ours + "&dedup.journalReplay=manual")) {
            DedupJournal j = DedupJournal.open(journalDir);
            List<JournalEntry> left = j.pending();
            left.forEach(e -> resent.add(Long.parseLong(e.token().split("-")[1])));
            assertEquals(left.size(), j.replay(c).resent());
            assertEquals(List.of(), j.pending());
            j.close();
        }
        for (long b : killedMidRetry) {
            if (!resent.contains(b)) {
                problems.add("batch " + b + ", killed mid-retry, was never re-sent from the journal");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        Map<Long, long[]> perBatch = new HashMap<>();
        long rows;
        long distinct;
        try (Connection c = DriverManager.getConnection(stub().jdbcUrl()); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT intDiv(id, " + JournalWriter.ROWS + ") AS b, count(), uniqExact(id) FROM "
                + table + " GROUP BY b")) {
                while (rs.next()) {
                    perBatch.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3)});
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM " + table)) {
                rs.next();
                rows = rs.getLong(1);
                distinct = rs.getLong(2);
            }
        }
        assertEquals(distinct, rows, "no row is in the table twice");
        for (long b : perBatch.keySet()) {
            assertTrue(started.contains(b), "batch " + b + " is in the table but was never started");
        }
        for (long b : started) {
            long[] cu = perBatch.getOrDefault(b, new long[] {0, 0});
            if (journaled.contains(b)) {
                assertEquals(JournalWriter.ROWS, cu[0], "rows of journaled batch " + b);
                assertEquals(JournalWriter.ROWS, cu[1], "distinct ids of journaled batch " + b);
            } else {
                assertTrue(cu[0] == 0 || cu[0] == JournalWriter.ROWS && cu[1] == JournalWriter.ROWS, "batch " + b + ": " + cu[0]);
                assertTrue(cu[0] > 0 || lastStarted.contains(b), "batch " + b + " was started, is missing and was not the batch a kill cut");
            }
        }
        assertEquals(ROUNDS, kills.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(started.size() > ROUNDS, "batches started: " + started.size());
        System.out.printf("JournalCrashTest: %d rounds %s, %d batches started, %d journaled, %d rows%n", ROUNDS, kills,
            started.size(), journaled.size(), rows);
    }
}
