package dev.chdedup.stub.dedup;

import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The deduplication log of a non-replicated MergeTree table, after ClickHouse's
 * {@code MergeTreeDeduplicationLog}: the block ids of the last {@code window} inserted blocks, each with the part
 * it made. In memory an insertion-ordered map (O(1) lookup, FIFO eviction past the window); on disk
 * human-readable records {@code <operation>\t<part name>\t<block id>\n} (1 = add; 2 = drop, one per id a dropped
 * part takes away) appended to {@code deduplication_logs/deduplication_log_N.txt}. Every {@code 2 x window}
 * records the log rotates: the next file starts with the whole window (written under a temporary name, synced and
 * renamed, so it is never seen half-written), and only then are the older files removed, so no id inside the
 * window is ever lost with a file, whatever mix of adds and drops the files held. After a restart appending
 * continues in the newest file. A last record without its newline (torn by a crash) is ignored. A window of 0
 * keeps nothing. Callers synchronize on the log.
 */
public final class MergeTreeDeduplicationLog {
    static final int ADD = 1;
    static final int DROP = 2;
    static final String DIR = "deduplication_logs";
    static final String PREFIX = "deduplication_log_";

    private final Path dir;
    private final boolean fsync;
    private long window;
    /** block id -> part name, oldest first; size never exceeds {@link #window}. */
    private final LinkedHashMap<String, String> blocks = new LinkedHashMap<>();
    /** log file number -> records in it. */
    private final TreeMap<Long, Long> files = new TreeMap<>();
    private BufferedWriter current;
    /** The highest block number of any part an add record named, in the files read or since: newer parts are unknown to the log. */
    private long newestBlock = Long.MIN_VALUE;

    public MergeTreeDeduplicationLog(Path tableDir, long window, boolean fsync) throws IOException {
        this.dir = tableDir.resolve(DIR);
        this.window = window;
        this.fsync = fsync;
        load();
    }

