package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.fault.CrashPoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The parts of one MergeTree-family table on disk and in memory, after ClickHouse's {@code MergeTreeData}: loading
 * them, writing temporary parts, making a temporary part active under a block number taken under the same lock
 * ({@link #renameTempPartAndAdd}), replacing parts with a merged or mutated one only if they are still exactly what
 * the new part covers ({@link #renameTempPartAndReplace}), and removing parts. The part set is guarded by this
 * object's monitor (the "parts lock"); no file is renamed into or out of the active set without it, so a reader's
 * snapshot and the set on disk never disagree about which rows are committed. Storage engines own block numbering
 * and deduplication and build on this class.
 */
public final class MergeTreeData {
    private final Path dir;
    private final List<Column> columns;
    /** Active parts: no part covers another; every part in it is on disk under its name. */
    private final ActiveDataPartSet parts = new ActiveDataPartSet();
    /**
     * Numbers the temporary files, JVM-wide: a table dropped and created again under the same name shares its directory
     * with an insert still running into the dropped one, whose discarded file must never be the new table's.
     */
    private static final AtomicLong tempCounter = new AtomicLong();
    /** Set once by {@link #drop()}: no part is added any more (a table of the same name may own the directory now). */
    private boolean dropped;

    /** What the parts written here index: the primary key's leading columns every {@code index_granularity} rows. */
    private final PrimaryIndex.Spec index;
    /** The table's TTL, applied to the rows of every part written here (merges and mutations; an insert's rows come filtered). */
    private volatile TTLDescription ttl = TTLDescription.NONE;
    /** What a part written before ALTER ADD COLUMN reads for the columns it lacks. */
    private final DataPartStorageOnDisk.AlterConversions defaults;

    public MergeTreeData(Path dir, List<Column> columns) throws IOException {
        this(dir, columns, PrimaryIndex.Spec.NONE);
    }

    MergeTreeData(Path dir, List<Column> columns, PrimaryIndex.Spec index) throws IOException {
        this(dir, columns, index, DataPartStorageOnDisk.AlterConversions.NONE);
    }

    MergeTreeData(Path dir, List<Column> columns, PrimaryIndex.Spec index, DataPartStorageOnDisk.AlterConversions defaults) throws IOException {
        this.dir = dir;
        this.columns = List.copyOf(columns);
        this.index = index;
        this.defaults = defaults;
        Files.createDirectories(dir);
    }

    public Path directory() {
        return dir;
    }

    public List<Column> columns() {
        return columns;
    }

    /**
     * Loads the parts on disk: temporary files (writes a crash cut short) are removed, a part covered by another
     * (the sources of a merge whose removal a crash prevented) is removed. Returns the highest block number found.
     */
    public synchronized long load() throws IOException {
        List<IMergeTreeDataPart> loaded = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (n.startsWith(DataPartStorageOnDisk.TMP_PREFIX)) {
                    DataPartStorageOnDisk.deleteRecursively(p);
                    continue;
                }
                String partName = n.endsWith(DataPartStorageOnDisk.EXT) ? n.substring(0, n.length() - DataPartStorageOnDisk.EXT.length()) : n;
                MergeTreePartInfo info = MergeTreePartInfo.tryParse(partName);
                if (info != null && (Files.isDirectory(p) || n.endsWith(DataPartStorageOnDisk.EXT))) {
                    try {
                        loaded.add(DataPartStorageOnDisk.read(p, info, columns, defaults));
                    } catch (java.nio.file.NoSuchFileException gone) {
                        // removed while it was listed: the sources of a merge the table's previous object just
                        // committed (an ALTER opens the table again), not a part of the table any more
                    }
                }
            }
        }
        loaded.sort(Comparator.comparingInt((IMergeTreeDataPart p) -> -p.info().level()).thenComparing((IMergeTreeDataPart p) -> -p.info().mutation())
            .thenComparing(IMergeTreeDataPart::info));
        long maxBlock = 0;
        for (IMergeTreeDataPart p : loaded) {
            if (parts.add(p) == null) {
                DataPartStorageOnDisk.delete(dir, p.name());
            }
            maxBlock = Math.max(maxBlock, Math.max(p.info().maxBlock(), p.info().mutation()));
        }
        return maxBlock;
    }

    /** The active parts, ordered by partition and block range: a consistent snapshot. */
    public synchronized List<IMergeTreeDataPart> activeParts() {
        return parts.all();
    }

    public synchronized IMergeTreeDataPart activePart(String name) {
        return parts.get(name);
    }

    /** Whether {@code p} is still active (not merged, mutated or dropped away). */
    public synchronized boolean isActive(IMergeTreeDataPart p) {
        return parts.get(p.name()) == p;
    }

    /** A temporary part on disk, not yet active: its file (rows sorted by the key) and the columns stored in it. */
    public record TempPart(String partitionId, MergeTreeDataPartWriter.Written file, List<Column> stored) {
        public void discard() {
            file.discard();
        }
    }

    /** Writes sorted rows of one partition as a temporary part (outside the parts lock: this is the slow step). */
    public TempPart writeTempPart(String partitionId, List<Object[]> sortedRows, List<String> blockIds, boolean fsync) {
        return writeTempPart(partitionId, MergeTreeDataPartWriter.iterator(sortedRows), blockIds, fsync);
    }

    /** Writes rows of one partition, arriving in key order, as a temporary part, streaming. */
    void ttl(TTLDescription ttl) {
        this.ttl = ttl;
    }

    public TempPart writeTempPart(String partitionId, java.util.Iterator<Object[]> sortedRows, List<String> blockIds, boolean fsync) {
        if (!ttl.isEmpty()) {
            sortedRows = withTtl(sortedRows, ttl, System.currentTimeMillis() / 1000);
        }
        try {
            String tmpName = "insert_" + partitionId + "_" + ProcessHandle.current().pid() + "_" + tempCounter.incrementAndGet();
            return new TempPart(partitionId, MergeTreeDataPartWriter.writeTemporary(dir, tmpName, columns, sortedRows, blockIds, fsync, index),
                columns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Renames a temporary part's file to its final name without making it active, ClickHouse's PreActive state: a
     * replicated insert does this before its commit multi, so a crash after the multi leaves a file that the next load
     * finds and checks against ZooKeeper, and a crash before it leaves one the check detaches. The returned part is
     * made active by {@link #renameTempPartAndAdd(TempPart, MergeTreePartInfo)} or deleted by {@link TempPart#discard}.
     */
    public TempPart precommit(TempPart tmp, MergeTreePartInfo info) {
        try {
            synchronized (this) {
                if (parts.get(info.name()) != null) {
                    throw new ChException(ErrorCode.DUPLICATE_DATA_PART, "Part " + info.name() + " is already active");
                }
                return new TempPart(tmp.partitionId(), tmp.file().published(info), tmp.stored());
            }
        } catch (IOException e) {
            tmp.discard();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            tmp.discard();
            throw e;
        }
    }

    /**
     * Takes an active part out of the set and moves its file to {@code detached/<prefix>_<name>.bin} in the table's
     * directory, ClickHouse's detaching of an unexpected or broken part: kept for a human to look at, never loaded
     * again. Returns false when the part is not active.
     */
    public boolean detachPart(String name, String prefix) {
        synchronized (this) {
            IMergeTreeDataPart p = parts.get(name);
            if (p == null) {
                return false;
            }
            try {
                Path detached = dir.resolve("detached");
                Files.createDirectories(detached);
                p.file().relocate(detached.resolve(prefix + "_" + name + (p.layout().byColumn() ? "" : DataPartStorageOnDisk.EXT)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            parts.remove(p.info());
            return true;
        }
    }

    /** The table's {@code detached} directory, where DETACH PARTITION/PART leaves parts and ATTACH takes them from. */
    public Path detachedDirectory() {
        return dir.resolve("detached");
    }

    /**
     * DETACH PARTITION/PART: takes the active parts {@code which} accepts out of the set and moves each to
     * {@code detached/<name>}, as ClickHouse does; returns them.
     */
    public List<IMergeTreeDataPart> detachParts(java.util.function.Predicate<IMergeTreeDataPart> which) {
        List<IMergeTreeDataPart> out = new ArrayList<>();
        synchronized (this) {
            for (IMergeTreeDataPart p : parts.all()) {
                if (!which.test(p)) {
                    continue;
                }
                if (!p.layout().byColumn()) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Part " + p.name() + " is of the stub's earlier one-file layout: it cannot be detached");
                }
                try {
                    Files.createDirectories(detachedDirectory());
                    p.file().relocate(detachedDirectory().resolve(p.name()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                parts.remove(p.info());
                out.add(p);
            }
        }
        return out;
    }

    /**
     * A temporary part of the files of the part directory {@code partDir} (a detached part, or a part of another table
     * of the same columns), hard-linked (copied where links fail) so the source stays as it is.
     */
    public TempPart linkTempPart(Path partDir, MergeTreePartInfo info) {
        Path tmp = dir.resolve(DataPartStorageOnDisk.TMP_PREFIX + "attach_" + info.name() + "_" + tempCounter.incrementAndGet());
        try {
            IMergeTreeDataPart probe = DataPartStorageOnDisk.read(partDir, info, columns, defaults);
            DataPartStorageOnDisk.linkFiles(partDir, tmp);
            return new TempPart(info.partitionId(), new MergeTreeDataPartWriter.Written(dir, tmp, probe.rowCount(), probe.bytesOnDisk(),
                probe.layout().dataOffset(), List.of(), false), probe.layout().stored());
        } catch (IOException e) {
            try {
                DataPartStorageOnDisk.deleteRecursively(tmp);
            } catch (IOException ignored) {
                // the next load removes it
            }
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A temporary part with the same files as {@code source}: hard links, or copies where links fail; a part of an
     * older layout is rewritten.
     */
    public TempPart linkTempPart(IMergeTreeDataPart source) {
        if (!source.layout().file().equals(DataPartStorageOnDisk.pathOf(dir, source.name()))) {
            try (MergeTreeDataPartReader rows = source.openRows()) {
                return writeTempPart(source.info().partitionId(), rows, source.blockIds(), false);
            }
        }
        Path tmp = dir.resolve(DataPartStorageOnDisk.TMP_PREFIX + "mutate_" + source.name() + "_" + tempCounter.incrementAndGet());
        try {
            DataPartStorageOnDisk.linkFiles(source.file().data(), tmp);
        } catch (IOException e) {
            try {
                DataPartStorageOnDisk.deleteRecursively(tmp);
            } catch (IOException ignored) {
                // the next load removes it
            }
            throw new UncheckedIOException(e);
        }
        return new TempPart(source.info().partitionId(), new MergeTreeDataPartWriter.Written(dir, tmp, source.rowCount(), source.bytesOnDisk(),
            source.layout().dataOffset(), source.blockIds(), false), source.layout().stored());
    }

    /**
     * Readers of {@code which}, their leases taken under the parts lock, so that no removal can take a file away from
     * them; null if one of them is no longer active.
     */
    public synchronized List<MergeTreeDataPartReader> openIfActive(List<IMergeTreeDataPart> which) {
        List<MergeTreeDataPartReader> readers = new ArrayList<>(which.size());
        for (IMergeTreeDataPart p : which) {
            if (parts.get(p.name()) != p) {
                readers.forEach(MergeTreeDataPartReader::close);
                return null;
            }
            readers.add(p.openRows());
        }
        return readers;
    }

    /** Readers of the active parts (leased, opened as they are reached): a consistent snapshot a query reads. */
    public synchronized List<MergeTreeDataPartReader> openForRead() {
        return openIfActive(parts.all());
    }

    /**
     * Makes a temporary part active as a new level-0 part: under the parts lock, takes its block number from
     * {@code blockNumber}, renames the file and adds it, so no merge or mutation selected meanwhile can span a
     * block number whose part is not in the set yet. A part that an active part already covers is an error,
     * never a silent loss.
     */
    public synchronized IMergeTreeDataPart renameTempPartAndAdd(TempPart tmp, LongSupplier blockNumber) {
        long block = blockNumber.getAsLong();
        return addUnlocked(tmp, new MergeTreePartInfo(tmp.partitionId(), block, block, 0));
    }

    /** Makes a temporary part active under a block number the caller already holds (a replicated insert's lock). */
    public synchronized IMergeTreeDataPart renameTempPartAndAdd(TempPart tmp, MergeTreePartInfo info) {
        return addUnlocked(tmp, info);
    }

    private IMergeTreeDataPart addUnlocked(TempPart tmp, MergeTreePartInfo info) {
        if (dropped) {
            tmp.discard();
            throw new ChException(ErrorCode.UNKNOWN_TABLE, "The table was dropped, detached or altered while the insert ran");
        }
        for (IMergeTreeDataPart p : parts.all()) {
            if (p.info().partitionId().equals(info.partitionId()) && !p.info().isDisjoint(info)) {
                tmp.discard();
                throw new ChException(ErrorCode.LOGICAL_ERROR, "Part " + info.name() + " intersects active part " + p.name()
                    + "; it was not added");
            }
        }
        IMergeTreeDataPart part = publishUnlocked(tmp, info);
        parts.add(part);
        return part;
    }

    private IMergeTreeDataPart publishUnlocked(TempPart tmp, MergeTreePartInfo info) {
        CrashPoint.BEFORE_PART_RENAME.reached();
        Path file = tmp.file().finalPath(info);
        try {
            tmp.file().publish(info);
        } catch (IOException e) {
            tmp.discard();
            throw new UncheckedIOException(e);
        }
        MergeTreeDataPartWriter.Written w = tmp.file();
        return new IMergeTreeDataPart(info, w.rows(), System.currentTimeMillis() / 1000, w.dataBytes(), w.blockIds(),
            DataPartStorageOnDisk.Layout.of(file, w.dataOffset(), tmp.stored(), columns, defaults), file);
    }

    /**
     * Replaces {@code sources} with a merged or mutated part {@code info} (null when every row is gone: the sources
     * are just removed), only if the sources are all still active and are exactly the active parts the new part
     * covers; otherwise discards it and returns false. The sources' files are renamed away under the lock and deleted after it.
     */
    public boolean renameTempPartAndReplace(TempPart tmp, MergeTreePartInfo info, List<IMergeTreeDataPart> sources) {
        MergeTreePartInfo range = info != null ? info : sources.get(0).info();
        List<IMergeTreeDataPart> gone;
        synchronized (this) {
            if (dropped) {
                if (tmp != null) {
                    tmp.discard();
                }
                return false;
            }
            List<IMergeTreeDataPart> covered = new ArrayList<>();
            for (IMergeTreeDataPart p : parts.all()) {
                if (p.info().partitionId().equals(range.partitionId()) && !p.info().isDisjoint(rangeOf(sources, range))) {
                    covered.add(p);
                }
            }
            if (!covered.equals(sources)) {
                if (tmp != null) {
                    tmp.discard();
                }
                return false;
            }
            IMergeTreeDataPart replacement = tmp == null ? null : publishUnlocked(tmp, info);
            // a crash between the two leaves the sources next to the part that covers them: loading removes them
            gone = detachUnlocked(sources);
            if (replacement != null) {
                parts.add(replacement);
            }
        }
        deleteFiles(gone);
        return true;
    }

    private static MergeTreePartInfo rangeOf(List<IMergeTreeDataPart> sources, MergeTreePartInfo fallback) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (IMergeTreeDataPart s : sources) {
            min = Math.min(min, s.info().minBlock());
            max = Math.max(max, s.info().maxBlock());
        }
        return sources.isEmpty() ? fallback : new MergeTreePartInfo(fallback.partitionId(), min, max, 0);
    }

    /** Removes the active parts {@code which} selects (drop partition, drop part, truncate); returns them. */
    public List<IMergeTreeDataPart> removeParts(Predicate<IMergeTreeDataPart> which) {
        List<IMergeTreeDataPart> removed = new ArrayList<>();
        List<IMergeTreeDataPart> files;
        synchronized (this) {
            for (IMergeTreeDataPart p : parts.all()) {
                if (which.test(p)) {
                    removed.add(p);
                }
            }
            files = detachUnlocked(removed);
        }
        deleteFiles(files);
        return removed;
    }

    /**
     * Takes parts out of the set and renames their files to temporary names, both under the lock: a removed part
     * never comes back after a crash (loading deletes temporary files), and a query that holds a lease on it still finds
     * it ({@link PartFile}). Returns the parts, for the caller to delete their files outside the lock.
     */
    private List<IMergeTreeDataPart> detachUnlocked(List<IMergeTreeDataPart> which) {
        try {
            for (IMergeTreeDataPart p : which) {
                p.file().moveTo(dir.resolve(DataPartStorageOnDisk.TMP_PREFIX + "removed_" + p.name() + "_" + tempCounter.incrementAndGet()));
                parts.remove(p.info());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return which;
    }

    /** Deletes removed parts' files, now or, for a part a query still reads, when it is done. */
    private static void deleteFiles(List<IMergeTreeDataPart> gone) {
        if (!gone.isEmpty()) {
            CrashPoint.BEFORE_REMOVED_FILES_DELETED.reached();
        }
        for (IMergeTreeDataPart g : gone) {
            g.file().deleteIfUnread();
        }
    }

    /** {@code rows} as the table's TTL leaves them at {@code now}: expired rows left out, expired columns at their defaults. */
    private static java.util.Iterator<Object[]> withTtl(java.util.Iterator<Object[]> rows, TTLDescription ttl, long now) {
        return new java.util.Iterator<>() {
            private Object[] next;

            @Override
            public boolean hasNext() {
                while (next == null && rows.hasNext()) {
                    next = ttl.apply(rows.next(), now);
                }
                return next != null;
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                Object[] r = next;
                next = null;
                return r;
            }
        };
    }

    /** Commits no part from now on, leaving the files as they are (the table is detached or opened again). */
    public synchronized void shutdown() {
        dropped = true;
    }

    /** Removes every part and the table's directory (DROP TABLE). */
    public void drop() throws IOException {
        synchronized (this) {
            dropped = true;
            parts.clear();
        }
        DataPartStorageOnDisk.deleteRecursively(dir);
    }
}
