package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MergeTree table, after ClickHouse's {@code StorageMergeTree}: its definition and settings, local block
 * numbering, inserts (one part per block and partition), reads, partition and part drops, background merges and
 * OPTIMIZE, and mutations (persisted as {@link MergeTreeMutationEntry}, applied part by part, resumed after a
 * restart). The parts themselves live in {@link MergeTreeData}, whose monitor also guards {@link #nextBlock},
 * {@link #currentlyMerging} and {@link #mutations}: a block number is taken and its part added under that one
 * lock, so no merge or mutation can be selected across a block whose part is not active yet.
 */
public class StorageMergeTree implements TableSource {
    private static final Logger LOG = LoggerFactory.getLogger(StorageMergeTree.class);
    /** How long OPTIMIZE waits for merges and mutations running on the parts it wants. */
    private static final long OPTIMIZE_WAIT_MS = 30_000;

    private final String database;
    private final String name;
    private final TableDefinition def;
    private final MergeTreeData data;
    private final MergeTreeDataMergerMutator mergerMutator;
    private final MergeTreeDataMergerMutator.KeyOrder keyOrder;
    private final MergeTreeDataMergerMutator.MergingMode mergingMode;
    /** The next block number to allocate; greater than every block number and mutation version on disk. Guarded by {@link #data}. */
    private long nextBlock = 1;
    /**
     * Parts a merge or a mutation is rewriting now, and new parts whose insert is not finished (their block ids not in
     * the deduplication log yet): no merge or mutation takes them. Guarded by {@link #data}.
     */
    private final Set<IMergeTreeDataPart> currentlyMerging = new HashSet<>();
    private final MergeTreeMutations mutations;
    private volatile Map<String, String> settings;
    private volatile boolean mergesStopped;
    private final List<Column> storedColumns;
    private final MergeTreeBackgroundExecutor merges;
    /** The table's TTL: what an insert stores and merges keep of expired rows and values. */
    private final TTLDescription ttl;

    public StorageMergeTree(String database, String name, TableDefinition def, Path dir, MergeTreeBackgroundExecutor merges) throws IOException {
        this(database, name, def, dir, merges, Map.of());
    }

    /**
     * The table over the parts in {@code dir}; {@code renamedFrom} names the columns an ALTER renamed (new name to
     * old) that parts may still hold under their old name until the RENAME's mutation rewrites them.
     */
    public StorageMergeTree(String database, String name, TableDefinition def, Path dir, MergeTreeBackgroundExecutor merges,
                            Map<String, String> renamedFrom) throws IOException {
        this.database = database;
        this.name = name;
        this.def = def;
        this.merges = merges;
        this.settings = def.settings();
        List<Column> cols = new ArrayList<>();
        for (TableColumn c : def.columns()) {
            cols.add(new Column(c.name(), c.type()));
        }
        this.storedColumns = List.copyOf(cols);
        this.data = new MergeTreeData(dir, storedColumns, PrimaryIndex.Spec.of(def, storedColumns, setting("index_granularity")),
            alterConversions(def, storedColumns, renamedFrom));
        this.keyOrder = new MergeTreeDataMergerMutator.KeyOrder() {
            @Override
            public boolean sorted() {
                return def.sortingKey() != null;
            }

            @Override
            public Object key(Object[] row) {
                return def.sortingKey().eval(row);
            }

            @Override
            public int compare(Object a, Object b) {
                return compareKeys(def.sortingKey().type(), a, b);
            }
        };
        this.mergingMode = MergingModes.of(def);
        this.mergerMutator = new MergeTreeDataMergerMutator(data, keyOrder, mergingMode);
        this.ttl = TTLDescription.of(def.clauseSql(), def.columns());
        data.ttl(ttl);
        this.mutations = new MergeTreeMutations(this, data, mergerMutator, currentlyMerging);
        long maxBlock = data.load();
        synchronized (data) {
            nextBlock = maxBlock + 1;
            mutations.loadUnlocked(dir);
        }
    }

    /**
     * What a part written before an ALTER reads for a column it lacks: the column's DEFAULT or MATERIALIZED expression
     * over the stored columns (a column whose expression reads an EPHEMERAL one, which no part stores, reads as its
     * type's default).
     */
    private static DataPartStorageOnDisk.AlterConversions alterConversions(TableDefinition def, List<Column> stored,
                                                                          Map<String, String> renamedFrom) {
        List<dev.chdedup.stub.exec.Evaluator> defaults = new ArrayList<>();
        boolean any = !renamedFrom.isEmpty();
        QueryContext ctx = new QueryContext("default", "default", "", dev.chdedup.stub.exec.Settings.DEFAULTS);
        for (TableColumn c : def.columns()) {
            dev.chdedup.stub.exec.Evaluator e = null;
            if (c.defaultExpr() != null) {
                try {
                    e = new dev.chdedup.stub.exec.ExprCompiler(ctx, stored, Map.of(), null).compile(c.defaultExpr());
                    any = true;
                } catch (ChException ignored) {
                    // reads an EPHEMERAL column
                }
            }
            defaults.add(e);
        }
        return any ? new DataPartStorageOnDisk.AlterConversions(defaults, stored, Map.copyOf(renamedFrom))
            : DataPartStorageOnDisk.AlterConversions.NONE;
    }

    /**
     * Stops the table without touching its files (DETACH TABLE, or before an ALTER opens it again with its new
     * definition): no part is committed after this, merges stop, and the table's object is not used again.
     */
    public void shutdown() {
        mergesStopped = true;
        data.shutdown();
        long deadline = System.currentTimeMillis() + 10_000;
        synchronized (data) { // the merges and mutations running end (their commits are refused now) before the table opens again
            while (!currentlyMerging.isEmpty() && System.currentTimeMillis() < deadline) {
                try {
                    data.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
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
        return data.directory();
    }

    public Map<String, String> settings() {
        return settings;
    }

    public long setting(String n) {
        return MergeTreeSettings.getLong(settings, n);
    }

    public synchronized void modifySettings(Map<String, String> changes) {
        for (String n : changes.keySet()) {
            MergeTreeSettings.checkAlterable(n, def.engine());
        }
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

    /** The table's TTL. */
    public TTLDescription ttl() {
        return ttl;
    }

    /** SELECT * leaves MATERIALIZED columns out, as ClickHouse does (they are read by name). */
    @Override
    public List<Column> starColumns() {
        List<Column> star = new ArrayList<>();
        for (int i = 0; i < storedColumns.size(); i++) {
            if (!def.columns().get(i).isMaterialized()) {
                star.add(storedColumns.get(i));
            }
        }
        return star.size() == storedColumns.size() ? storedColumns : star;
    }

    @Override
    public List<Column> virtualColumns() {
        return List.of(new Column("_part", DataTypes.STRING), new Column("_partition_id", DataTypes.STRING));
    }

    @Override
    public Map<String, String> textIndexTokenizers() {
        return dev.chdedup.stub.exec.TextIndexTokenizers.of(def.clauseSql());
    }

    @Override
    public Map<String, dev.chdedup.stub.sql.Expr> aliasColumns() {
        Map<String, dev.chdedup.stub.sql.Expr> m = new LinkedHashMap<>();
        for (TableColumn a : def.aliasColumns()) {
            m.put(a.name(), new dev.chdedup.stub.sql.Expr.Cast(a.defaultExpr(), a.type().name()));
        }
        return m;
    }

    public List<IMergeTreeDataPart> activeParts() {
        return data.activeParts();
    }

    @Override
    public Iterator<Block> readFinal(int maxBlockSize, boolean withVirtuals) {
        return FinalReader.read(this, maxBlockSize, withVirtuals);
    }

    /** The active parts' row counts: a part's count is in its metadata ({@code count.txt}), and its rows are all live. */
    @Override
    public java.util.OptionalLong rowCountFromMetadata() {
        long n = 0;
        for (IMergeTreeDataPart p : data.activeParts()) {
            n += p.rowCount();
        }
        return java.util.OptionalLong.of(n);
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        return read(maxBlockSize, withVirtuals, null, null, null);
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals, boolean[] needed) {
        return read(maxBlockSize, withVirtuals, null, needed, null);
    }

    /**
     * {@link #read(int, boolean, boolean[])} of the granules that may hold rows {@code filter} accepts, as the primary
     * index tells ({@link KeyCondition}): a part none of whose granules may is not read, a Wide part reads only those
     * that may. The caller still filters the rows.
     */
    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals, boolean[] needed, dev.chdedup.stub.sql.Expr filter) {
        KeyCondition cond = keyCondition(filter);
        if (cond == null) {
            return read(maxBlockSize, withVirtuals, null, needed, null);
        }
        return read(maxBlockSize, withVirtuals, null, needed, reader -> {
            Granules g = granules(reader.part(), cond);
            if (g.ranges() != null) {
                reader.restrictTo(g.index(), g.ranges());
            }
            return !g.none();
        });
    }

    /** What {@code filter} says of the primary key's first column, or null when nothing. */
    private KeyCondition keyCondition(dev.chdedup.stub.sql.Expr filter) {
        List<String> key = def.primaryKeyColumns();
        if (filter != null && !key.isEmpty()) {
            for (Column c : storedColumns) {
                if (c.name().equals(key.get(0))) {
                    return KeyCondition.of(filter, c.name(), c.type());
                }
            }
        }
        return null;
    }

    /**
     * The granules of a part a read under {@code cond} takes: none, all ({@code ranges} null), or the ranges of a Wide
     * part's {@code index} (a Compact part is one granule, and a part without an index is read whole).
     */
    private record Granules(boolean none, PrimaryIndex index, int[] ranges) {
        static final Granules ALL = new Granules(false, null, null);
    }

    private Granules granules(IMergeTreeDataPart p, KeyCondition cond) {
        PrimaryIndex index = cond == null ? null : PrimaryIndex.load(p, def.primaryKeyColumns());
        if (index == null) {
            return Granules.ALL;
        }
        int[] ranges = cond.granuleRanges(index);
        if (ranges.length == 0) {
            return new Granules(true, index, null);
        }
        boolean whole = ranges.length == 2 && ranges[0] == 0 && ranges[1] == index.granules();
        return whole || p.layout().kind() != DataPartStorageOnDisk.Kind.WIDE ? Granules.ALL : new Granules(false, index, ranges);
    }

    /**
     * What a read under {@code filter} (null: none) would read of the active parts, as EXPLAIN ESTIMATE and the plan's
     * ReadFromMergeTree report it: the parts, rows and granules the primary index leaves in.
     */
    public record ReadEstimate(long parts, long rows, long granules) {
    }

    public ReadEstimate estimate(dev.chdedup.stub.sql.Expr filter) {
        KeyCondition cond = keyCondition(filter);
        long granule = Math.max(1, setting("index_granularity"));
        long parts = 0;
        long rows = 0;
        long granules = 0;
        for (IMergeTreeDataPart p : data.activeParts()) {
            Granules g = granules(p, cond);
            if (g.none()) {
                continue;
            }
            parts++;
            if (g.ranges() == null) {
                rows += p.rowCount();
                granules += (p.rowCount() + granule - 1) / granule;
                continue;
            }
            for (int i = 0; i < g.ranges().length; i += 2) {
                rows += g.index().start(g.ranges()[i + 1]) - g.index().start(g.ranges()[i]);
                granules += g.ranges()[i + 1] - g.ranges()[i];
            }
        }
        return new ReadEstimate(parts, rows, granules);
    }

    /** {@link #read(int, boolean)} of the active parts that {@code parts} accepts (null: all). */
    protected Iterator<Block> read(int maxBlockSize, boolean withVirtuals, java.util.function.Predicate<IMergeTreeDataPart> parts) {
        return read(maxBlockSize, withVirtuals, parts, null, null);
    }

    /**
     * The read of the active parts {@code parts} accepts (null: all), of the columns {@code needed} marks; {@code granules},
     * when given, may narrow each part's reader to some granules, or refuse the part (false).
     */
    private Iterator<Block> read(int maxBlockSize, boolean withVirtuals, java.util.function.Predicate<IMergeTreeDataPart> parts, boolean[] needed,
                                 java.util.function.Predicate<MergeTreeDataPartReader> granules) {
        // the snapshot leases every part now, so merges and drops that follow cannot take their files away
        List<MergeTreeDataPartReader> all = data.openForRead();
        List<MergeTreeDataPartReader> snapshot = parts == null && granules == null ? all : new ArrayList<>(all.size());
        if (parts != null || granules != null) {
            for (MergeTreeDataPartReader r : all) {
                if ((parts == null || parts.test(r.part())) && (granules == null || granules.test(r))) {
                    snapshot.add(r);
                } else {
                    r.close();
                }
            }
        }
        List<Column> header = new ArrayList<>(storedColumns);
        if (withVirtuals) {
            header.addAll(virtualColumns());
        }
        int width = storedColumns.size();
        // as ClickHouse's MergeTree reader: whole granules, at least max_block_size rows, never across parts
        long granule = Math.max(1, setting("index_granularity"));
        int blockSize = (int) Math.min(Integer.MAX_VALUE, (Math.max(1, maxBlockSize) + granule - 1) / granule * granule);
        return new Iterator<>() {
            int partIdx;

            @Override
            public boolean hasNext() {
                while (partIdx < snapshot.size() && !snapshot.get(partIdx).hasNext()) {
                    partIdx++;
                }
                return partIdx < snapshot.size();
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                MergeTreeDataPartReader reader = snapshot.get(partIdx);
                IMergeTreeDataPart p = reader.part();
                ColumnRows rows = reader.nextColumns(blockSize, needed);
                if (!withVirtuals) {
                    return new Block(header, rows);
                }
                IColumn[] cols = java.util.Arrays.copyOf(rows.columns(), width + 2);
                cols[width] = Columns.repeat(header.get(width).type(), p.name(), rows.size());
                cols[width + 1] = Columns.repeat(header.get(width + 1).type(), p.info().partitionId(), rows.size());
                return Block.ofColumns(header, cols, rows.size(), null);
            }
        };
    }

    /** The value of each partition by its id, as system.parts shows it; taken from a part's first row when first asked. */
    private final Map<String, String> partitionTexts = new java.util.concurrent.ConcurrentHashMap<>();

    /** The value of {@code part}'s partition as text ({@link PartitionKey#partitionText}). */
    public String partitionText(IMergeTreeDataPart part) {
        return partitionTexts.computeIfAbsent(part.info().partitionId(), id -> {
            List<Object[]> rows = part.readAllRows();
            return rows.isEmpty() ? id : def.partitionKey().partitionText(rows.get(0));
        });
    }

    /**
     * Splits a block of full table rows by partition, refusing more partitions than the setting allows. The rows of a
     * columnar block ({@link ColumnRows}) give columnar pieces: views of their own, which {@link #sortByKey} may
     * reorder without touching the block.
     */
    public Map<String, List<Object[]>> splitByPartition(List<Object[]> rows, long maxPartitions, boolean throwOnMax) {
        if (!ttl.isEmpty()) {
            rows = ttl.apply(rows, System.currentTimeMillis() / 1000); // an insert stores no expired row, as ClickHouse's writer
        }
        Map<String, List<Object[]>> byPartition = new LinkedHashMap<>();
        PartitionKey pk = def.partitionKey();
        if (rows instanceof ColumnRows) {
            ColumnRows cr = (ColumnRows) rows;
            if (pk.isEmpty()) {
                if (!rows.isEmpty()) {
                    byPartition.put("all", new ColumnRows(cr.columns(), cr.size()));
                }
                return byPartition;
            }
            Map<String, int[]> indexes = new LinkedHashMap<>();
            Map<String, Integer> counts = new LinkedHashMap<>();
            String[] ids = new String[cr.size()];
            for (int r = 0; r < ids.length; r++) {
                ids[r] = pk.partitionId(cr.get(r));
                counts.merge(ids[r], 1, Integer::sum);
            }
            checkPartitions(counts.size(), maxPartitions, throwOnMax);
            counts.forEach((id, n) -> indexes.put(id, new int[n]));
            Map<String, Integer> filled = new java.util.HashMap<>();
            for (int r = 0; r < ids.length; r++) {
                int at = filled.merge(ids[r], 1, Integer::sum) - 1;
                indexes.get(ids[r])[at] = r;
            }
            indexes.forEach((id, perm) -> byPartition.put(id, permuted(cr.columns(), perm)));
            return byPartition;
        }
        for (Object[] r : rows) {
            byPartition.computeIfAbsent(pk.partitionId(r), k -> new ArrayList<>()).add(r);
        }
        checkPartitions(byPartition.size(), maxPartitions, throwOnMax);
        return byPartition;
    }

    private static ColumnRows permuted(IColumn[] columns, int[] perm) {
        IColumn[] out = new IColumn[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c].permute(perm);
        }
        return new ColumnRows(out, perm.length);
    }

    private static void checkPartitions(int partitions, long maxPartitions, boolean throwOnMax) {
        if (maxPartitions > 0 && partitions > maxPartitions && throwOnMax) {
            throw new ChException(ErrorCode.TOO_MANY_PARTS, "Too many partitions for single INSERT block (more than " + maxPartitions
                + "). The limit is controlled by 'max_partitions_per_insert_block' setting. Large number of partitions is a common"
                + " misconception. It will lead to severe negative performance impact, including slow server startup, slow INSERT"
                + " queries and slow SELECT queries.");
        }
    }

    /**
     * An insert's sorted piece as a merge of that part alone would leave it (optimize_on_insert, as ClickHouse's
     * MergeTreeDataWriter does): one row per key of a Replacing, Summing, Aggregating or (Versioned)Collapsing table as
     * its engine merges them; the rows as they are for MergeTree or a table without a sorting key.
     */
    public List<Object[]> mergeOnInsert(List<Object[]> sortedRows) {
        if (mergingMode == MergeTreeDataMergerMutator.MergingMode.KEEP_ALL || def.sortingKey() == null || sortedRows.size() < 2) {
            return sortedRows;
        }
        List<Object[]> out = new ArrayList<>(sortedRows.size());
        mergingMode.merge(sortedRows.iterator(), keyOrder).forEachRemaining(out::add);
        return out;
    }

    /**
     * Sorts rows by the ORDER BY key, stably; a columnar piece ({@link ColumnRows}) by a permutation of its columns.
     * Input that arrives in order is left as it is.
     */
    public void sortByKey(List<Object[]> rows) {
        Evaluator key = def.sortingKey();
        int n = rows.size();
        if (key == null || n < 2) {
            return;
        }
        DataType t = key.type();
        if (rows instanceof ColumnRows) {
            ColumnRows cr = (ColumnRows) rows;
            int[] perm = SortPermutation.of(cr, key);
            if (perm != null) {
                cr.replace(permuted(cr.columns(), perm).columns());
            }
            return;
        }
        // the key of each row once (not once per comparison)
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

    static int compareKeys(DataType t, Object a, Object b) {
        if (a == null || b == null) {
            return a == b ? 0 : a == null ? 1 : -1;
        }
        return t.compare(a, b);
    }

    /** Takes the next block number; the caller holds {@link #data}'s monitor. */
    long allocateBlockNumberUnlocked() {
        return nextBlock++;
    }

    /** Makes sure block numbers from now on are above {@code used} (a mutation version found on disk). Holds the lock. */
    void noteBlockNumberUnlocked(long used) {
        nextBlock = Math.max(nextBlock, used + 1);
    }

    void scheduleMerges() {
        if (merges != null) {
            merges.schedule(this);
        }
    }

    public void checkTooManyParts(String partitionId) {
        long limit = setting("parts_to_throw_insert");
        long n = data.activeParts().stream().filter(p -> p.info().partitionId().equals(partitionId)).count();
        if (n >= limit) {
            throw new ChException(ErrorCode.TOO_MANY_PARTS, "Too many parts (" + n + " with average size of " + 0
                + "). Merges are processing significantly slower than inserts");
        }
    }

    /**
     * Which of {@code ids} are already taken where this table keeps block ids outside its local log (ZooKeeper, for a
     * replicated table); none here.
     */
    public java.util.Set<String> existingBlockIds(java.util.Collection<String> ids) {
        return java.util.Set.of();
    }

    /**
     * Writes sorted rows of one partition as a new part and makes it active with a fresh block number taken under
     * the parts lock. {@code blockIds} (the ids a deduplication log records for it, or none) are stored in the
     * part, so a crash before the log's record cannot lose them.
     */
    public IMergeTreeDataPart writePart(String partitionId, List<Object[]> sortedRows, List<String> blockIds) {
        return writePart(partitionId, sortedRows, blockIds, part -> { });
    }

    /**
     * {@link #writePart(String, List, List)}, running {@code whileHeld} once the part is active and before any merge
     * or mutation may take it: the deduplication log records the part's ids there, so until they are recorded the
     * part stays a level-0 part with its ids in its file, which loading finds after a crash.
     */
    public IMergeTreeDataPart writePart(String partitionId, List<Object[]> sortedRows, List<String> blockIds, java.util.function.Consumer<IMergeTreeDataPart> whileHeld) {
        MergeTreeData.TempPart tmp = data.writeTempPart(partitionId, sortedRows, blockIds, fsync());
        IMergeTreeDataPart part;
        synchronized (data) {
            part = data.renameTempPartAndAdd(tmp, this::allocateBlockNumberUnlocked);
            currentlyMerging.add(part);
        }
        try {
            whileHeld.accept(part);
        } finally {
            synchronized (data) {
                currentlyMerging.remove(part);
                data.notifyAll();
            }
        }
        if (merges != null) {
            merges.schedule(this);
        }
        return part;
    }

    protected final boolean fsync() {
        return setting("fsync_after_insert") != 0;
    }

    /** The part set, for an engine that builds on this one (ReplicatedMergeTree commits parts under its own block numbers). */
    protected final MergeTreeData data() {
        return data;
    }

    /** The merger, for an engine that runs merges itself (a replicated MERGE_PARTS entry). */
    protected final MergeTreeDataMergerMutator mergerMutator() {
        return mergerMutator;
    }

    public List<IMergeTreeDataPart> dropPartition(String partitionId) {
        return data.removeParts(p -> p.info().partitionId().equals(partitionId));
    }

    /** DETACH PARTITION (by id) or DETACH PART (by name): the parts go to {@code detached/}; returns them. */
    public List<IMergeTreeDataPart> detach(String partitionId, String partName) {
        if (partName != null) {
            if (MergeTreePartInfo.tryParse(partName) == null) {
                throw new ChException(ErrorCode.BAD_DATA_PART_NAME, "Unexpected part name: " + partName + " for format version: 1");
            }
            List<IMergeTreeDataPart> one = data.detachParts(p -> p.name().equals(partName));
            if (one.isEmpty()) {
                throw new ChException(ErrorCode.NO_SUCH_DATA_PART, "No part " + partName + " in committed state");
            }
            return one;
        }
        return data.detachParts(p -> p.info().partitionId().equals(partitionId));
    }

    /**
     * ATTACH PARTITION (by id) or ATTACH PART (by name): the parts of {@code detached/} named so come back under new
     * block numbers (their level kept), as ClickHouse attaches them; returns them.
     */
    public List<IMergeTreeDataPart> attach(String partitionId, String partName) throws java.io.IOException {
        java.nio.file.Path detached = data.detachedDirectory();
        List<java.nio.file.Path> dirs = new ArrayList<>();
        if (java.nio.file.Files.isDirectory(detached)) {
            try (java.nio.file.DirectoryStream<java.nio.file.Path> ds = java.nio.file.Files.newDirectoryStream(detached)) {
                for (java.nio.file.Path d : ds) {
                    MergeTreePartInfo info = MergeTreePartInfo.tryParse(d.getFileName().toString());
                    if (info != null && java.nio.file.Files.isDirectory(d)
                        && (partName != null ? d.getFileName().toString().equals(partName) : info.partitionId().equals(partitionId))) {
                        dirs.add(d);
                    }
                }
            }
        }
        if (partName != null && dirs.isEmpty()) {
            throw new ChException(ErrorCode.BAD_DATA_PART_NAME, "Detached part \"" + partName + "\" not found");
        }
        dirs.sort(java.util.Comparator.comparing(d -> MergeTreePartInfo.tryParse(d.getFileName().toString())));
        List<IMergeTreeDataPart> out = new ArrayList<>();
        for (java.nio.file.Path d : dirs) {
            MergeTreePartInfo old = MergeTreePartInfo.tryParse(d.getFileName().toString());
            out.add(addLinked(data.linkTempPart(d, old), old.level()));
            DataPartStorageOnDisk.deleteRecursively(d);
        }
        return out;
    }

    /** A linked temporary part made active under a new block number, keeping {@code level}. */
    private IMergeTreeDataPart addLinked(MergeTreeData.TempPart tmp, int level) {
        IMergeTreeDataPart part;
        synchronized (data) {
            long b = allocateBlockNumberUnlocked();
            part = data.renameTempPartAndAdd(tmp, new MergeTreePartInfo(tmp.partitionId(), b, b, level));
        }
        if (merges != null) {
            merges.schedule(this);
        }
        return part;
    }

    /**
     * REPLACE PARTITION ... FROM {@code source}: this table's parts of the partition are replaced by copies (hard links)
     * of {@code source}'s, which keeps them; the tables must have the same columns. Returns the parts removed here.
     */
    public List<IMergeTreeDataPart> replacePartitionFrom(StorageMergeTree source, String partitionId) {
        checkSameStructure(source);
        List<MergeTreeData.TempPart> copies = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        for (IMergeTreeDataPart p : source.activeParts()) {
            if (p.info().partitionId().equals(partitionId)) {
                copies.add(data.linkTempPart(p.file().data(), p.info()));
                levels.add(p.info().level());
            }
        }
        List<IMergeTreeDataPart> removed = dropPartition(partitionId);
        for (int i = 0; i < copies.size(); i++) {
            addLinked(copies.get(i), levels.get(i));
        }
        return removed;
    }

    /** ATTACH PARTITION ... FROM {@code source}: copies of {@code source}'s parts of the partition are added to this table's. */
    public void attachPartitionFrom(StorageMergeTree source, String partitionId) {
        checkSameStructure(source);
        for (IMergeTreeDataPart p : source.activeParts()) {
            if (p.info().partitionId().equals(partitionId)) {
                addLinked(data.linkTempPart(p.file().data(), p.info()), p.info().level());
            }
        }
    }

    /** MOVE PARTITION ... TO TABLE {@code target}: the partition's parts go to {@code target} (new block numbers there). */
    public List<IMergeTreeDataPart> movePartitionTo(StorageMergeTree target, String partitionId) {
        target.checkSameStructure(this);
        List<IMergeTreeDataPart> moved = new ArrayList<>();
        for (IMergeTreeDataPart p : activeParts()) {
            if (p.info().partitionId().equals(partitionId)) {
                target.addLinked(target.data.linkTempPart(p.file().data(), p.info()), p.info().level());
                moved.add(p);
            }
        }
        data.removeParts(moved::contains);
        return moved;
    }

    private void checkSameStructure(StorageMergeTree other) {
        if (!columns().equals(other.columns()) || !java.util.Objects.equals(def.clauseSql().get("PARTITION BY"),
            other.def.clauseSql().get("PARTITION BY"))) {
            throw new ChException(ErrorCode.INCOMPATIBLE_COLUMNS, "Tables have different structure");
        }
    }

    /**
     * FREEZE [PARTITION]: hard links of the parts (of the partition, or all) under the data directory's
     * {@code shadow/<increment>/data/<db>/<table>/}, as ClickHouse makes a local backup; returns the increment.
     */
    public int freeze(String partitionId, java.nio.file.Path shadow) throws java.io.IOException {
        java.nio.file.Files.createDirectories(shadow);
        java.nio.file.Path counter = shadow.resolve("increment.txt");
        int n = java.nio.file.Files.exists(counter) ? Integer.parseInt(java.nio.file.Files.readString(counter).strip()) + 1 : 1;
        java.nio.file.Files.writeString(counter, Integer.toString(n));
        java.nio.file.Path to = shadow.resolve(Integer.toString(n)).resolve("data")
            .resolve(dev.chdedup.stub.common.FileNames.escapeForFileName(database)).resolve(dev.chdedup.stub.common.FileNames.escapeForFileName(name));
        java.nio.file.Files.createDirectories(to);
        for (IMergeTreeDataPart p : activeParts()) {
            if (partitionId == null || p.info().partitionId().equals(partitionId)) {
                DataPartStorageOnDisk.linkFiles(p.file().data(), to.resolve(p.name()));
            }
        }
        return n;
    }

    public IMergeTreeDataPart dropPart(String partName) {
        IMergeTreeDataPart p = data.activePart(partName);
        if (p == null || data.removeParts(x -> x == p).isEmpty()) {
            throw new ChException(ErrorCode.NO_SUCH_DATA_PART, "No part " + partName + " in committed state");
        }
        return p;
    }

    public List<IMergeTreeDataPart> truncate() {
        return data.removeParts(p -> true);
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

    private boolean canMergeUnlocked(IMergeTreeDataPart left, IMergeTreeDataPart right) {
        return !currentlyMerging.contains(left) && !currentlyMerging.contains(right) && !mutations.needsMutationUnlocked(left)
            && !mutations.needsMutationUnlocked(right);
    }

    /**
     * OPTIMIZE: merges the parts of each partition (or of {@code onlyPartition}); with {@code fin} a partition's
     * single part is rewritten too. Waits for merges and mutations already running on those parts. Returns whether
     * anything was merged.
     */
    public boolean optimize(String onlyPartition, boolean fin) {
        if (mergesStopped) {
            throw new ChException(ErrorCode.ABORTED, "Cancelled merging parts");
        }
        boolean any = false;
        for (String partitionId : partitionIds()) {
            if (onlyPartition != null && !onlyPartition.equals(partitionId)) {
                continue;
            }
            List<IMergeTreeDataPart> sources = selectAllUnlessBusy(partitionId, fin);
            if (sources != null) {
                any |= mergeSelected(sources);
            }
        }
        return any;
    }

    private List<String> partitionIds() {
        Set<String> ids = new java.util.LinkedHashSet<>();
        for (IMergeTreeDataPart p : data.activeParts()) {
            ids.add(p.info().partitionId());
        }
        return new ArrayList<>(ids);
    }

    /** Every part of a partition, marked as merging, once none is busy; null if there is nothing to merge. */
    private List<IMergeTreeDataPart> selectAllUnlessBusy(String partitionId, boolean fin) {
        long deadline = System.currentTimeMillis() + OPTIMIZE_WAIT_MS;
        synchronized (data) {
            while (true) {
                List<IMergeTreeDataPart> ps = new ArrayList<>();
                boolean busy = false;
                for (IMergeTreeDataPart p : data.activeParts()) {
                    if (p.info().partitionId().equals(partitionId)) {
                        ps.add(p);
                        busy |= currentlyMerging.contains(p) || mutations.needsMutationUnlocked(p);
                    }
                }
                if (!(ps.size() > 1 || fin && ps.size() == 1 && ps.get(0).info().level() == 0)) {
                    return null;
                }
                long left = deadline - System.currentTimeMillis();
                if (!busy) {
                    currentlyMerging.addAll(ps);
                    return ps;
                }
                if (left <= 0 || mergesStopped) {
                    return null;
                }
                try {
                    data.wait(Math.min(left, 100));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
    }

    /** One step of the background policy ({@link SimpleMergeSelector}); returns whether it merged something. */
    boolean mergeStep() {
        if (mergesStopped) {
            return false;
        }
        List<IMergeTreeDataPart> sources = null;
        synchronized (data) {
            Map<String, List<IMergeTreeDataPart>> byPartition = new LinkedHashMap<>();
            for (IMergeTreeDataPart p : data.activeParts()) {
                byPartition.computeIfAbsent(p.info().partitionId(), k -> new ArrayList<>()).add(p);
            }
            for (List<IMergeTreeDataPart> ps : byPartition.values()) {
                int[] run = SimpleMergeSelector.select(ps, this::canMergeUnlocked);
                if (run != null) {
                    sources = List.copyOf(ps.subList(run[0], run[1]));
                    currentlyMerging.addAll(sources);
                    break;
                }
            }
        }
        return sources != null && mergeSelected(sources);
    }

    /** Merges sources the caller marked as merging; unmarks them. Returns whether the merged part was committed. */
    private boolean mergeSelected(List<IMergeTreeDataPart> sources) {
        try {
            List<MergeTreeDataPartReader> readers = data.openIfActive(sources);
            if (readers == null) {
                return false;
            }
            MergeTreeDataMergerMutator.Result r = mergerMutator.mergePartsToTemporaryPart(sources, readers, fsync());
            // a source dropped meanwhile (TRUNCATE, DROP PARTITION/PART) must not come back through the merge
            boolean committed = data.renameTempPartAndReplace(r.tmp(), r.info(), sources);
            if (committed) {
                LOG.debug("Merged {} parts into {} in {}.{}", sources.size(), r.info().name(), database, name);
            }
            return committed;
        } finally {
            synchronized (data) {
                currentlyMerging.removeAll(sources);
                data.notifyAll();
            }
        }
    }

    /**
     * Runs a mutation given as its command text and its row function (see {@link MergeTreeMutations}); returns when
     * every part it applies to is rewritten. The deduplication log keeps its block ids, as in ClickHouse: deleted
     * rows re-inserted as the same block are still dropped as duplicates.
     */
    public void mutate(String commands, MergeTreeDataMergerMutator.RowMutation function) throws IOException {
        mutations.mutate(commands, function);
    }

    /** Finishes the mutations a crash interrupted; {@code compiler} turns a command text into its row function. */
    public void resumeMutations(java.util.function.Function<String, MergeTreeDataMergerMutator.RowMutation> compiler) {
        mutations.resume(compiler);
    }

    /** KILL MUTATION: forgets the unfinished mutation {@code mutationId}; returns whether there was one. */
    public boolean killMutation(String mutationId) {
        return mutations.kill(mutationId);
    }

    /** The table's mutations, oldest first, as system.mutations shows them. */
    public List<MergeTreeMutationStatus> mutationStatuses() {
        return mutations.statuses();
    }

    public void drop() throws IOException {
        data.drop();
    }
}
