package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.KnownSettings;
import dev.chdedup.stub.exec.RecordedSettings;
import dev.chdedup.stub.exec.SettingFields;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Table-level MergeTree settings with ClickHouse's defaults (what {@code system.merge_tree_settings} lists and a
 * {@code SETTINGS} clause of CREATE TABLE or {@code ALTER TABLE ... MODIFY SETTING} may change): every row recorded
 * from the engine's {@code system.merge_tree_settings} ({@link RecordedSettings}), under the definitions written
 * here for the settings the stub reads. Values are checked by type ({@link SettingFields}). An unknown name is
 * {@code UNKNOWN_SETTING}; a query-level setting in CREATE's clause applies to that query and is not stored, as in
 * the engine.
 */
public final class MergeTreeSettings {
    public record Def(String name, String type, String defaultValue, String description) {
    }

    /** The hand-written definitions: the settings the stub reads, with the defaults it works with. */
    private static final Map<String, Def> OVERRIDES = new LinkedHashMap<>();

    private static void def(String n, String t, String d, String desc) {
        OVERRIDES.put(n, new Def(n, t, d, desc));
    }

    /** Lazy holder: the merged registry is built on first lookup, once. */
    private static final class Registry {
        static final Map<String, Def> DEFS = merge();
    }

    /** The recorded rows with the hand-written definitions over them (their own type unless the engine's refines a UInt64). */
    private static Map<String, Def> merge() {
        Map<String, Def> m = new LinkedHashMap<>();
        for (RecordedSettings.Row r : RecordedSettings.mergeTreeSettings().values()) {
            Def o = OVERRIDES.get(r.name());
            if (o == null) {
                m.put(r.name(), new Def(r.name(), r.type(), r.defaultValue(), r.description()));
            } else {
                boolean refines = o.type().equals("UInt64") && r.type().equals("NonZeroUInt64");
                m.put(r.name(), new Def(r.name(), refines ? r.type() : o.type(), o.defaultValue(), o.description()));
            }
        }
        for (Def o : OVERRIDES.values()) {
            m.putIfAbsent(o.name(), o);
        }
        return Collections.unmodifiableMap(m);
    }

    static {
        def("index_granularity", "UInt64", "8192", "How many rows correspond to one primary key value.");
        def("index_granularity_bytes", "UInt64", "10485760", "Approximate amount of bytes in a single granule.");
        def("non_replicated_deduplication_window", "UInt64", "0", "How many last blocks of hashes are kept on disk for a non-replicated table (0: no deduplication).");
        def("replicated_deduplication_window", "UInt64", "10000", "How many last blocks of hashes are kept in ZooKeeper.");
        def("replicated_deduplication_window_seconds", "UInt64", "3600", "Seconds after which block hashes are removed from ZooKeeper.");
        def("replicated_deduplication_window_for_async_inserts", "UInt64", "10000", "How many last hash values of async inserts are kept.");
        def("replicated_deduplication_window_seconds_for_async_inserts", "UInt64", "604800", "Seconds after which async insert hashes are removed.");
        def("fsync_after_insert", "Bool", "0", "Do fsync for every inserted part.");
        def("fsync_part_directory", "Bool", "0", "Do fsync for the part directory after part operations.");
        def("parts_to_delay_insert", "UInt64", "1000", "Active parts in a partition after which inserts are delayed.");
        def("parts_to_throw_insert", "UInt64", "3000", "Active parts in a partition after which inserts fail with TOO_MANY_PARTS.");
        def("max_parts_in_total", "UInt64", "100000", "Active parts in all partitions after which inserts fail.");
        def("merge_with_ttl_timeout", "Int64", "14400", "Minimal time before repeating a merge with TTL.");
        def("max_bytes_to_merge_at_max_space_in_pool", "UInt64", "161061273600", "Maximum total size of parts to merge.");
        def("cleanup_delay_period", "UInt64", "30", "Minimum period to clean old queue logs, blocks hashes and parts.");
        def("cleanup_delay_period_random_add", "UInt64", "10", "Random addition to cleanup_delay_period.");
        def("min_bytes_for_wide_part", "UInt64", "10485760", "Minimal part size for the Wide format.");
        def("min_rows_for_wide_part", "UInt64", "0", "Minimal part rows for the Wide format.");
        def("allow_nullable_key", "Bool", "0", "Allow Nullable types as primary keys.");
        def("old_parts_lifetime", "Seconds", "480", "How long inactive parts are kept.");
        def("storage_policy", "String", "default", "Name of the storage disk policy.");
        def("ttl_only_drop_parts", "Bool", "0", "Drop whole parts when all their rows expired.");
        def("merge_selecting_sleep_ms", "UInt64", "5000", "Sleep time of the merge selecting task when nothing is selected.");
        def("max_replicated_merges_in_queue", "UInt64", "1000", "How many merge and mutate tasks may be in the replication queue at once.");
        def("min_age_to_force_merge_seconds", "UInt64", "0", "Merge parts older than this.");
        def("replicated_can_become_leader", "Bool", "1", "A replica can become leader.");
        def("max_replicated_logs_to_keep", "UInt64", "1000", "Records in the replication log kept if there are inactive replicas.");
        def("min_replicated_logs_to_keep", "UInt64", "10", "Records in the replication log kept at least.");
        def("compress_marks", "Bool", "1", "Compress marks.");
        def("compress_primary_key", "Bool", "1", "Compress the primary key.");
    }

