package dev.chdedup.stub.dedup;

import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * human-readable records {@code <operation>\t<part name>\t<block id>} (1 = add, 2 = drop) appended to
 * {@code deduplication_logs/deduplication_log_N.txt}, rotated every {@code 2 x window} records, older files
 * removed once the newer ones hold the window. A window of 0 keeps nothing. Callers synchronize on the log.
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
            for (String line : Files.readAllLines(file(f.getKey()), StandardCharsets.UTF_8)) {
                String[] r = line.split("\t");
                if (r.length != 3) {
                    continue; // a torn last line from a crash
                }
                records++;
                if (r[0].equals(Integer.toString(ADD))) {
                    putUnlocked(r[2], r[1]);
                } else if (r[0].equals(Integer.toString(DROP))) {
                    forgetPartUnlocked(r[1]);
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
    }

    /** Forgets the block ids of parts covered by {@code dropped} (a dropped part or partition). */
    public void dropPart(MergeTreePartInfo dropped) {
        boolean any = false;
        for (Iterator<Map.Entry<String, String>> it = blocks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, String> e = it.next();
            MergeTreePartInfo p = MergeTreePartInfo.tryParse(e.getValue());
            if (p != null && dropped.contains(p)) {
                it.remove();
                any = true;
            }
        }
        if (any && window > 0) {
            append(DROP, dropped.name(), "");
        }
    }

    private void putUnlocked(String blockId, String part) {
        blocks.remove(blockId);
        blocks.put(blockId, part);
        evictUnlocked();
    }

    private void forgetPartUnlocked(String dropped) {
        MergeTreePartInfo d = MergeTreePartInfo.tryParse(dropped);
        if (d == null) {
            return;
        }
        blocks.values().removeIf(v -> {
            MergeTreePartInfo p = MergeTreePartInfo.tryParse(v);
            return p != null && d.contains(p);
        });
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
                try (var ch = java.nio.channels.FileChannel.open(file(files.lastKey()), StandardOpenOption.WRITE)) {
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
        }
        long next = files.isEmpty() ? 1 : files.lastKey() + (files.lastEntry().getValue() > 0 || current != null ? 1 : 0);
        if (!files.isEmpty() && files.lastEntry().getValue() >= Math.max(1, 2 * window)) {
            next = files.lastKey() + 1;
        }
        current = Files.newBufferedWriter(file(next), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        files.putIfAbsent(next, 0L);
        dropOutdatedFiles();
    }

    /** Removes the oldest files once the newer ones hold at least {@code window} records. */
    private void dropOutdatedFiles() throws IOException {
        List<Long> numbers = new ArrayList<>(files.descendingKeySet());
        long newer = 0;
        for (long n : numbers) {
            if (newer >= window && n != files.lastKey()) {
                Files.deleteIfExists(file(n));
                files.remove(n);
            } else {
                newer += files.get(n);
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
