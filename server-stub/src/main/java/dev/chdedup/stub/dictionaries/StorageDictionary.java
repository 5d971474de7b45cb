package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.IDictionary;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.Storage;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A dictionary created by CREATE DICTIONARY, as the database holds it: a table of engine Dictionary (ClickHouse's
 * StorageDictionary) that reads as its entries, and the dictionary itself, loaded as ClickHouse's ExternalLoader loads
 * it: on first use (dictionaries_lazy_load), again on use once its LIFETIME (a time drawn between MIN and MAX seconds;
 * 0 never) is over, and on SYSTEM RELOAD. A failed load is kept as the dictionary's state and thrown to its users; it
 * is tried again on use after a backoff (5 s, doubling up to 10 min), never under LIFETIME(0); a failed reload keeps
 * the entries loaded before. INSERT and TRUNCATE are refused as the engine refuses them.
 */
public final class StorageDictionary implements Storage, IDictionary {
    private static final ThreadLocal<Set<StorageDictionary>> LOADING = ThreadLocal.withInitial(HashSet::new);
    private static final long BACKOFF_INITIAL_SECONDS = 5;
    private static final long BACKOFF_MAX_SECONDS = 600;

    private final String database;
    private final String name;
    private final Statement.CreateDictionary definition;
    final DictionaryStructure structure;
    private final Catalog catalog;
    final UUID uuid = UUID.randomUUID();
    private final List<Column> columns;

    /** The entries of the last successful load; null before it. */
    private volatile LoadedDictionary loaded;
    /** When the next load is due (System.nanoTime), when {@link #updates}: the lifetime's end, or a failure's backoff. */
    private volatile long nextLoadNanos;
    private volatile boolean updates;
    private final AtomicLong queryCount = new AtomicLong();
    private final AtomicLong foundCount = new AtomicLong();
    // the state system.dictionaries shows, written under the lock of this object
    volatile String status = "NOT_LOADED";
    volatile long loadingStartTime;
    volatile long lastSuccessfulUpdateTime;
    volatile double loadingDuration;
    volatile long errorCount;
    volatile RuntimeException lastException;

    /** The dictionary {@code database.name} that {@code definition} describes, reading its source through {@code catalog}. */
    public StorageDictionary(String database, String name, Statement.CreateDictionary definition, Catalog catalog) {
        this.database = database;
        this.name = name;
        this.definition = definition;
        this.catalog = catalog;
        this.structure = DictionaryStructure.of(definition, database + "." + name);
        List<Column> cols = new ArrayList<>();
        structure.keys.forEach(k -> cols.add(new Column(k.name(), k.type())));
        if (structure.rangeMin != null && structure.rangeMax != null) {
            cols.add(new Column(structure.rangeMin.name(), structure.rangeMin.type()));
            cols.add(new Column(structure.rangeMax.name(), structure.rangeMax.type()));
        }
        structure.attributes.forEach(a -> cols.add(new Column(a.name(), a.type())));
        this.columns = List.copyOf(cols);
    }

    public String database() {
        return database;
    }

    public String name() {
        return name;
    }

    Statement.CreateDictionary definition() {
        return definition;
    }

    /** The CREATE DICTIONARY the metadata file keeps: the database named, the password as given. */
    public String createQuery() {
        return CreateDictionaryFormat.format(definition, database, name, false, false);
    }

    /** SHOW CREATE: the statement on several lines, the password hidden. */
    public String showCreateQuery() {
        return CreateDictionaryFormat.format(definition, database, name, false, true);
    }

    // ---- loading (ExternalLoader) ----

    @Override
    public void load() {
        if (loaded != null && !(updates && System.nanoTime() - nextLoadNanos >= 0)) {
            return;
        }
        synchronized (this) {
            if (loaded == null) {
                if (lastException != null && !(updates && System.nanoTime() - nextLoadNanos >= 0)) {
                    throw lastException;
                }
                loadUnlocked();
            } else if (updates && System.nanoTime() - nextLoadNanos >= 0) {
                try {
                    loadUnlocked();
                } catch (RuntimeException e) {
                    // the entries loaded before stay; the failure is in last_exception
                }
            }
        }
    }

    /** SYSTEM RELOAD DICTIONARY: loads the dictionary again now, throwing the failure (the old entries then stay). */
    public synchronized void reload() {
        loadUnlocked();
    }