    private MergeTreeSettings() {
    }

    public static Map<String, Def> all() {
        return Registry.DEFS;
    }

    public static void check(String name, String engine) {
        if (!Registry.DEFS.containsKey(name)) {
            throw new ChException(ErrorCode.UNKNOWN_SETTING, "Unknown setting '" + name + "': for storage " + engine);
        }
    }

    /** Validated, immutable table settings: the changed ones over the defaults. */
    public static Map<String, String> validated(Map<String, String> changed, String engine) {
        for (Map.Entry<String, String> e : changed.entrySet()) {
            check(e.getKey(), engine);
            SettingFields.parse(Registry.DEFS.get(e.getKey()).type(), e.getKey(), e.getValue().trim());
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(changed));
    }

    /**
     * The table settings of CREATE's {@code SETTINGS} clause: a name that is no MergeTree setting but a query-level one
     * (such as {@code flatten_nested}) is checked as such and left out, as the engine applies it to the CREATE query
     * alone; any other name is {@code UNKNOWN_SETTING} for the storage.
     */
    public static Map<String, String> forCreate(Map<String, String> clause, String engine) {
        Map<String, String> table = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : clause.entrySet()) {
            if (!Registry.DEFS.containsKey(e.getKey()) && KnownSettings.isKnown(e.getKey())) {
                KnownSettings.validate(e.getKey(), e.getValue().trim());
            } else {
                table.put(e.getKey(), e.getValue());
            }
        }
        return validated(table, engine);
    }

    /** ALTER's check: a setting fixed at CREATE ({@code index_granularity}...) is {@code READONLY_SETTING}. */
    public static void checkAlterable(String name, String engine) {
        check(name, engine);
        RecordedSettings.Row r = RecordedSettings.mergeTreeSettings().get(name);
        if (r != null && r.readonly()) {
            throw new ChException(ErrorCode.READONLY_SETTING, "Setting '" + name + "' is readonly for storage '" + engine + "'");
        }
    }

    public static long getLong(Map<String, String> changed, String name) {
        String v = changed.get(name);
        Def d = Registry.DEFS.get(name);
        String value = (v != null ? v : d.defaultValue()).trim();
        return d.type().equals("Seconds") ? SettingFields.parseSeconds(value) / 1000 : SettingFields.parse(d.type(), name, value);
    }
}