    private void load() throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, PREFIX + "*.txt")) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                try {
                    files.put(Long.parseLong(n.substring(PREFIX.length(), n.length() - 4)), 0L);
                } catch (NumberFormatException ignored) {
                    // not one of ours
                }
            }
        }
        for (Map.Entry<Long, Long> f : files.entrySet()) {
            long records = 0;
            String text = Files.readString(file(f.getKey()), StandardCharsets.UTF_8);
            String[] lines = text.split("\n", -1);
            if (!lines[lines.length - 1].isEmpty()) {
                // cut the torn record off, so records appended after it start on a line of their own
                try (FileChannel ch = FileChannel.open(file(f.getKey()), StandardOpenOption.WRITE)) {
                    ch.truncate(text.substring(0, text.length() - lines[lines.length - 1].length()).getBytes(StandardCharsets.UTF_8).length);
                }
            }
            // the last element is what follows the last newline: empty, or a record torn by a crash
            for (int i = 0; i < lines.length - 1; i++) {
                String[] r = lines[i].split("\t", -1);
                if (r.length != 3) {
                    continue;
                }
                records++;
                if (r[0].equals(Integer.toString(ADD))) {
                    putUnlocked(r[2], r[1]);
                    noteBlock(r[1]);
                } else if (r[0].equals(Integer.toString(DROP))) {
                    blocks.remove(r[2]);
                }
            }
            f.setValue(records);
        }
    }

    private Path file(long n) {
        return dir.resolve(PREFIX + n + ".txt");
    }

    public long window() {
        return window;
    }

    /** Changes the window at once: a smaller one evicts the oldest ids now; 0 forgets everything. */
    public void setWindow(long w) {
        window = w;
        evictUnlocked();
    }

    public int size() {
        return blocks.size();
    }

    /** The part a block id was recorded with, or null if it is not in the window. */
    public String partFor(String blockId) {
        return blocks.get(blockId);
    }

    public boolean contains(String blockId) {
        return blocks.containsKey(blockId);
    }

    /** Records that {@code part} was written for {@code blockId}. */
    public void add(String blockId, String part) {
        if (window == 0) {
            return;
        }
        append(ADD, part, blockId);
        putUnlocked(blockId, part);
        noteBlock(part);
    }

    private void noteBlock(String part) {
        MergeTreePartInfo p = MergeTreePartInfo.tryParse(part);
        if (p != null) {
            newestBlock = Math.max(newestBlock, p.maxBlock());
        }
    }

    /** Forgets the block ids of parts covered by {@code dropped} (a dropped part or partition), one record each. */
    public void dropPart(MergeTreePartInfo dropped) {
        List<Map.Entry<String, String>> removed = new ArrayList<>();
        for (Iterator<Map.Entry<String, String>> it = blocks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, String> e = it.next();
            MergeTreePartInfo p = MergeTreePartInfo.tryParse(e.getValue());
            if (p != null && dropped.contains(p)) {
                removed.add(Map.entry(e.getKey(), e.getValue()));
                it.remove();
            }
        }
        for (Map.Entry<String, String> e : removed) {
            append(DROP, e.getValue(), e.getKey());
        }
    }

    private void putUnlocked(String blockId, String part) {
        blocks.remove(blockId);
        blocks.put(blockId, part);
        evictUnlocked();
    }

    private void evictUnlocked() {
        Iterator<String> it = blocks.keySet().iterator();
        while (blocks.size() > window && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    private void append(int op, String part, String blockId) {
        try {
            if (current == null || files.lastEntry().getValue() >= Math.max(1, 2 * window)) {
                rotate();
            }
            current.write(op + "\t" + part + "\t" + blockId + "\n");
            current.flush();
            if (fsync) {
                try (var ch = FileChannel.open(file(files.lastKey()), StandardOpenOption.WRITE)) {
                    ch.force(false);
                }
            }
            files.put(files.lastKey(), files.lastEntry().getValue() + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void rotate() throws IOException {
        Files.createDirectories(dir);
        if (current != null) {
            current.close();
            current = null;
        }
        if (!files.isEmpty() && files.lastEntry().getValue() < Math.max(1, 2 * window)) {
            // after a restart: continue the newest file, it is not full
            current = Files.newBufferedWriter(file(files.lastKey()), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            return;
        }
        long next = files.isEmpty() ? 1 : files.lastKey() + 1;
        Path tmp = dir.resolve("tmp_" + PREFIX + next + ".txt");
        StringBuilder snapshot = new StringBuilder();
        for (Map.Entry<String, String> e : blocks.entrySet()) {
            snapshot.append(ADD).append('\t').append(e.getValue()).append('\t').append(e.getKey()).append('\n');
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(snapshot.toString().getBytes(StandardCharsets.UTF_8)));
            if (fsync) {
                ch.force(false);
            }
        }
        Files.move(tmp, file(next), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        for (long old : new ArrayList<>(files.keySet())) {
            Files.deleteIfExists(file(old));
            files.remove(old);
        }
        files.put(next, (long) blocks.size());
        current = Files.newBufferedWriter(file(next), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /**
     * Takes back the ids stored in parts newer than every part the log knows: a crash between a part's rename and
     * its record here loses them from the log but not from the part. Parts arrive in any order; they are added in
     * block order, after the ids already in the window.
     */
    public void recoverFromParts(List<dev.chdedup.stub.mergetree.IMergeTreeDataPart> parts) {
        long newest = newestBlock;
        List<dev.chdedup.stub.mergetree.IMergeTreeDataPart> newer = new ArrayList<>();
        for (dev.chdedup.stub.mergetree.IMergeTreeDataPart p : parts) {
            if (!p.blockIds().isEmpty() && p.info().minBlock() > newest) {
                newer.add(p);
            }
        }
        newer.sort(java.util.Comparator.comparingLong(p -> p.info().minBlock()));
        for (dev.chdedup.stub.mergetree.IMergeTreeDataPart p : newer) {
            for (String id : p.blockIds()) {
                if (!contains(id)) {
                    add(id, p.name());
                }
            }
        }
    }

    public void close() {
        try {
            if (current != null) {
                current.close();
                current = null;
            }
        } catch (IOException ignored) {
            // best effort
        }
    }

    /** Files on disk, oldest first (for tests). */
    public List<Path> logFiles() {
        List<Path> l = new ArrayList<>();
        for (long n : files.keySet()) {
            l.add(file(n));
        }
        return l;
    }
}
