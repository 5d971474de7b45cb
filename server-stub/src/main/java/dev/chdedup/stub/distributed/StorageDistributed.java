package dev.chdedup.stub.distributed;

import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.ExpressionFormatter;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.AlterCommands;
import dev.chdedup.stub.storages.Storage;
import dev.chdedup.stub.storages.Storages;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.IntType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A table of the Distributed engine, as ClickHouse's {@code StorageDistributed}: {@code Distributed(cluster, database,
 * table[, sharding_key[, policy]])} over the table of that name on every shard of the cluster. It stores no rows of its
 * own: an INSERT goes through {@link DistributedSink} (rows split by the sharding key, sent at once or queued in files
 * of this table's data directory, one {@link DistributedAsyncInsertDirectoryQueue} per shard or replica directory);
 * a SELECT is the union of the shards' tables ({@link #reader}, ReadFromRemote). The cluster must exist when a query
 * creates the table, not when the server loads it at its start (it may be defined later), as in the engine.
 */
public final class StorageDistributed implements Storage {
    /** What a Distributed table needs of the server it lives in. */
    public interface Server {
        Clusters clusters();

        /** The release the server plays (its setting names and errors). */
        CompatibilityProfile compat();

        /**
         * Inserts {@code rows} of {@code columns} into the local table {@code db.table} through the server's own insert
         * path (deduplication, materialized views) with {@code ctx}'s settings, as one block.
         */
        void insertLocal(String db, String table, List<Column> columns, List<Object[]> rows, QueryContext ctx);

        /** The server's own tables, which a SELECT reads directly for a shard the server is a replica of. */
        Catalog localTables();
    }

    private final Server server;
    private final String database;
    private final String table;
    private final String clusterName;
    private final String remoteDatabase;
    private final String remoteTable;
    /** Null without a sharding key. */
    private final Expr shardingKey;
    private final Evaluator shardingKeyEvaluator;
    private final List<TableColumn> tableColumns;
    private final List<Column> columns;
    private final String createSql;
    private final String engineFull;
    private final DistributedSettings settings;
    /** The table's directory: one subdirectory per shard or replica with files of blocks to send. */
    private final Path dataDir;
    /** The last number given to a file ({@code <n>.bin}), over every directory, so files are sent in insert order. */
    private final AtomicLong fileNamesIncrement = new AtomicLong();
    private final Map<String, DistributedAsyncInsertDirectoryQueue> queues = new ConcurrentHashMap<>();
    /** SYSTEM STOP DISTRIBUTED SENDS: the queues keep their files. */
    private volatile boolean sendsBlocked;
    private volatile boolean shutdown;

    private StorageDistributed(Server server, String database, Statement.CreateTable ct, Path dataDir, boolean attach) throws IOException {
        this.server = server;
        this.database = database;
        this.table = ct.table();
        List<Expr> a = ct.engineArgs();
        boolean legacy = isLegacy(server.compat());
        if (legacy && (a.size() < 3 || a.size() > 4)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage Distributed requires 3 or 4 parameters - name of"
                + " configuration section with list of remote servers, name of remote database, name of remote table, sharding key"
                + " expression (optional).");
        }
        if (a.size() < 3 || a.size() > 5) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage Distributed requires from 3 to 5 parameters - name of"
                + " configuration section with list of remote servers, name of remote database, name of remote table, sharding key"
                + " expression (optional), policy to store data in (optional).");
        }
        this.clusterName = name(a.get(0), "cluster name", database);
        String db = name(a.get(1), "remote_database", database);
        this.remoteDatabase = db;
        this.remoteTable = name(a.get(2), "remote_table", database);
        String policy = a.size() == 5 ? name(a.get(4), "storage_policy", database) : "default";
        if (ct.columns().isEmpty()) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "A Distributed table without columns (the structure of its remote table) is not"
                + " supported by the stub: list the columns or use CREATE TABLE ... AS the local table");
        }
        this.tableColumns = Storages.columnsOf(ct).columns();
        List<Column> cols = new ArrayList<>();
        for (TableColumn c : tableColumns) {
            cols.add(new Column(c.name(), c.type()));
        }
        this.columns = List.copyOf(cols);
        this.shardingKey = a.size() >= 4 ? a.get(3) : null;
        if (shardingKey != null) {
            checkShardingKeyColumns(shardingKey, columns, legacy);
        }
        this.shardingKeyEvaluator = shardingKey == null ? null : compileShardingKey(shardingKey, columns, database);
        Map<String, String> own = new LinkedHashMap<>(ct.settings());
        own.remove(dev.chdedup.stub.mergetree.TableDefinition.FLATTEN_NESTED);
        if (legacy && !own.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Engine Distributed doesn't support SETTINGS clause. Currently only the MergeTree"
                + " family of engines, Kafka engine and Join engine support it");
        }
        this.settings = DistributedSettings.of(own);
        if (!policy.equals("default")) {
            throw new ChException(ErrorCode.UNKNOWN_POLICY, "Unknown storage policy `" + policy + "`");
        }
        if (!attach) {
            Cluster cluster = cluster(server, clusterName);
            boolean local = cluster.shards().stream().anyMatch(s -> !server.clusters().localReplicas(s).isEmpty());
            if (local && !legacy && remoteDatabase.equals(database) && remoteTable.equals(table)) { // 18.16 has no such check
                throw new ChException(ErrorCode.INFINITE_LOOP, "Distributed table " + table + " looks at itself");
            }
        }
        StringBuilder engine = new StringBuilder("Distributed(");
        if (legacy) { // 18.16 keeps the arguments as written
            for (int i = 0; i < a.size(); i++) {
                engine.append(i == 0 ? "" : ", ").append(ExpressionFormatter.format(a.get(i)));
            }
        } else {
            engine.append(quoted(clusterName)).append(", ").append(quoted(remoteDatabase)).append(", ").append(quoted(remoteTable));
            if (shardingKey != null) {
                engine.append(", ").append(ExpressionFormatter.format(shardingKey));
            }
            if (a.size() == 5) {
                engine.append(", ").append(quoted(policy));
            }
        }
        this.engineFull = engine.append(')').toString();
        Map<String, String> clauses = new LinkedHashMap<>(ct.clauseSql());
        clauses.put("ENGINE", engineFull);
        this.createSql = AlterCommands.createQueryText(new Statement.CreateTable(database, table, false, false, ct.columns(), ct.engine(),
            ct.engineArgs(), null, null, null, own, clauses, null, null, null));
        this.dataDir = dataDir;
        initializeFromDisk();
    }

    /** The table {@code ct} describes in {@code database}, its pending files found in {@code dataDir} and queued again. */
    public static StorageDistributed create(Server server, String database, Statement.CreateTable ct, Path dataDir, boolean attach)
        throws IOException {
        return new StorageDistributed(server, database, ct, dataDir, attach);
    }

    /**
     * A cluster, database or table argument: an identifier or a string, as the engine makes them literals; {@code
     * currentDatabase()} is the table's database.
     */
    private static String name(Expr e, String what, String database) {
        if (e instanceof Expr.Ident id) {
            return id.last();
        }
        if (e instanceof Expr.Literal l && l.value() instanceof String s) {
            return s;
        }
        if (e instanceof Expr.Call c && c.name().equalsIgnoreCase("currentDatabase") && c.args().isEmpty()) {
            return database;
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument '" + what + "' must be a literal or an identifier");
    }

    private static String quoted(String s) {
        StringBuilder sb = new StringBuilder();
        dev.chdedup.stub.types.StringType.quote(s, sb);
        return sb.toString();
    }

    /**
     * The key's names must be the table's columns: the engine's analyzer of expressions (not the query analyzer) words the
     * error, 26.7 with the missing and the available columns, 18.16 with the first unknown name.
     */
    private static void checkShardingKeyColumns(Expr key, List<Column> columns, boolean legacy) {
        java.util.Set<String> have = new java.util.LinkedHashSet<>();
        columns.forEach(c -> have.add(c.name()));
        java.util.Set<String> used = dev.chdedup.stub.exec.ColumnsUsed.names(key);
        if (used == null) {
            return; // a key the stub cannot look into: the compiler says what it lacks
        }
        used = new java.util.TreeSet<>(used);
        List<String> missing = new ArrayList<>();
        for (String n : used) {
            if (!have.contains(n)) {
                missing.add(n);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        if (legacy) {
            throw new ChException(ErrorCode.UNKNOWN_IDENTIFIER, "Unknown identifier: " + missing.get(0));
        }
        String quoted = String.join(", ", missing.stream().map(n -> "'" + n + "'").toList());
        throw new ChException(ErrorCode.UNKNOWN_IDENTIFIER, "Missing columns: " + quoted + " while processing: '" + ExpressionFormatter.format(key)
            + "', required columns: " + String.join(", ", used.stream().map(n -> "'" + n + "'").toList())
            + ", available columns: " + String.join(", ", have.stream().map(n -> "'" + n + "'").toList()));
    }

    /** The sharding key over the table's columns; its type must be an integer one, as the engine checks at CREATE. */
    private static Evaluator compileShardingKey(Expr key, List<Column> columns, String database) {
        Evaluator e = new ExprCompiler(new QueryContext(database, "default", "", Settings.DEFAULTS), columns, Map.of(), null).compile(key);
        DataType t = e.type();
        DataType base = t.unwrap();
        boolean integer = base instanceof IntType || base instanceof dev.chdedup.stub.types.BoolType
            || base instanceof dev.chdedup.stub.types.DateType || base instanceof dev.chdedup.stub.types.DateTimeType
            || base instanceof dev.chdedup.stub.types.EnumType || base instanceof dev.chdedup.stub.types.IPv4Type;
        if (!integer || t.isNullable()) {
            throw new ChException(ErrorCode.TYPE_MISMATCH, "Sharding expression has type " + t.name() + ", but should be one of integer type");
        }
        return e;
    }

    /**
     * The shard index (from 0) of each row by the sharding key, as ClickHouse's {@code createBlockSelector}: the key's value
     * modulo the cluster's total weight picks a slot; a signed key is taken as unsigned first (an 8-, 16- or 32-bit one
     * widened to 32 bits with its sign, as the engine's cast does). Only integer keys select: others are TYPE_MISMATCH.
     */
    int[] createSelector(Cluster cluster, List<Object[]> rows, QueryContext ctx) {
        DataType base = shardingKeyEvaluator.type().unwrap();
        int bits;
        boolean signed;
        if (base instanceof IntType it) {
            bits = it.bits;
            signed = it.signed;
        } else if (base instanceof dev.chdedup.stub.types.BoolType) {
            bits = 8;
            signed = false;
        } else {
            throw new ChException(ErrorCode.TYPE_MISMATCH, "Sharding key expression does not evaluate to an integer type");
        }
        long total = cluster.totalWeight();
        Evaluator key = rows.isEmpty() ? shardingKeyEvaluator : recompiled(ctx);
        int[] selector = new int[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            Object v = key.eval(rows.get(i));
            long x = v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).longValue();
            long slot;
            if (key.constant() && signed && bits < 64) {
                slot = (x & ((1L << bits) - 1)) % total; // a constant key is cast to its own width, unsigned
            } else if (bits == 64) {
                slot = Long.remainderUnsigned(x, total);
            } else if (signed) {
                slot = ((x & 0xFFFFFFFFL) % total); // sign-extended to 32 bits, then unsigned
            } else {
                slot = x % total;
            }
            selector[i] = cluster.slotToShard((int) slot);
        }
        return selector;
    }

    /** The key compiled for this query (its settings and time), so rand() and now() are the query's. */
    private Evaluator recompiled(QueryContext ctx) {
        return new ExprCompiler(ctx, columns, Map.of(), null).compile(shardingKey);
    }

    boolean hasShardingKey() {
        return shardingKey != null;
    }

    public String database() {
        return database;
    }

    public String name() {
        return table;
    }

    public String clusterName() {
        return clusterName;
    }

    public String remoteDatabase() {
        return remoteDatabase;
    }

    public String remoteTable() {
        return remoteTable;
    }

    /** The table's cluster now (CLUSTER_DOESNT_EXIST when the server has none of that name; 18.16's BAD_GET). */
    public Cluster cluster() {
        return cluster(server, clusterName);
    }

    private static Cluster cluster(Server server, String name) {
        try {
            return server.clusters().get(name);
        } catch (ChException e) {
            if (isLegacy(server.compat()) && e.code() == ErrorCode.CLUSTER_DOESNT_EXIST) {
                throw new ChException(ErrorCode.BAD_GET, e.getMessage());
            }
            throw e;
        }
    }

    /** Whether {@code compat} is 18.16: its argument count, SETTINGS, errors, directory names and SYSTEM statements. */
    public static boolean isLegacy(CompatibilityProfile compat) {
        return compat.version() != null && compat.version().startsWith("18.");
    }

    /** Whether the server plays 18.16: its directory names, setting names and errors. */
    boolean legacy() {
        return isLegacy(server.compat());
    }

    Server server() {
        return server;
    }

    DistributedSettings distributedSettings() {
        return settings;
    }

    Path dataDir() {
        return dataDir;
    }

    long nextFileNumber() {
        return fileNamesIncrement.incrementAndGet();
    }

    /** The columns an insert sends to the shards: all but the MATERIALIZED ones, which each shard computes. */
    List<Column> columnsToSend() {
        List<Column> out = new ArrayList<>();
        for (int i : columnsToSendIndexes()) {
            out.add(columns.get(i));
        }
        return out;
    }

    /** {@link #columnsToSend}'s positions among the table's columns. */
    int[] columnsToSendIndexes() {
        return java.util.stream.IntStream.range(0, tableColumns.size()).filter(i -> !tableColumns.get(i).isMaterialized()).toArray();
    }

    /** What system.tables shows as engine_full: the engine clause as the engine formats it. */
    public String engineFull() {
        return engineFull;
    }

    @Override
    public String engine() {
        return "Distributed";
    }

    @Override
    public List<TableColumn> tableColumns() {
        return tableColumns;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public String createSql() {
        return createSql;
    }

    /**
     * What a SELECT reads: the union of the shards' tables ({@link ReadFromRemote}: a local shard read from {@code local},
     * the others over the network, with the query's settings), {@code *} leaving out MATERIALIZED columns,
     * {@code _shard_num} a virtual column; an empty remote database is the query's.
     */
    public TableSource reader(QueryContext ctx, Catalog local) {
        String db = remoteDatabase.isEmpty() ? ctx.database() : remoteDatabase;
        return new ReadFromRemote(cluster(), db, remoteTable, columns, columnsToSend(), server.clusters(), local, ctx);
    }

    /** A read outside a query (the catalog gives a SELECT {@link #reader}): with the server's default settings. */
    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        return reader(new QueryContext(database, "default", "", Settings.DEFAULTS), server.localTables()).read(maxBlockSize, withVirtuals);
    }

    /** Storage's write without a query: an insert with the server's default settings. */
    @Override
    public void write(List<Object[]> rows) {
        write(rows, new QueryContext(database, "default", "", Settings.DEFAULTS));
    }

    /** An INSERT's rows (complete, in column order) with the query's context: split, then sent or queued. */
    public void write(List<Object[]> rows, QueryContext ctx) {
        new DistributedSink(this, ctx).write(rows);
    }

    @Override
    public long totalRows() {
        return 0;
    }

    // ---- the queues of background inserts ----

    /** The queue of directory {@code name} (created on first use, as the engine's getDirectoryQueue). */
    DistributedAsyncInsertDirectoryQueue directoryQueue(String name) {
        return queues.computeIfAbsent(name, n -> new DistributedAsyncInsertDirectoryQueue(this, dataDir.resolve(n), n));
    }

    /** Every queue, by directory name. */
    public List<DistributedAsyncInsertDirectoryQueue> directoryQueues() {
        return List.copyOf(new java.util.TreeMap<>(queues).values());
    }

    boolean sendsBlocked() {
        return sendsBlocked || shutdown;
    }

    /** SYSTEM STOP / START DISTRIBUTED SENDS: while stopped, files stay queued; START sends them. */
    public void blockSends(boolean blocked) {
        this.sendsBlocked = blocked;
        if (!blocked) {
            queues.values().forEach(q -> q.schedule(0));
        }
    }

    /** SYSTEM FLUSH DISTRIBUTED: every queued file sent now; the first error that keeps one queued is thrown. */
    public void flushClusterNodesAllData() {
        for (DistributedAsyncInsertDirectoryQueue q : directoryQueues()) {
            q.flushAllData();
        }
    }

    /** The directories found at the start that hold files get their queue; empty ones are removed, as the engine does. */
    private void initializeFromDisk() throws IOException {
        Files.createDirectories(dataDir);
        long max = 0;
        List<Path> dirs;
        try (Stream<Path> s = Files.list(dataDir)) {
            dirs = s.filter(Files::isDirectory).sorted().toList();
        }
        for (Path dir : dirs) {
            for (String sub : List.of("tmp", "broken")) {
                Path p = dir.resolve(sub);
                if (Files.isDirectory(p) && isEmpty(p)) {
                    Files.delete(p);
                }
            }
            if (isEmpty(dir)) {
                Files.delete(dir);
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    max = Math.max(max, DistributedAsyncInsertDirectoryQueue.fileNumber(f));
                }
            }
            directoryQueue(dir.getFileName().toString()).schedule(0);
        }
        fileNamesIncrement.set(max);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    /** TRUNCATE: every queued file is removed, and the queues with them. */
    @Override
    public void truncate() throws IOException {
        for (DistributedAsyncInsertDirectoryQueue q : directoryQueues()) {
            q.shutdownAndDropAllData();
        }
        queues.clear();
    }

    /** DROP: the queues stop and the table's directory goes with its pending files. */
    @Override
    public void drop() throws IOException {
        shutdown();
        dev.chdedup.stub.mergetree.DataPartStorageOnDisk.deleteRecursively(dataDir);
    }

    /** The server stops: senders stop between two files; queued files stay for the next start. */
    @Override
    public void shutdown() {
        shutdown = true;
        queues.values().forEach(DistributedAsyncInsertDirectoryQueue::shutdown);
    }

    boolean isShutdown() {
        return shutdown;
    }
}
