package dev.chdedup.stub.storages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A Buffer table under concurrent writers, background flushes and readers: a read through the buffer never sees a
 * row twice nor misses an acknowledged one while rows move to the destination, and every row reaches the destination
 * exactly once; a destination that refuses a flush keeps the rows buffered until a later flush succeeds.
 */
class StorageBufferTest {
    private static Storage create(String sql) throws IOException {
        return Storages.create((Statement.CreateTable) Parser.parse(sql), null, sql);
    }

    private static List<Object[]> rows(Storage s) {
        List<Object[]> out = new ArrayList<>();
        for (Iterator<Block> it = s.read(1000, false); it.hasNext(); ) {
            out.addAll(it.next().rows());
        }
        return out;
    }

    private static StorageBuffer bufferInFrontOf(Storage dest, String thresholds, AtomicInteger refusals) throws IOException {
        StorageBuffer b = (StorageBuffer) create("CREATE TABLE db.buf (k UInt64) ENGINE = Buffer(db, dest, 1, " + thresholds + ")");
        b.resolveWith((db, t) -> db.equals("db") && t.equals("dest") ? dest : null);
        b.flushWith((db, t, cols, rows) -> {
            if (refusals.getAndDecrement() > 0) {
                throw new IllegalStateException("the destination refuses this flush");
            }
            try {
                dest.write(rows);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return b;
    }

    @Test
    void concurrentWritersFlushesAndReadersSeeEachRowOnce() throws Exception {
        Storage dest = create("CREATE TABLE db.dest (k UInt64) ENGINE = Memory");
        // max_rows 37 flushes often; max_time 0.05 s flushes in the background; a 50-row block goes straight through
        StorageBuffer buf = bufferInFrontOf(dest, "100, 0.05, 1000000, 37, 100000000, 1000000000", new AtomicInteger());
        int writers = 4;
        int perWriter = 400;
        AtomicLong acknowledged = new AtomicLong();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            long base = w * 1_000_000L;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perWriter; ) {
                    int n = Math.min(i % 97 == 0 ? 50 : 1, perWriter - i);
                    List<Object[]> block = new ArrayList<>();
                    for (int k = 0; k < n; k++) {
                        block.add(new Object[] {base + i + k});
                    }
                    buf.write(block);
                    acknowledged.addAndGet(n);
                    i += n;
                }
            }));
        }
        AtomicInteger writersLeft = new AtomicInteger(writers);
        Thread reader = new Thread(() -> {
            while (writersLeft.get() > 0) {
                long before = acknowledged.get();
                List<Object[]> seen = rows(buf);
                Set<Object> distinct = new HashSet<>();
                for (Object[] r : seen) {
                    if (!distinct.add(r[0])) {
                        problems.add("row " + r[0] + " read twice");
                    }
                }
                if (seen.size() < before) {
                    problems.add("read " + seen.size() + " rows, " + before + " were acknowledged before the read");
                }
            }
        });
        reader.start();
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
            writersLeft.decrementAndGet();
        }
        reader.join();
        buf.flush();
        assertTrue(problems.isEmpty(), String.join("; ", problems));
        List<Object[]> inDest = rows(dest);
        Set<Object> ids = new HashSet<>();
        for (Object[] r : inDest) {
            assertTrue(ids.add(r[0]), "row " + r[0] + " reached the destination twice");
        }
        assertEquals(writers * perWriter, inDest.size(), "every row reached the destination");
        assertEquals(writers * perWriter, rows(buf).size(), "and the buffer reads each once");
    }

    @Test
    void aRefusedFlushKeepsTheRowsForTheNextOne() throws Exception {
        Storage dest = create("CREATE TABLE db.dest (k UInt64) ENGINE = Memory");
        AtomicInteger refusals = new AtomicInteger(2);
        StorageBuffer buf = bufferInFrontOf(dest, "1000, 1000, 1000000, 1000000, 100000000, 1000000000", refusals);
        buf.write(List.of(new Object[] {1L}, new Object[] {2L}));
        assertThrows(IllegalStateException.class, buf::flush);
        assertThrows(IllegalStateException.class, buf::flush);
        assertEquals(0, rows(dest).size());
        assertEquals(2, rows(buf).size(), "still buffered, still read");
        buf.flush();
        assertEquals(2, rows(dest).size());
        assertEquals(2, rows(buf).size(), "moved, not copied");
        buf.drop();
    }

    @Test
    void aBufferWithoutItsDestinationRefusesToFlushAndKeepsTheRows() throws Exception {
        StorageBuffer buf = (StorageBuffer) create("CREATE TABLE db.buf (k UInt64) ENGINE = Buffer(db, gone, 1, 1, 1, 1, 1000, 1, 100000000)");
        buf.flushWith((db, t, cols, rows) -> {
            throw new AssertionError("no flush without a destination");
        });
        buf.write(List.<Object[]>of(new Object[] {7L}));
        ChException e = assertThrows(ChException.class, buf::flush);
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertEquals(1, rows(buf).size());
        buf.truncate();
        assertEquals(0, rows(buf).size());
        buf.drop();
    }
}
