package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.ServerInfo;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.storages.StorageCatalog;
import dev.chdedup.stub.system.SystemTable;
import dev.chdedup.stub.system.SystemTables;
import dev.chdedup.stub.types.ByteStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code system.dictionaries}, with the engine's columns (ClickHouse's StorageSystemDictionaries): a row for each
 * dictionary of each database, its key and attributes always, its type, source, lifetime and counts once it has
 * loaded, its status and last exception as its loads left them. Reading it loads nothing.
 */
public final class DictionariesSystemTable implements SystemTables.Extra {
    private final StorageCatalog catalog;

    public DictionariesSystemTable(StorageCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public List<String> names() {
        return List.of("dictionaries");
    }

    @Override
    public TableSource table(String name, QueryContext ctx) {
        SystemTable t = SystemTable.of("dictionaries");
        for (String db : catalog.databaseNames()) {
            if (db.equals(StorageCatalog.SYSTEM) || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (e.getValue() instanceof StorageDictionary d) {
                    row(t.add(), d);
                }
            }
        }
        return t.source();
    }

    private static void row(SystemTable.Row row, StorageDictionary d) {
        DictionaryStructure s = d.structure;
        List<String> keyNames = new ArrayList<>();
        List<String> keyTypes = new ArrayList<>();
        s.keys.forEach(k -> {
            keyNames.add(ByteStrings.fromText(k.name()));
            keyTypes.add(k.type().name());
        });
        List<String> attributeNames = new ArrayList<>();
        List<String> attributeTypes = new ArrayList<>();
        s.attributes.forEach(a -> {
            attributeNames.add(ByteStrings.fromText(a.name()));
            attributeTypes.add(a.type().name());
        });
        row.set("database", ByteStrings.fromText(d.database())).set("name", ByteStrings.fromText(d.name())).set("uuid", d.uuid)
            .set("origin", d.uuid.toString()).set("status", d.status).set("key.names", keyNames).set("key.types", keyTypes)
            .set("attribute.names", attributeNames).set("attribute.types", attributeTypes).set("error_count", d.errorCount)
            .set("loading_start_time", d.loadingStartTime).set("last_successful_update_time", d.lastSuccessfulUpdateTime)
            .set("loading_duration", d.loadingDuration)
            .set("comment", ByteStrings.fromText(d.definition().comment() == null ? "" : d.definition().comment()));
        RuntimeException failure = d.lastException;
        if (failure != null) {
            row.set("last_exception", ByteStrings.fromText(text(failure)));
        }
        LoadedDictionary l = d.loaded();
        if (l != null) {
            long queries = d.queryCount();
            row.set("type", s.typeName()).set("source", ByteStrings.fromText(d.sourceDescription())).set("lifetime_min", s.lifetimeMin)
                .set("lifetime_max", s.lifetimeMax).set("element_count", l.elementCount()).set("load_factor", l.loadFactor())
                .set("query_count", queries).set("found_rate", queries == 0 ? 0.0 : (double) d.foundCount() / queries)
                .set("hit_rate", l.hitRate());
        }
    }

    /** An exception as the engine writes it into last_exception. */
    private static String text(RuntimeException e) {
        if (e instanceof ChException c) {
            return "Code: " + c.code().code + ". DB::Exception: " + c.getMessage() + ". (" + c.code().name() + ") (version "
                + ServerInfo.VERSION + ")";
        }
        return String.valueOf(e.getMessage());
    }
}
