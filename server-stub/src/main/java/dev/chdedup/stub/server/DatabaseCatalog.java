package dev.chdedup.stub.server;

import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.dictionaries.DictionariesSystemTable;
import dev.chdedup.stub.dictionaries.StorageDictionary;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.DataPartStorageOnDisk;
import dev.chdedup.stub.mergetree.MergeTreeBackgroundExecutor;
import dev.chdedup.stub.mergetree.StorageFactory;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableDefinition;
import dev.chdedup.stub.mv.MaterializedView;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.StorageCatalog;
import dev.chdedup.stub.system.InformationSchema;
import dev.chdedup.stub.system.ShowCreate;
import dev.chdedup.stub.system.SystemCatalog;
import dev.chdedup.stub.system.SystemTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Databases and their tables, persisted under the data directory as ClickHouse lays them out: the CREATE
 * statement of each table in {@code metadata/<db>/<table>.sql}, parts in {@code data/<db>/<table>/}. Loading the
 * directory at start brings every table and part back. Names become file names through
 * {@link FileNames#escapeForFileName} (as ClickHouse does), so no database or table name reaches outside the data
 * directory. Mirrors ClickHouse's {@code DatabaseCatalog}; the {@code system} database is virtual.
 */
public final class DatabaseCatalog implements SystemCatalog, AutoCloseable {
    public static final String DEFAULT = "default";

    private final Path root;
    private final Map<String, Map<String, Object>> databases = new ConcurrentHashMap<>();
    private final MergeTreeBackgroundExecutor merges = new MergeTreeBackgroundExecutor();
    private final Map<String, java.util.concurrent.locks.ReentrantReadWriteLock> structureLocks = new ConcurrentHashMap<>();
    /** The tables DETACH took out of each database; their names stay taken until ATTACH. */
    private final Map<String, Set<String>> detached = new ConcurrentHashMap<>();
    /** What DETACH ... PERMANENTLY appends to a table's metadata file, so that loading skips it. */
    private static final String DETACHED_SUFFIX = ".detached";
    private SystemTables system;
    /** The directory file() reads, ClickHouse's user_files_path; set by the server before it serves. */
    private volatile Path userFiles;
    /** Views read from metadata, created once every table is loaded: {database, CREATE statement}. */
    private final List<String[]> pendingViews = new ArrayList<>();

    private final StorageFactory storages;
    /** The engines of layers above the catalog's own (Distributed), by name: what CREATE TABLE and the start create them with. */
    private final Map<String, dev.chdedup.stub.storages.StorageCreator> engines;

    public DatabaseCatalog(Path root) throws IOException {
        this(root, StorageMergeTree::new);
    }

    public DatabaseCatalog(Path root, StorageFactory storages) throws IOException {
        this(root, storages, Map.of());
    }

    /** A catalog that also creates the tables of {@code engines} (engines of layers above it, Distributed) with their creators. */
    public DatabaseCatalog(Path root, StorageFactory storages, Map<String, dev.chdedup.stub.storages.StorageCreator> engines) throws IOException {
        this.root = root;
        this.storages = storages;
        this.engines = Map.copyOf(engines);
        Files.createDirectories(root.resolve("metadata"));
        Files.createDirectories(root.resolve("data"));
        load();
        if (!databases.containsKey(DEFAULT)) {
            createDatabase(DEFAULT, true);
        }
    }

    /** The views found on disk at start, handed over once. */
    public List<String[]> takePendingViews() {
        List<String[]> l = new ArrayList<>(pendingViews);
        pendingViews.clear();
        return l;
    }

    /** Reads a plain view (runs its SELECT); set by the server, which owns the SELECT executor. */
    private java.util.function.BiFunction<dev.chdedup.stub.mv.PlainView, QueryContext, TableSource> views;

    private volatile dev.chdedup.stub.exec.RemoteTables remoteTables = dev.chdedup.stub.exec.RemoteTables.NONE;

    public void attachViewReader(java.util.function.BiFunction<dev.chdedup.stub.mv.PlainView, QueryContext, TableSource> reader) {
        this.views = reader;
    }

    /** The tables of other servers the remote and cluster table functions read (the server's clusters). */
    public void attachRemoteTables(dev.chdedup.stub.exec.RemoteTables remote) {
        this.remoteTables = remote;
    }

    @Override
    public dev.chdedup.stub.exec.RemoteTables remoteTables() {
        return remoteTables;
    }

    /** Makes {@code dir} (created if missing, as the server creates its user_files_path) the directory file() reads. */
    public void attachUserFiles(Path dir) throws IOException {
        Files.createDirectories(dir);
        this.userFiles = dir;
    }

    @Override
    public dev.chdedup.stub.exec.SelectExecutor.Stream file(String name, String format, List<dev.chdedup.stub.data.Column> columns,
                                                            String compression, int maxBlock) {
        return dev.chdedup.stub.storages.StorageFile.read(userFiles, name, format, columns, compression, maxBlock);
    }

    public void attachSystem(SystemTables system) {
        this.system = system;
        system.attachExtra(new DictionariesSystemTable(this));
    }

    @Override
    public Path root() {
        return root;
    }

    private void load() throws IOException {
        try (DirectoryStream<Path> dbs = Files.newDirectoryStream(root.resolve("metadata"))) {
            for (Path dbDir : dbs) {
                if (!Files.isDirectory(dbDir)) {
                    continue;
                }
                String db = FileNames.unescapeForFileName(dbDir.getFileName().toString());
                if (!FileNames.escapeForFileName(db).equals(dbDir.getFileName().toString())) {
                    // written raw before names were escaped: move it (and its data) to the escaped name
                    Path data = root.resolve("data").resolve(dbDir.getFileName().toString());
                    dbDir = moveLegacy(dbDir, metadataDir(db));
                    moveLegacy(data, dataDir(db));
                }
                databases.put(db, new ConcurrentHashMap<>());
                List<Path> sqls = new ArrayList<>();
                try (DirectoryStream<Path> ts = Files.newDirectoryStream(dbDir, "*.sql")) {
                    ts.forEach(sqls::add);
                }
                for (Path sql : sqls) {
                    Statement st = Parser.parse(Files.readString(sql, StandardCharsets.UTF_8));
                    if (st instanceof Statement.CreateTable) {
                        Statement.CreateTable ct = (Statement.CreateTable) st;
                        String file = sql.getFileName().toString();
                        String raw = file.substring(0, file.length() - ".sql".length());
                        if (!FileNames.escapeForFileName(ct.table()).equals(raw) && raw.equals(ct.table())) {
                            moveLegacy(sql, metadataFile(db, ct.table()));
                            moveLegacy(dataDir(db).resolve(raw), tableDataDir(db, ct.table()));
                        }
                        if (ct.engine() != null && engines.containsKey(ct.engine())) {
                            databases.get(db).put(ct.table(), engines.get(ct.engine()).create(db, ct, tableDataDir(db, ct.table()),
                                Files.readString(metadataFile(db, ct.table()), StandardCharsets.UTF_8), true));
                            continue;
                        }
                        if (dev.chdedup.stub.storages.Storages.handles(ct.engine())) {
                            databases.get(db).put(ct.table(), withResolver(dev.chdedup.stub.storages.Storages.create(ct,
                                tableDataDir(db, ct.table()), Files.readString(metadataFile(db, ct.table()), StandardCharsets.UTF_8))));
                            continue;
                        }
                        attach(db, ct.table(), ct);
                    } else if (st instanceof Statement.CreateView) {
                        pendingViews.add(new String[] {db, Files.readString(sql, StandardCharsets.UTF_8)});
                    } else if (st instanceof Statement.CreateDictionary cd) {
                        databases.get(db).put(cd.name(), new StorageDictionary(db, cd.name(), cd, this));
                    }
                }
            }
        }
    }

    /** Moves a file or directory written under a raw (unescaped) name to its escaped name, if it is still there. */
    private Path moveLegacy(Path legacy, Path escaped) throws IOException {
        String name = legacy.getFileName().toString();
        if (!name.equals(".") && !name.equals("..") && Files.exists(legacy) && !Files.exists(escaped)
            && legacy.getParent().equals(escaped.getParent())) {
            Files.move(legacy, escaped, StandardCopyOption.ATOMIC_MOVE);
        }
        return escaped;
    }

    private Path metadataDir(String db) {
        return FileNames.child(root.resolve("metadata"), db);
    }

    private Path dataDir(String db) {
        return FileNames.child(root.resolve("data"), db);
    }

    private Path metadataFile(String db, String table) {
        return metadataDir(db).resolve(FileNames.escapeForFileName(table) + ".sql");
    }

    private Path tableDataDir(String db, String table) {
        return FileNames.child(dataDir(db), table);
    }

    private StorageMergeTree attach(String db, String table, Statement.CreateTable ct) throws IOException {
        TableDefinition def = TableDefinition.from(ct);
        StorageMergeTree t = storages.create(db, table, def, tableDataDir(db, table), merges);
        databases.get(db).put(table, t);
        return t;
    }

    public synchronized void createDatabase(String name, boolean ifNotExists) throws IOException {
        if (databases.containsKey(name) || SYSTEM.equals(name) || InformationSchema.isDatabase(name)) {
            if (ifNotExists) {
                return;
            }
            throw new ChException(ErrorCode.DATABASE_ALREADY_EXISTS, "Database " + name + " already exists");
        }
        FileNames.checkName("Database", name);
        Files.createDirectories(metadataDir(name));
        Files.createDirectories(dataDir(name));
        databases.put(name, new ConcurrentHashMap<>());
    }

    public synchronized void dropDatabase(String name, boolean ifExists) throws IOException {
        if (SYSTEM.equals(name)) {
            throw new ChException(ErrorCode.DATABASE_ACCESS_DENIED, "Cannot drop or rename system database");
        }
        if (InformationSchema.isDatabase(name)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Database " + name + " cannot be dropped by the stub");
        }
        Map<String, Object> tables = databases.get(name);
        if (tables == null) {
            if (ifExists) {
                return;
            }
            throw StorageCatalog.unknownDatabase(name);
        }
        for (String t : new ArrayList<>(tables.keySet())) {
            if (tables.get(t) instanceof StorageDictionary) {
                dropDictionary(name, t, true);
            } else {
                dropTable(name, t, true);
            }
        }
        DataPartStorageOnDisk.deleteRecursively(metadataDir(name));
        DataPartStorageOnDisk.deleteRecursively(dataDir(name));
        databases.remove(name);
        detached.remove(name); // the detached tables and dictionaries go with it
    }

    @Override
    public boolean databaseExists(String name) {
        return databases.containsKey(name) || SYSTEM.equals(name) || InformationSchema.isDatabase(name);
    }

    @Override
    public List<String> databaseNames() {
        List<String> l = new ArrayList<>(databases.keySet());
        l.add(SYSTEM);
        l.addAll(InformationSchema.DATABASES);
        l.sort(null);
        return l;
    }

    /** Tables of a database by name, sorted. */
    @Override
    public Map<String, Object> tables(String db) {
        if (SYSTEM.equals(db)) {
            TreeMap<String, Object> m = new TreeMap<>();
            for (String n : system.names()) {
                m.put(n, system);
            }
            return m;
        }
        if (InformationSchema.isDatabase(db)) {
            return InformationSchema.tables(db);
        }
        Map<String, Object> t = databases.get(db);
        if (t == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        return new TreeMap<>(t);
    }

    public synchronized Object createTable(String db, String table, Statement.CreateTable ct, String createSql) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (tables.containsKey(table)) {
            if (ct.ifNotExists()) {
                return tables.get(table);
            }
            throw alreadyExists(db, table, tables.get(table));
        }
        if (isDetached(db, table) || Files.exists(metadataFile(db, table).resolveSibling(metadataFile(db, table).getFileName() + DETACHED_SUFFIX))) {
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + backQuote(db) + "." + backQuote(table) + " already exists (detached)");
        }
        FileNames.checkName("Table", table);
        DataPartStorageOnDisk.deleteRecursively(tableDataDir(db, table));
        if (ct.engine() != null && engines.containsKey(ct.engine())) {
            // an engine of a layer above (Distributed): the table may refuse its statement before anything is written
            Object s = engines.get(ct.engine()).create(db, ct, tableDataDir(db, table), createSql, false);
            writeMetadata(db, table, createSql);
            tables.put(table, s);
            return s;
        }
        if (dev.chdedup.stub.storages.Storages.handles(ct.engine())) {
            // Memory, Null and the Log family (storages/)
            Object s = withResolver(dev.chdedup.stub.storages.Storages.create(ct, tableDataDir(db, table), createSql));
            writeMetadata(db, table, createSql);
            tables.put(table, s);
            return s;
        }
        StorageMergeTree t = attach(db, table, ct);
        writeMetadata(db, table, createSql);
        return t;
    }

    /** The error for a CREATE of a name {@code existing} (a table or a dictionary) already has. */
    private static ChException alreadyExists(String db, String name, Object existing) {
        return existing instanceof StorageDictionary
            ? new ChException(ErrorCode.DICTIONARY_ALREADY_EXISTS, "Dictionary " + db + "." + name + " already exists")
            : new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + db + "." + name + " already exists");
    }

    /**
     * CREATE DICTIONARY: the dictionary takes its name in the database, its statement goes to the metadata file as a
     * table's does; OR REPLACE replaces a dictionary of the name (a table of the name stays: TABLE_ALREADY_EXISTS). Returns
     * the dictionary, or null when it existed and {@code ifNotExists}.
     */
    public synchronized StorageDictionary createDictionary(String db, Statement.CreateDictionary cd) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        Object existing = tables.get(cd.name());
        if (existing != null && !(cd.orReplace() && existing instanceof StorageDictionary)) {
            if (cd.ifNotExists()) {
                return null;
            }
            throw alreadyExists(db, cd.name(), existing);
        }
        if (existing == null && (isDetached(db, cd.name()) || Files.exists(detachedFile(db, cd.name())))) {
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + backQuote(db) + "." + backQuote(cd.name()) + " already exists (detached)");
        }
        FileNames.checkName("Dictionary", cd.name());
        StorageDictionary d = new StorageDictionary(db, cd.name(), cd, this); // checks the definition before anything changes
        writeMetadata(db, cd.name(), d.createQuery());
        tables.put(cd.name(), d);
        return d;
    }

    /** DROP DICTIONARY: INCORRECT_QUERY for a table of the name, UNKNOWN_TABLE for none (unless {@code ifExists}). */
    public synchronized void dropDictionary(String db, String name, boolean ifExists) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            if (ifExists) {
                return;
            }
            throw StorageCatalog.unknownDatabase(db);
        }
        Object d = tables.get(name);
        if (d == null) {
            if (ifExists) {
                return;
            }
            throw StorageCatalog.unknownTable(db, name);
        }
        if (!(d instanceof StorageDictionary)) {
            throw new ChException(ErrorCode.INCORRECT_QUERY, "Table " + db + "." + name + " is not a Dictionary");
        }
        tables.remove(name);
        Files.deleteIfExists(metadataFile(db, name));
        ((StorageDictionary) d).drop();
    }

    /**
     * DETACH DICTIONARY: the dictionary leaves the database (its name stays taken), its metadata stays and brings it back
     * at the next start unless {@code permanently} (then renamed {@code .sql.detached}), as for a table.
     */
    public synchronized void detachDictionary(String db, String name, boolean ifExists, boolean permanently) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        Object d = tables.get(name);
        if (d == null) {
            if (ifExists) {
                return;
            }
            throw StorageCatalog.unknownTable(db, name);
        }
        if (!(d instanceof StorageDictionary)) {
            throw new ChException(ErrorCode.INCORRECT_QUERY, "Table " + db + "." + name + " is not a Dictionary");
        }
        tables.remove(name);
        detached.computeIfAbsent(db, k -> ConcurrentHashMap.newKeySet()).add(name);
        if (permanently) {
            Files.move(metadataFile(db, name), detachedFile(db, name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** ATTACH DICTIONARY name: a detached dictionary back from its metadata. */
    public synchronized void attachDictionary(String db, String name, boolean ifNotExists) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (tables.containsKey(name)) {
            if (ifNotExists) {
                return;
            }
            throw alreadyExists(db, name, tables.get(name));
        }
        if (!Files.exists(metadataFile(db, name)) && Files.exists(detachedFile(db, name))) {
            Files.move(detachedFile(db, name), metadataFile(db, name));
        }
        Statement st = Files.exists(metadataFile(db, name)) ? Parser.parse(createQuery(db, name)) : null;
        if (!(st instanceof Statement.CreateDictionary cd)) {
            throw new ChException(ErrorCode.CANNOT_GET_CREATE_TABLE_QUERY, "Table " + backQuote(name) + " doesn't exist");
        }
        tables.put(name, new StorageDictionary(db, name, cd, this));
        Set<String> d = detached.get(db);
        if (d != null) {
            d.remove(name);
        }
    }

    private Path detachedFile(String db, String name) {
        Path file = metadataFile(db, name);
        return file.resolveSibling(file.getFileName() + DETACHED_SUFFIX);
    }

    private static ChException dictionaryAsTable(String db, String name) {
        return new ChException(ErrorCode.CANNOT_DETACH_DICTIONARY_AS_TABLE, "Cannot drop/detach dictionary " + db + "." + name
            + " as table, use DROP DICTIONARY or DETACH DICTIONARY query instead");
    }

    /**
     * A table's structure lock, as ClickHouse's table locks: an INSERT holds it shared while it runs, an ALTER of the
     * schema, RENAME, EXCHANGE and DETACH hold it exclusively, so none of them opens the table again under an insert.
     */
    public java.util.concurrent.locks.ReentrantReadWriteLock structureLock(String db, String table) {
        return structureLocks.computeIfAbsent(db + "\0" + table, k -> new java.util.concurrent.locks.ReentrantReadWriteLock(true));
    }

    /**
     * Takes {@code lock} within {@code timeoutSeconds} (the query's lock_acquire_timeout), or DEADLOCK_AVOIDED as
     * ClickHouse answers a lock it could not take.
     */
    public static void lock(java.util.concurrent.locks.Lock lock, long timeoutSeconds, String what) {
        try {
            if (!lock.tryLock(timeoutSeconds, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new ChException(ErrorCode.DEADLOCK_AVOIDED, "Locking attempt for " + what + " has timed out! ("
                    + timeoutSeconds * 1000 + "ms) Possible deadlock avoided. Client should retry");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChException(ErrorCode.ABORTED, "Interrupted while locking " + what);
        }
    }

    /** Work that may throw an IOException, run under a lock. */
    public interface LockedWork<T> {
        T run() throws IOException;
    }

    /** {@code work} with the table's structure lock held exclusively ({@link #structureLock}, {@link #lock}). */
    public <T> T exclusively(String db, String table, long timeoutSeconds, LockedWork<T> work) throws IOException {
        java.util.concurrent.locks.Lock exclusive = structureLock(db, table).writeLock();
        lock(exclusive, timeoutSeconds, db + "." + table);
        try {
            return work.run();
        } finally {
            exclusive.unlock();
        }
    }

    /** The CREATE statement a table's metadata file holds. */
    public String createQuery(String db, String table) throws IOException {
        return Files.readString(metadataFile(db, table), StandardCharsets.UTF_8);
    }

    /**
     * Gives a MergeTree table the definition of {@code createSql} (an ALTER of its schema), as ClickHouse replaces a
     * table's metadata: the old object stops (no part is committed through it after this), the metadata file is
     * replaced, and the table is opened again over the same parts, which read as the new definition says
     * ({@code renamedFrom}: columns renamed, new name to old). Returns the new object.
     */
    public StorageMergeTree alterTable(String db, String table, String createSql, Map<String, String> renamedFrom)
        throws IOException {
        return exclusively(db, table, 120, () -> reopen(db, table, createSql, renamedFrom));
    }

    private synchronized StorageMergeTree reopen(String db, String table, String createSql, Map<String, String> renamedFrom)
        throws IOException {
        StorageMergeTree old = mergeTree(db, table);
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parse(createSql);
        TableDefinition def = TableDefinition.from(ct); // refuses a definition that does not compile, before anything changes
        old.shutdown();
        writeMetadata(db, table, createSql);
        StorageMergeTree t = old.getClass() == StorageMergeTree.class
            ? new StorageMergeTree(db, table, def, tableDataDir(db, table), merges, renamedFrom)
            : storages.create(db, table, def, tableDataDir(db, table), merges, renamedFrom);
        databases.get(db).put(table, t);
        return t;
    }

    /**
     * RENAME TABLE: the table's parts move to the new name's directory and its metadata to the new name's file, and
     * the table is opened again there (a MergeTree table that is not replicated).
     */
    public StorageMergeTree renameTable(String fromDb, String from, String toDb, String to) throws IOException {
        return exclusively(fromDb, from, 120, () -> rename(fromDb, from, toDb, to));
    }

    private synchronized StorageMergeTree rename(String fromDb, String from, String toDb, String to) throws IOException {
        Object obj = find(fromDb, from);
        boolean ofEngine = obj instanceof dev.chdedup.stub.storages.Storage st && engines.containsKey(st.engine());
        StorageMergeTree t = obj instanceof dev.chdedup.stub.mv.PlainView || ofEngine ? null : renamable(fromDb, from);
        Map<String, Object> target = databases.get(toDb);
        if (target == null) {
            throw new ChException(ErrorCode.UNKNOWN_DATABASE, "Database " + toDb + " does not exist");
        }
        if (target.containsKey(to) || isDetached(toDb, to)) {
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + toDb + "." + to + " already exists");
        }
        FileNames.checkName("Table", to);
        if (ofEngine) { // an engine of a layer above (Distributed): stopped, moved with its directory, created again under the new name
            dev.chdedup.stub.storages.Storage st = (dev.chdedup.stub.storages.Storage) obj;
            Statement.CreateTable ct = named((Statement.CreateTable) Parser.parse(createQuery(fromDb, from)), toDb, to);
            st.shutdown();
            Files.createDirectories(dataDir(toDb));
            if (Files.exists(tableDataDir(fromDb, from))) {
                Files.move(tableDataDir(fromDb, from), tableDataDir(toDb, to), StandardCopyOption.ATOMIC_MOVE);
            }
            String sql = dev.chdedup.stub.storages.AlterCommands.createQueryText(ct);
            writeMetadata(toDb, to, sql);
            Files.delete(metadataFile(fromDb, from));
            databases.get(fromDb).remove(from);
            target.put(to, engines.get(st.engine()).create(toDb, ct, tableDataDir(toDb, to), sql, true));
            return null;
        }
        if (t == null) { // a plain view: its statement under the new name
            dev.chdedup.stub.mv.PlainView v = (dev.chdedup.stub.mv.PlainView) obj;
            String sql = v.createSql().replaceFirst("(?is)^(\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?VIEW\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?)\\S+",
                "$1" + java.util.regex.Matcher.quoteReplacement(backQuote(toDb) + "." + backQuote(to)));
            writeMetadata(toDb, to, sql);
            Files.delete(metadataFile(fromDb, from));
            databases.get(fromDb).remove(from);
            target.put(to, v.renamed(toDb, to, sql));
            return null;
        }
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parse(createQuery(fromDb, from));
        t.shutdown();
        Files.createDirectories(dataDir(toDb));
        Files.move(tableDataDir(fromDb, from), tableDataDir(toDb, to), StandardCopyOption.ATOMIC_MOVE);
        writeMetadata(toDb, to, dev.chdedup.stub.storages.AlterCommands.createQueryText(named(ct, toDb, to)));
        Files.delete(metadataFile(fromDb, from));
        databases.get(fromDb).remove(from);
        return attach(toDb, to, named(ct, toDb, to));
    }

    /** EXCHANGE TABLES: two MergeTree tables swap their names, parts and metadata; both are opened again. */
    public List<StorageMergeTree> exchangeTables(String db1, String t1, String db2, String t2) throws IOException {
        // in the order of the names, so two EXCHANGEs of the same pair cannot wait on each other
        boolean ordered = (db1 + "\0" + t1).compareTo(db2 + "\0" + t2) <= 0;
        java.util.concurrent.locks.Lock first = (ordered ? structureLock(db1, t1) : structureLock(db2, t2)).writeLock();
        java.util.concurrent.locks.Lock second = (ordered ? structureLock(db2, t2) : structureLock(db1, t1)).writeLock();
        lock(first, 120, db1 + "." + t1);
        try {
            lock(second, 120, db2 + "." + t2);
            try {
                return exchange(db1, t1, db2, t2);
            } finally {
                second.unlock();
            }
        } finally {
            first.unlock();
        }
    }

    private synchronized List<StorageMergeTree> exchange(String db1, String t1, String db2, String t2) throws IOException {
        StorageMergeTree a = renamable(db1, t1);
        StorageMergeTree b = renamable(db2, t2);
        Statement.CreateTable ca = (Statement.CreateTable) Parser.parse(createQuery(db1, t1));
        Statement.CreateTable cb = (Statement.CreateTable) Parser.parse(createQuery(db2, t2));
        a.shutdown();
        b.shutdown();
        Path tmp = dataDir(db1).resolve("tmp_exchange_" + ProcessHandle.current().pid() + "_" + System.nanoTime());
        Files.move(tableDataDir(db1, t1), tmp, StandardCopyOption.ATOMIC_MOVE);
        Files.move(tableDataDir(db2, t2), tableDataDir(db1, t1), StandardCopyOption.ATOMIC_MOVE);
        Files.move(tmp, tableDataDir(db2, t2), StandardCopyOption.ATOMIC_MOVE);
        writeMetadata(db1, t1, dev.chdedup.stub.storages.AlterCommands.createQueryText(named(cb, db1, t1)));
        writeMetadata(db2, t2, dev.chdedup.stub.storages.AlterCommands.createQueryText(named(ca, db2, t2)));
        return List.of(attach(db1, t1, named(cb, db1, t1)), attach(db2, t2, named(ca, db2, t2)));
    }

    /**
     * DETACH TABLE: the table leaves the catalog, its parts and metadata stay; it comes back at the next start unless
     * {@code permanently} (its metadata file is then renamed {@code .sql.detached}, as ClickHouse does). Returns the
     * detached table, or null when there was none and {@code ifExists}.
     */
    public StorageMergeTree detachTable(String db, String table, boolean ifExists, boolean permanently) throws IOException {
        return exclusively(db, table, 120, () -> detach(db, table, ifExists, permanently));
    }

    private synchronized StorageMergeTree detach(String db, String table, boolean ifExists, boolean permanently) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (!tables.containsKey(table)) {
            if (ifExists) {
                return null;
            }
            throw new ChException(ErrorCode.UNKNOWN_TABLE, "Table " + db + "." + table + " does not exist");
        }
        if (tables.get(table) instanceof StorageDictionary) {
            throw dictionaryAsTable(db, table);
        }
        StorageMergeTree t = renamable(db, table);
        t.shutdown();
        tables.remove(table);
        detached.computeIfAbsent(db, k -> ConcurrentHashMap.newKeySet()).add(table);
        if (permanently) {
            Path file = metadataFile(db, table);
            Files.move(file, file.resolveSibling(file.getFileName() + DETACHED_SUFFIX), StandardCopyOption.REPLACE_EXISTING);
        }
        return t;
    }

    /** ATTACH TABLE name: a detached table back from its metadata; null when it is attached already and {@code ifNotExists}. */
    public synchronized StorageMergeTree attachTable(String db, String table, boolean ifNotExists) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (tables.containsKey(table)) {
            if (ifNotExists) {
                return null;
            }
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + db + "." + table + " already exists");
        }
        Path file = metadataFile(db, table);
        Path permanent = file.resolveSibling(file.getFileName() + DETACHED_SUFFIX);
        if (!Files.exists(file) && Files.exists(permanent)) {
            Files.move(permanent, file);
        }
        if (!Files.exists(file)) {
            throw new ChException(ErrorCode.CANNOT_GET_CREATE_TABLE_QUERY, "There is no metadata of table " + backQuote(table)
                + " in database " + backQuote(db));
        }
        Statement.CreateTable ct = (Statement.CreateTable) Parser.parse(createQuery(db, table));
        StorageMergeTree t = attach(db, table, ct);
        Set<String> d = detached.get(db);
        if (d != null) {
            d.remove(table);
        }
        return t;
    }

    private boolean isDetached(String db, String table) {
        Set<String> d = detached.get(db);
        return d != null && d.contains(table);
    }

    /** The table a RENAME, EXCHANGE or DETACH may move: an existing MergeTree table that is not replicated. */
    private StorageMergeTree renamable(String db, String table) {
        if (!databases.containsKey(db)) {
            throw StorageCatalog.unknownDatabase(db);
        }
        Object obj = find(db, table);
        if (obj == null) {
            throw new ChException(ErrorCode.UNKNOWN_TABLE, "Table " + backQuote(db) + "." + backQuote(table) + " doesn't exist");
        }
        if (!(obj instanceof StorageMergeTree) || obj.getClass() != StorageMergeTree.class) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Table " + db + "." + table + " cannot be renamed, exchanged or detached"
                + " by the stub: only MergeTree tables that are not replicated can");
        }
        return (StorageMergeTree) obj;
    }

    /** {@code ct} under another name (its database written only when the statement wrote one). */
    private static Statement.CreateTable named(Statement.CreateTable ct, String db, String table) {
        return new Statement.CreateTable(ct.database() == null ? null : db, table, false, false, ct.columns(), ct.engine(), ct.engineArgs(),
            ct.partitionBy(), ct.orderBy(), ct.primaryKey(), ct.settings(), ct.clauseSql(), null, null, null);
    }

    /** Registers a non-MergeTree object (a view) under a name. */
    public synchronized void putObject(String db, String name, Object obj, String createSql) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            throw StorageCatalog.unknownDatabase(db);
        }
        if (tables.containsKey(name)) {
            throw new ChException(ErrorCode.TABLE_ALREADY_EXISTS, "Table " + db + "." + name + " already exists");
        }
        FileNames.checkName("Table", name);
        tables.put(name, obj);
        if (createSql != null) {
            writeMetadata(db, name, createSql);
        }
    }

    private void writeMetadata(String db, String table, String createSql) throws IOException {
        Path file = metadataFile(db, table);
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, createSql, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    public synchronized boolean dropTable(String db, String table, boolean ifExists) throws IOException {
        Map<String, Object> tables = databases.get(db);
        if (tables == null) {
            if (ifExists) {
                return false;
            }
            throw StorageCatalog.unknownDatabase(db);
        }
        if (tables.get(table) instanceof StorageDictionary) {
            throw dictionaryAsTable(db, table);
        }
        Object t = tables.remove(table);
        if (t == null) {
            if (ifExists) {
                return false;
            }
            throw StorageCatalog.unknownTable(db, table);
        }
        Files.deleteIfExists(metadataFile(db, table));
        if (t instanceof StorageMergeTree) {
            ((StorageMergeTree) t).drop();
        } else if (t instanceof dev.chdedup.stub.storages.Storage) {
            ((dev.chdedup.stub.storages.Storage) t).drop();
        }
        return true;
    }

    @Override
    public Object find(String db, String table) {
        if (InformationSchema.isDatabase(db)) {
            return InformationSchema.find(db, table);
        }
        Map<String, Object> tables = databases.get(db);
        return tables == null ? null : tables.get(table);
    }

    @Override
    public StorageMergeTree mergeTree(String db, String table) {
        if (SYSTEM.equals(db)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Table " + db + "." + table + " is a system table: it cannot be changed");
        }
        if (!databaseExists(db)) {
            throw StorageCatalog.unknownDatabase(db);
        }
        Object t = find(db, table);
        if (t == null) {
            throw StorageCatalog.unknownTable(db, table);
        }
        if (t instanceof MaterializedView) {
            MaterializedView v = (MaterializedView) t;
            return mergeTree(v.targetDatabase(), v.targetTable());
        }
        if (!(t instanceof StorageMergeTree)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Table " + db + "." + table + " is not a MergeTree table");
        }
        return (StorageMergeTree) t;
    }

    @Override
    public TableSource table(String db, String table, QueryContext ctx) {
        if (SYSTEM.equals(db)) {
            TableSource s = system.table(table, ctx);
            if (s == null) {
                throw StorageCatalog.unknownTable(db, table);
            }
            return s;
        }
        if (!databaseExists(db)) {
            throw StorageCatalog.unknownDatabase(db);
        }
        Object t = find(db, table);
        if (t == null) {
            throw StorageCatalog.unknownTable(db, table);
        }
        if (t instanceof dev.chdedup.stub.distributed.StorageDistributed d) {
            return d.reader(ctx, this); // the union of its shards, read with the query's settings
        }
        if (t instanceof TableSource) {
            return (TableSource) t;
        }
        if (t instanceof MaterializedView) {
            MaterializedView v = (MaterializedView) t;
            return table(v.targetDatabase(), v.targetTable(), ctx);
        }
        if (t instanceof dev.chdedup.stub.mv.PlainView && views != null) {
            dev.chdedup.stub.mv.PlainView v = (dev.chdedup.stub.mv.PlainView) t;
            return views.apply(v, ctx.withDatabase(v.database()));
        }
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Table " + db + "." + table + " cannot be read");
    }

    /** A name as a back-quoted identifier that reads back as the same name (metadata must load again). */
    public static String backQuote(String name) {
        return ShowCreate.backQuote(name);
    }

    @Override
    public void close() {
        for (Map<String, Object> tables : List.copyOf(databases.values())) {
            for (Object t : List.copyOf(tables.values())) {
                if (t instanceof dev.chdedup.stub.storages.StorageBuffer) {
                    ((dev.chdedup.stub.storages.StorageBuffer) t).close(); // ClickHouse flushes its buffers on shutdown
                } else if (t instanceof dev.chdedup.stub.storages.Storage) {
                    ((dev.chdedup.stub.storages.Storage) t).shutdown();
                }
            }
        }
        merges.close();
    }

    /** A Buffer table reads its destination through this catalog. */
    private dev.chdedup.stub.storages.Storage withResolver(dev.chdedup.stub.storages.Storage s) {
        if (s instanceof dev.chdedup.stub.storages.StorageBuffer) {
            ((dev.chdedup.stub.storages.StorageBuffer) s).resolveWith(this::find);
        }
        return s;
    }
}
