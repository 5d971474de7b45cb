package dev.chdedup.stub.storages;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Log table keeps every acknowledged insert across a reopen, and a torn or corrupt trailing insert not at all. */
class StorageLogTest {
    private static final String CREATE = "CREATE TABLE db.t (k UInt32, s String, a Array(Nullable(Int8))) ENGINE = Log";

    private static Storage open(Path dir) throws IOException {
        return Storages.create((Statement.CreateTable) Parser.parse(CREATE), dir, CREATE);
    }

    private static List<Object[]> rows(Storage s) {
        List<Object[]> out = new ArrayList<>();
        for (Iterator<Block> it = s.read(3, false); it.hasNext(); ) {
            out.addAll(it.next().rows());
        }
        return out;
    }

    private static List<Object[]> batch(long from, int n) {
        List<Object[]> l = new ArrayList<>();
        for (long i = from; i < from + n; i++) {
            l.add(new Object[] {i, "s\u00ff" + i, java.util.Arrays.asList(1L, null)});
        }
        return l;
    }

    @Test
    void insertsSurviveAReopenInOrder(@TempDir Path dir) throws IOException {
        Storage s = open(dir);
        s.write(batch(0, 5));
        s.write(batch(5, 2));
        List<Object[]> before = rows(s);
        List<Object[]> after = rows(open(dir));
        assertEquals(7, after.size());
        for (int i = 0; i < 7; i++) {
            assertArrayEquals(before.get(i), after.get(i));
            assertEquals((long) i, after.get(i)[0]);
        }
    }

    @Test
    void aTornTrailingInsertIsDroppedWhole(@TempDir Path dir) throws IOException {
        Storage s = open(dir);
        s.write(batch(0, 3));
        Path file = dir.resolve(StorageLog.DATA_FILE);
        long good = Files.size(file);
        s.write(batch(3, 4));
        byte[] all = Files.readAllBytes(file);
        // the crash cut the second insert's record in the middle
        Files.write(file, java.util.Arrays.copyOf(all, (int) (good + (all.length - good) / 2)));
        Storage reopened = open(dir);
        assertEquals(3, rows(reopened).size(), "the torn insert is gone, the first is whole");
        assertEquals(good, Files.size(file), "the file is cut back to the last whole insert");
        reopened.write(batch(10, 1));
        assertEquals(4, rows(open(dir)).size(), "appends after recovery are readable");
    }

    @Test
    void aCorruptRecordEndsTheLog(@TempDir Path dir) throws IOException {
        Storage s = open(dir);
        s.write(batch(0, 2));
        long good = Files.size(dir.resolve(StorageLog.DATA_FILE));
        s.write(batch(2, 2));
        byte[] all = Files.readAllBytes(dir.resolve(StorageLog.DATA_FILE));
        all[all.length - 1] ^= 0x55;
        Files.write(dir.resolve(StorageLog.DATA_FILE), all, StandardOpenOption.TRUNCATE_EXISTING);
        assertEquals(2, rows(open(dir)).size());
        assertEquals(good, Files.size(dir.resolve(StorageLog.DATA_FILE)));
    }

    @Test
    void truncateAndDropRemoveTheData(@TempDir Path dir) throws IOException {
        Storage s = open(dir.resolve("t"));
        s.write(batch(0, 2));
        s.truncate();
        assertEquals(0, rows(open(dir.resolve("t"))).size());
        s.drop();
        assertEquals(false, Files.exists(dir.resolve("t")));
    }
}
