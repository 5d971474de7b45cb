package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Table-level MergeTree settings with ClickHouse's defaults (what {@code system.merge_tree_settings} lists and a
 * {@code SETTINGS} clause of CREATE TABLE or {@code ALTER TABLE ... MODIFY SETTING} may change). An unknown name
 * is {@code UNKNOWN_SETTING}.
 */
public final class MergeTreeSettings {
    public record Def(String name, String type, String defaultValue, String description) {
    }

    private static final Map<String, Def> DEFS = new LinkedHashMap<>();

    private static void def(String n, String t, String d, String desc) {
        DEFS.put(n, new Def(n, t, d, desc));
    }

    static {
        def("index_granularity", "UInt64", "8192", "How many rows correspond to one primary key value.");
        def("index_granularity_bytes", "UInt64", "10485760", "Approximate amount of bytes in a single granule.");
        def("non_replicated_deduplication_window", "UInt64", "0", "How many last blocks of hashes are kept on disk for a non-replicated table (0: no deduplication).");
        def("replicated_deduplication_window", "UInt64", "1000", "How many last blocks of hashes are kept in ZooKeeper.");
        def("replicated_deduplication_window_seconds", "UInt64", "604800", "Seconds after which block hashes are removed from ZooKeeper.");
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
        return DEFS;
    }

    public static void check(String name, String engine) {
        if (!DEFS.containsKey(name)) {
            throw new ChException(ErrorCode.UNKNOWN_SETTING, "Unknown setting '" + name + "': for storage " + engine);
        }
    }

    /** Validated, immutable table settings: the changed ones over the defaults. */
    public static Map<String, String> validated(Map<String, String> changed, String engine) {
        for (Map.Entry<String, String> e : changed.entrySet()) {
            check(e.getKey(), engine);
            Def d = DEFS.get(e.getKey());
            if (d.type().startsWith("UInt") || d.type().equals("Bool") || d.type().equals("Seconds") || d.type().equals("Int64")) {
                try {
                    long v = Long.parseLong(e.getValue().trim());
                    if (v < 0 && !d.type().equals("Int64")) {
                        throw new NumberFormatException();
                    }
                } catch (NumberFormatException ex) {
                    throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Cannot parse value '" + e.getValue() + "' of setting " + e.getKey() + " as " + d.type());
                }
            }
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(changed));
    }

    public static long getLong(Map<String, String> changed, String name) {
        String v = changed.get(name);
        return Long.parseLong((v != null ? v : DEFS.get(name).defaultValue()).trim());
    }
}