    private void loadUnlocked() {
        if (!LOADING.get().add(this)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dictionary " + getFullName() + " reads itself while it loads");
        }
        long start = System.nanoTime();
        loadingStartTime = System.currentTimeMillis() / 1000;
        status = loaded == null ? (lastException == null ? "LOADING" : "FAILED_AND_RELOADING") : "LOADED_AND_RELOADING";
        try {
            LoadedDictionary l = create();
            loaded = l;
            queryCount.set(0);
            foundCount.set(0);
            errorCount = 0;
            lastException = null;
            lastSuccessfulUpdateTime = System.currentTimeMillis() / 1000;
            status = "LOADED";
            long max = structure.lifetimeMax;
            updates = max > 0 && !structure.isDirect() && !structure.isCache();
            long lifetime = max <= structure.lifetimeMin ? max
                : java.util.concurrent.ThreadLocalRandom.current().nextLong(structure.lifetimeMin, max + 1);
            nextLoadNanos = System.nanoTime() + lifetime * 1_000_000_000L;
        } catch (RuntimeException e) {
            errorCount++;
            lastException = e;
            status = loaded == null ? "FAILED" : "LOADED";
            updates = structure.lifetimeMax > 0;
            long backoff = Math.min(BACKOFF_MAX_SECONDS, BACKOFF_INITIAL_SECONDS << Math.min(20, errorCount - 1));
            nextLoadNanos = System.nanoTime() + backoff * 1_000_000_000L;
            throw e;
        } finally {
            loadingDuration = Math.round((System.nanoTime() - start) / 1e6) / 1e3;
            LOADING.get().remove(this);
        }
    }

    /** The entries as the layout holds them, read from the source. */
    private LoadedDictionary create() {
        String named = getFullName() + " (" + uuid + ")";
        boolean range = structure.rangeMin != null && structure.rangeMax != null;
        if (structure.isRange() && !range) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, uuid + ": dictionary of layout '" + structure.layout.toLowerCase()
                + "' requires .structure.range_min and .structure.range_max");
        }
        if (!structure.isRange() && (structure.rangeMin != null || structure.rangeMax != null)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, uuid + ": elements .structure.range_min and .structure.range_max should be"
                + " defined only for a dictionary of layout 'range_hashed'");
        }
        if (structure.layout.equals("FLAT") && structure.complexKey) {
            throw new ChException(ErrorCode.UNSUPPORTED_METHOD, named + ": complex keys are not supported by the layout 'flat'");
        }
        IDictionarySource source = definition.source().name().equals("NULL") ? IDictionarySource.NULL
            : new ClickHouseDictionarySource(structure, definition.source().arguments(), database, catalog);
        if (structure.isDirect()) {
            return new DirectDictionary(structure, source);
        }
        if (structure.isCache()) {
            return new CacheDictionary(structure, source);
        }
        List<Object[]> rows = source.loadAll();
        return structure.isRange() ? new RangeHashedDictionary(structure, rows, named) : new HashedDictionary(structure, rows, named);
    }

    /** Whether a load was tried (the dictionary loaded or failed): SYSTEM RELOAD DICTIONARIES reloads those. */
    public boolean triedToLoad() {
        return loaded != null || lastException != null;
    }

    /** What system.dictionaries shows: the loaded entries' counts and source, or nothing before a load. */
    LoadedDictionary loaded() {
        return loaded;
    }

    String sourceDescription() {
        return definition.source().name().equals("NULL") ? IDictionarySource.NULL.toString()
            : new ClickHouseDictionarySource(structure, definition.source().arguments(), database, catalog).toString();
    }

    long queryCount() {
        return queryCount.get();
    }

    long foundCount() {
        return foundCount.get();
    }

    // ---- IDictionary ----

    @Override
    public String getFullName() {
        return database + "." + name;
    }

    @Override
    public List<Column> keyColumns() {
        return columns.subList(0, structure.keys.size());
    }

    @Override
    public boolean isComplexKey() {
        return structure.complexKey;
    }

    @Override
    public DataType rangeType() {
        return structure.isRange() && structure.rangeMin != null ? structure.rangeMin.type() : null;
    }

    @Override
    public List<Column> attributes() {
        return columns.subList(columns.size() - structure.attributes.size(), columns.size());
    }

    @Override
    public Object nullValue(int attribute) {
        return structure.attributes.get(attribute).nullValue();
    }

    @Override
    public int hierarchicalAttribute() {
        return structure.hierarchicalAttribute();
    }

    @Override
    public Object[] getEntry(Object[] key, Object rangePoint) {
        load();
        return loaded.find(key, rangePoint);
    }

    @Override
    public void addQuery(boolean found) {
        queryCount.incrementAndGet();
        if (found) {
            foundCount.incrementAndGet();
        }
    }

    // ---- the table (Storage) ----

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        load();
        return BlockStreams.chunk(columns, new ArrayList<>(loaded.rows()), maxBlockSize);
    }

    @Override
    public String engine() {
        return "Dictionary";
    }

    @Override
    public List<TableColumn> tableColumns() {
        List<TableColumn> out = new ArrayList<>();
        columns.forEach(c -> out.add(new TableColumn(c.name(), c.type(), null, null, null)));
        return out;
    }

    @Override
    public void write(List<Object[]> rows) {
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Method write is not supported by storage Dictionary");
    }

    @Override
    public void truncate() {
        throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot TRUNCATE dictionary");
    }

    @Override
    public void drop() {
        loaded = null;
    }

    @Override
    public long totalRows() {
        LoadedDictionary l = loaded;
        return l == null ? 0 : l.elementCount();
    }

    /** The statement as system.tables shows it (create_table_query): on one line, the password hidden. */
    @Override
    public String createSql() {
        return CreateDictionaryFormat.format(definition, database, name, true, true);
    }

    @Override
    public String toString() {
        return "StorageDictionary(" + getFullName() + ")";
    }
}
