package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MergeTree table: its definition, its active parts on disk and in memory, block numbering, inserts (one part
 * per block and partition, written atomically), reads, partition and part drops, and merges (OPTIMIZE and a
 * simple size-tiered background policy). Mirrors ClickHouse's {@code StorageMergeTree}; the part set is guarded
 * by this object's monitor.
 */
public final class StorageMergeTree implements TableSource {
    private static final Logger LOG = LoggerFactory.getLogger(StorageMergeTree.class);
    /** A partition with more active parts than this gets a background merge. */
    static final int MERGE_TRIGGER_PARTS = 16;
    /** At most this many parts are merged at once. */
    static final int MAX_PARTS_TO_MERGE = 32;

    private final String database;
    private final String name;
    private final TableDefinition def;
    private final Path dir;
    private final ActiveDataPartSet parts = new ActiveDataPartSet();
    /** The next block number to allocate; greater than every block number of every part. */
    private final AtomicLong nextBlock = new AtomicLong(1);
    private volatile Map<String, String> settings;
    private volatile boolean mergesStopped;
    private final List<Column> storedColumns;
    private final MergeScheduler merges;

    public StorageMergeTree(String database, String name, TableDefinition def, Path dir, MergeScheduler merges) throws IOException {
        this.database = database;
        this.name = name;
        this.def = def;
        this.dir = dir;
        this.merges = merges;
        this.settings = def.settings();
        List<Column> cols = new ArrayList<>();
        for (TableColumn c : def.columns()) {
            cols.add(new Column(c.name(), c.type()));
        }
        this.storedColumns = List.copyOf(cols);
        Files.createDirectories(dir);
        load();
    }

    private void load() throws IOException {
        List<DataPart> loaded = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (n.startsWith(PartStore.TMP_PREFIX)) {
                    PartStore.deleteRecursively(p);
                    continue;
                }
                String partName = n.endsWith(PartStore.EXT) ? n.substring(0, n.length() - PartStore.EXT.length()) : n;
                MergeTreePartInfo info = MergeTreePartInfo.tryParse(partName);
                if (info != null && (Files.isDirectory(p) || n.endsWith(PartStore.EXT))) {
                    loaded.add(PartStore.read(p, info, storedColumns));
                }
            }
        }
        loaded.sort(Comparator.comparingInt((DataPart p) -> -p.info().level()).thenComparing(p -> p.info()));
        for (DataPart p : loaded) {
            List<DataPart> replaced = parts.add(p);
            if (replaced == null) {
                // covered by a merged part whose sources were not removed before a restart
                PartStore.delete(dir, p.name());
            }
            nextBlock.accumulateAndGet(p.info().maxBlock() + 1, Math::max);
        }
    }

    public String database() {
        return database;
    }

    public String name() {
        return name;
    }

    public TableDefinition definition() {
        return def;
    }

    public Path directory() {
        return dir;
    }

    public Map<String, String> settings() {
        return settings;
    }

    public long setting(String n) {
        return MergeTreeSettings.getLong(settings, n);
    }

    public synchronized void modifySettings(Map<String, String> changes) {
        Map<String, String> m = new LinkedHashMap<>(settings);
        m.putAll(changes);
        settings = MergeTreeSettings.validated(m, def.engine());
    }

    public synchronized void resetSettings(List<String> names) {
        Map<String, String> m = new LinkedHashMap<>(settings);
        for (String n : names) {
            MergeTreeSettings.check(n, def.engine());
            m.remove(n);
        }
        settings = MergeTreeSettings.validated(m, def.engine());
    }

    @Override
    public List<Column> columns() {
        return storedColumns;
    }

    @Override
    public List<Column> virtualColumns() {
        return List.of(new Column("_part", DataTypes.STRING), new Column("_partition_id", DataTypes.STRING));
    }

    @Override
    public Map<String, dev.chdedup.stub.sql.Expr> aliasColumns() {
        Map<String, dev.chdedup.stub.sql.Expr> m = new LinkedHashMap<>();
        for (TableColumn a : def.aliasColumns()) {
            m.put(a.name(), new dev.chdedup.stub.sql.Expr.Cast(a.defaultExpr(), a.type().name()));
        }
        return m;
    }

    public synchronized List<DataPart> activeParts() {
        return parts.all();
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        List<DataPart> snapshot = activeParts();
        List<Column> header = new ArrayList<>(storedColumns);
        if (withVirtuals) {
            header.addAll(virtualColumns());
        }
        int width = storedColumns.size();
        return new Iterator<>() {
            int partIdx;
            int offset;

            @Override
            public boolean hasNext() {
                while (partIdx < snapshot.size() && offset >= snapshot.get(partIdx).rows().size()) {
                    partIdx++;
                    offset = 0;
                }
                return partIdx < snapshot.size();
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                DataPart p = snapshot.get(partIdx);
                int to = (int) Math.min(p.rows().size(), (long) offset + maxBlockSize);
                List<Object[]> rows = p.rows().subList(offset, to);
                offset = to;
                if (withVirtuals) {
                    List<Object[]> ext = new ArrayList<>(rows.size());
                    for (Object[] r : rows) {
                        Object[] e = java.util.Arrays.copyOf(r, width + 2);
                        e[width] = p.name();
                        e[width + 1] = p.info().partitionId();
                        ext.add(e);
                    }
                    rows = ext;
                }
                return new Block(header, rows);
            }
        };
    }

    /** Splits a block of full table rows by partition, refusing more partitions than the setting allows. */
    public Map<String, List<Object[]>> splitByPartition(List<Object[]> rows, long maxPartitions, boolean throwOnMax) {
        Map<String, List<Object[]>> byPartition = new LinkedHashMap<>();
        PartitionKey pk = def.partitionKey();
        for (Object[] r : rows) {
            byPartition.computeIfAbsent(pk.partitionId(r), k -> new ArrayList<>()).add(r);
        }
        if (maxPartitions > 0 && byPartition.size() > maxPartitions && throwOnMax) {
            throw new ChException(ErrorCode.TOO_MANY_PARTS, "Too many partitions for single INSERT block (more than " + maxPartitions
                + "). The limit is controlled by 'max_partitions_per_insert_block' setting. Large number of partitions is a common"
                + " misconception. It will lead to severe negative performance impact, including slow server startup, slow INSERT"
                + " queries and slow SELECT queries.");
        }
        return byPartition;
    }

    /** Sorts rows by the ORDER BY key, stably. */
    public void sortByKey(List<Object[]> rows) {
        Evaluator key = def.sortingKey();
        int n = rows.size();
        if (key == null || n < 2) {
            return;
        }
        DataType t = key.type();
        // the key of each row once (not once per comparison); input that arrives in order is left as it is
        Object[] keys = new Object[n];
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            keys[i] = key.eval(rows.get(i));
            if (sorted && i > 0 && compareKeys(t, keys[i - 1], keys[i]) > 0) {
                sorted = false;
            }
        }
        if (sorted) {
            return;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> compareKeys(t, keys[a], keys[b]));
        Object[][] copy = rows.toArray(new Object[0][]);
        for (int i = 0; i < n; i++) {
            rows.set(i, copy[order[i]]);
        }
    }

    private static int compareKeys(DataType t, Object a, Object b) {
        if (a == null || b == null) {
            return a == b ? 0 : a == null ? 1 : -1;
        }
        return t.compare(a, b);
    }

    /** Takes the next block number; a part written with it becomes visible through {@link #commitPart}. */
    public long allocateBlockNumber() {
        return nextBlock.getAndIncrement();
    }

    public void checkTooManyParts(String partitionId) {
        long limit = setting("parts_to_throw_insert");
        long n;
        synchronized (this) {
            n = parts.all().stream().filter(p -> p.info().partitionId().equals(partitionId)).count();
        }
        if (n >= limit) {
            throw new ChException(ErrorCode.TOO_MANY_PARTS, "Too many parts (" + n + " with average size of " + 0
                + "). Merges are processing significantly slower than inserts");
        }
    }

    /** Writes sorted rows of one partition as a new part with a fresh block number and makes it active. */
    public DataPart writePart(String partitionId, List<Object[]> sortedRows) {
        long block = allocateBlockNumber();
        MergeTreePartInfo info = new MergeTreePartInfo(partitionId, block, block, 0);
        return commitPart(info, sortedRows);
    }

    DataPart commitPart(MergeTreePartInfo info, List<Object[]> sortedRows) {
        try {
            long bytes = PartStore.write(dir, info, storedColumns, sortedRows, setting("fsync_after_insert") != 0);
            DataPart part = new DataPart(info, List.copyOf(sortedRows), System.currentTimeMillis() / 1000, bytes);
            synchronized (this) {
                parts.add(part);
            }
            if (merges != null) {
                merges.schedule(this);
            }
            return part;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized List<DataPart> dropPartition(String partitionId) throws IOException {
        List<DataPart> dropped = new ArrayList<>();
        for (DataPart p : parts.all()) {
            if (p.info().partitionId().equals(partitionId)) {
                parts.remove(p.info());
                PartStore.delete(dir, p.name());
                dropped.add(p);
            }
        }
        return dropped;
    }

    public synchronized DataPart dropPart(String partName) throws IOException {
        DataPart p = parts.get(partName);
        if (p == null) {
            throw new ChException(ErrorCode.NO_SUCH_DATA_PART, "No part " + partName + " in committed state");
        }
        parts.remove(p.info());
        PartStore.delete(dir, p.name());
        return p;
    }

    public synchronized List<DataPart> truncate() throws IOException {
        List<DataPart> all = parts.all();
        for (DataPart p : all) {
            PartStore.delete(dir, p.name());
        }
        parts.clear();
        return all;
    }

    public void stopMerges(boolean stop) {
        mergesStopped = stop;
        if (!stop && merges != null) {
            merges.schedule(this);
        }
    }

    public boolean mergesStopped() {
        return mergesStopped;
    }

    /**
     * OPTIMIZE: merges the parts of each partition (or of {@code onlyPartition}); with {@code fin} a partition's
     * single part is rewritten too. Returns whether anything was merged.
     */
    public boolean optimize(String onlyPartition, boolean fin) {
        if (mergesStopped) {
            throw new ChException(ErrorCode.ABORTED, "Cancelled merging parts");
        }
        boolean any = false;
        Map<String, List<DataPart>> byPartition = partsByPartition();
        for (Map.Entry<String, List<DataPart>> e : byPartition.entrySet()) {
            if (onlyPartition != null && !onlyPartition.equals(e.getKey())) {
                continue;
            }
            List<DataPart> ps = e.getValue();
            if (ps.size() > 1 || fin && ps.size() == 1 && ps.get(0).info().level() == 0) {
                merge(ps);
                any = true;
            }
        }
        return any;
    }

    private synchronized Map<String, List<DataPart>> partsByPartition() {
        Map<String, List<DataPart>> m = new LinkedHashMap<>();
        for (DataPart p : parts.all()) {
            m.computeIfAbsent(p.info().partitionId(), k -> new ArrayList<>()).add(p);
        }
        return m;
    }

    /**
     * One step of the background policy, size-tiered: in a partition with more than {@link #MERGE_TRIGGER_PARTS}
     * parts, merge the run of 2 to {@link #MAX_PARTS_TO_MERGE} adjacent parts with the fewest rows among the runs
     * whose largest part is at most half of the result, so a big part is not rewritten for a few small ones.
     */
    boolean mergeStep() {
        if (mergesStopped) {
            return false;
        }
        for (List<DataPart> ps : partsByPartition().values()) {
            if (ps.size() <= MERGE_TRIGGER_PARTS) {
                continue;
            }
            int bestFrom = -1;
            int bestLen = 0;
            long bestRows = Long.MAX_VALUE;
            int n = ps.size();
            long[] prefix = new long[n + 1];
            for (int i = 0; i < n; i++) {
                prefix[i + 1] = prefix[i] + Math.max(1, ps.get(i).rowCount());
            }
            for (int i = 0; i + 1 < n; i++) {
                long max = Math.max(1, ps.get(i).rowCount());
                for (int len = 2; len <= MAX_PARTS_TO_MERGE && i + len <= n; len++) {
                    max = Math.max(max, Math.max(1, ps.get(i + len - 1).rowCount()));
                    long sum = prefix[i + len] - prefix[i];
                    // prefer the longest run among those with the fewest rows per part merged
                    boolean better = bestFrom < 0 || sum * bestLen < bestRows * len || sum * bestLen == bestRows * len && len > bestLen;
                    if (max * 2 <= sum && better) {
                        bestRows = sum;
                        bestFrom = i;
                        bestLen = len;
                    }
                }
            }
            if (bestFrom >= 0) {
                merge(ps.subList(bestFrom, bestFrom + bestLen));
                return true;
            }
        }
        return false;
    }

    private void merge(List<DataPart> sources) {
        List<Object[]> rows = new ArrayList<>();
        int level = 0;
        long mutation = 0;
        for (DataPart p : sources) {
            rows.addAll(p.rows());
            level = Math.max(level, p.info().level());
            mutation = Math.max(mutation, p.info().mutation());
        }
        sortByKey(rows);
        DataPart first = sources.get(0);
        DataPart last = sources.get(sources.size() - 1);
        MergeTreePartInfo info = new MergeTreePartInfo(first.info().partitionId(), first.info().minBlock(), last.info().maxBlock(),
            level + 1, mutation);
        synchronized (this) {
            for (DataPart s : sources) {
                if (parts.get(s.name()) == null) {
                    return;
                }
            }
        }
        try {
            PartStore.Written written = PartStore.writeTemporary(dir, info, storedColumns, rows, setting("fsync_after_insert") != 0);
            DataPart merged = new DataPart(info, List.copyOf(rows), System.currentTimeMillis() / 1000, written.dataBytes());
            List<DataPart> replaced;
            synchronized (this) {
                // a source dropped meanwhile (TRUNCATE, DROP PARTITION/PART) must not come back through the merge;
                // the merged part becomes visible on disk only here, so a crash cannot resurrect dropped rows either
                for (DataPart src : sources) {
                    if (parts.get(src.name()) == null) {
                        written.discard();
                        return;
                    }
                }
                written.publish();
                replaced = parts.add(merged);
            }
            if (replaced != null) {
                for (DataPart r : replaced) {
                    PartStore.delete(dir, r.name());
                }
            }
            LOG.debug("Merged {} parts into {} in {}.{}", sources.size(), info.name(), database, name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Rewrites one row of a mutation: returns the new row, or null to delete it. */
    @FunctionalInterface
    public interface RowMutation {
        Object[] apply(Object[] row);
    }

    /**
     * Applies a mutation (ALTER TABLE ... DELETE/UPDATE, DELETE FROM) to every active part, synchronously: each part
     * the mutation changes is rewritten as the same block range with a new mutation version
     * ({@code <partition>_<min>_<max>_<level>_<version>}) that replaces it. The deduplication log keeps its block
     * ids, as in ClickHouse: deleted rows re-inserted as the same block are still dropped as duplicates.
     * Returns how many parts were rewritten.
     */
    public synchronized int mutate(RowMutation mutation) throws IOException {
        long version = allocateBlockNumber();
        int rewritten = 0;
        for (DataPart p : parts.all()) {
            List<Object[]> out = new ArrayList<>(p.rows().size());
            boolean changed = false;
            for (Object[] r : p.rows()) {
                Object[] m = mutation.apply(r);
                if (m != r) {
                    changed = true;
                }
                if (m != null) {
                    out.add(m);
                }
            }
            if (!changed) {
                continue;
            }
            sortByKey(out);
            if (out.isEmpty()) {
                // every row deleted: the part goes, with nothing to replace it
                parts.remove(p.info());
            } else {
                MergeTreePartInfo info = p.info().withMutation(version);
                PartStore.Written w = PartStore.writeTemporary(dir, info, storedColumns, out, setting("fsync_after_insert") != 0);
                w.publish();
                parts.add(new DataPart(info, List.copyOf(out), System.currentTimeMillis() / 1000, w.dataBytes()));
            }
            PartStore.delete(dir, p.name());
            rewritten++;
        }
        return rewritten;
    }

    public void drop() throws IOException {
        synchronized (this) {
            parts.clear();
        }
        PartStore.deleteRecursively(dir);
    }
}
