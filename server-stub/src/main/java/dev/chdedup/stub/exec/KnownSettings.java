package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The query-level settings the stub knows, with ClickHouse's defaults and descriptions: what
 * {@code system.settings} lists, what a URL parameter, {@code SET} or a {@code SETTINGS} clause may name. Every
 * setting of the engine is known: the rows recorded from its {@code system.settings} ({@link RecordedSettings})
 * under the definitions written here, which stay authoritative where the stub deliberately differs (its own
 * {@code max_threads}, a default a server has and the library engine the table was recorded from does not, a
 * description of what the stub does). An unknown name is {@code UNKNOWN_SETTING} (115), as in ClickHouse; HTTP-only
 * parameters are handled apart. A value is checked against its type by {@link SettingFields} and against the few
 * bounds ClickHouse enforces.
 */
public final class KnownSettings {
    public record Def(String name, String type, String defaultValue, String description) {
    }

    /** The hand-written definitions: what the stub reads or deliberately answers differently from the recorded rows. */
    private static final Map<String, Def> OVERRIDES = new LinkedHashMap<>();

    private static void def(String name, String type, String dflt, String description) {
        OVERRIDES.put(name, new Def(name, type, dflt, description));
    }

    /** The description the first definitions carried in place of the engine's: the recorded one replaces it. */
    private static final String PLACEHOLDER = "Format setting (see ClickHouse documentation).";

    /** Lazy holder: the merged registry is built on first lookup, once. */
    private static final class Registry {
        static final Map<String, Def> DEFS = merge();
    }

    /**
     * The recorded rows with the hand-written definitions over them. A hand-written definition keeps its default and
     * description; it takes the engine's type where that is a refinement of its own (an enum for a String, a BoolAuto for a Bool, a
     * NonZeroUInt64 for a UInt64), so values are refused as the engine refuses them.
     */
    private static Map<String, Def> merge() {
        Map<String, Def> m = new LinkedHashMap<>();
        for (RecordedSettings.Row r : RecordedSettings.settings().values()) {
            Def o = OVERRIDES.get(r.name());
            if (o == null) {
                m.put(r.name(), new Def(r.name(), r.type(), r.defaultValue(), r.description()));
                continue;
            }
            boolean refines = o.type().equals("String") && RecordedSettings.enumType(r.type()) != null
                || o.type().equals("UInt64") && r.type().equals("NonZeroUInt64") || o.type().equals("Bool") && r.type().equals("BoolAuto");
            m.put(r.name(), new Def(r.name(), refines ? r.type() : o.type(), o.defaultValue(),
                o.description().equals(PLACEHOLDER) ? r.description() : o.description()));
        }
        for (Def o : OVERRIDES.values()) {
            m.putIfAbsent(o.name(), o); // the stub's own (HTTP-level and its fault handling) settings
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    static {
        // DEFAULT_INSERT_BLOCK_SIZE (1048576 less the SIMD padding) and 256 times it, as ClickHouse's Defines.h has them
        def("max_insert_block_size", "UInt64", "1048449", "The maximum block size for insertion, when the input is split into blocks.");
        def("min_insert_block_size_rows", "UInt64", "1048449", "Squash blocks passed to INSERT to at least this many rows.");
        def("min_insert_block_size_bytes", "UInt64", "268402944", "Squash blocks passed to INSERT to at least this many bytes.");
        def("max_block_size", "UInt64", "65409", "Maximum block size for reading (rows).");
        def("max_partitions_per_insert_block", "UInt64", "100", "Limit the maximum number of partitions in a single inserted block.");
        def("throw_on_max_partitions_per_insert_block", "Bool", "1", "Throw when max_partitions_per_insert_block is exceeded, instead of logging.");
        def("insert_deduplicate", "Bool", "1", "Legacy switch for deduplication of INSERT queries (read under deduplicate_insert=backward_compatible_choice).");
        def("deduplicate_insert", "DeduplicateInsertMode", "enable", "Deduplication of INSERT queries: enable, disable or backward_compatible_choice.");
        def("deduplicate_insert_select", "DeduplicateInsertSelectMode", "enable_when_possible", "Deduplication of INSERT SELECT: enable_when_possible, force_enable, enable_even_for_bad_queries or disable.");
        def("async_insert_deduplicate", "Bool", "0", "Legacy switch for deduplication of async inserts.");
        def("insert_deduplication_token", "String", "", "A token that, when set, is used for block ids instead of the data hash.");
        def("deduplicate_blocks_in_dependent_materialized_views", "Bool", "1", "Deduplicate blocks pushed into materialized views.");
        def("insert_select_deduplicate", "BoolAuto", "auto", "Obsolete; has no effect.");
        def("update_insert_deduplication_token_in_dependent_materialized_views", "Bool", "0", "Obsolete; has no effect.");
        def("compatibility", "String", "", "Use the default settings of the given ClickHouse version.");
        // a 26.2+ server's default is 1 (SettingsChangesHistory.cpp, 26.2); the stub keeps 0: it inserts as the engine it is
        // checked against does, whose library mode has no insert queue and runs every insert synchronously (executeQuery:
        // "asynchronous insert queue is not configured"), and its queue lacks 26.x's adaptive busy timeout,
        // async_insert_max_query_number and the quorum wait of a flushed part (docs/stub.md, "async_insert")
        def("async_insert", "Bool", "0", "Collect INSERT data into batches on the server.");
        def("wait_for_async_insert", "Bool", "1", "Wait until an async insert is flushed before answering.");
        def("wait_for_async_insert_timeout", "Seconds", "120", "Timeout of waiting for an async insert flush.");
        def("async_insert_busy_timeout_ms", "Milliseconds", "200", "Maximum time to wait before flushing an async insert batch.");
        def("async_insert_max_data_size", "UInt64", "10485760", "Maximum bytes of an async insert batch before it is flushed.");
        def("insert_quorum", "UInt64Auto", "0", "Number of replicas that must confirm an insert.");
        def("insert_quorum_timeout", "Milliseconds", "600000", "Quorum wait timeout.");
        def("insert_keeper_fault_injection_probability", "Float", "0", "Probability of a ZooKeeper fault injected into each ZooKeeper request of a replicated insert.");
        def("insert_keeper_fault_injection_seed", "UInt64", "0", "Seed of the injected ZooKeeper faults (0: random).");
        def("insert_quorum_parallel", "Bool", "1", "Allow parallel quorum inserts.");
        def("insert_keeper_max_retries", "UInt64", "20", "Retries of a replicated insert's ZooKeeper requests failed by a lost connection (0: none).");
        def("insert_keeper_retry_initial_backoff_ms", "UInt64", "100", "Wait before the first retry of an insert's ZooKeeper request.");
        def("insert_keeper_retry_max_backoff_ms", "UInt64", "10000", "Longest wait between retries of an insert's ZooKeeper request.");
        def("select_sequential_consistency", "UInt64", "0", "Only read parts that reached their quorum.");
        def("max_threads", "MaxThreads", "2", "Maximum number of query processing threads.");
        def("max_execution_time", "Seconds", "0", "Maximum query execution time.");
        def("max_result_rows", "UInt64", "0", "Limit on result rows.");
        def("max_result_bytes", "UInt64", "0", "Limit on result bytes (uncompressed).");
        def("result_overflow_mode", "OverflowMode", "throw", "What to do when the result limit is exceeded: throw or break.");
        def("timeout_overflow_mode", "OverflowMode", "throw", "What to do when max_execution_time is exceeded (the stub always throws).");
        def("max_memory_usage", "UInt64", "0", "Maximum memory usage for a query.");
        def("max_query_size", "UInt64", "262144", "Maximum bytes of a query parsed by the SQL parser.");
        def("http_receive_timeout", "Seconds", "30", "HTTP receive timeout: longest silence while a request is read.");
        def("http_send_timeout", "Seconds", "30", "HTTP send timeout: longest a blocked write of the response may wait.");
        def("profile", "String", "", "The settings profile whose settings apply (SET profile = 'name', or the URL parameter).");
        def("readonly", "UInt64", "0", "0: no restrictions; 1: only reads; 2: reads and settings changes.");
        def("send_progress_in_http_headers", "Bool", "0", "Send X-ClickHouse-Progress headers.");
        def("http_headers_progress_interval_ms", "UInt64", "100", "Interval of progress headers.");
        def("enable_http_compression", "Bool", "1", "Compress the HTTP response according to Accept-Encoding.");
        def("http_zlib_compression_level", "Int64", "3", "Compression level of gzip/deflate responses.");
        def("output_format_binary_write_json_as_string", "Bool", "0", "Write JSON values as a String of their text in RowBinary.");
        def("input_format_binary_read_json_as_string", "Bool", "0", "Read JSON values from a String of their text in RowBinary.");
        def("output_format_json_quote_64bit_integers", "Bool", "0", "Quote 64-bit integers in JSON output.");
        def("output_format_json_quote_denormals", "Bool", "0", "Output nan and inf as strings in JSON.");
        def("input_format_skip_unknown_fields", "Bool", "1", "Skip unknown fields in input formats with names.");
        def("input_format_null_as_default", "Bool", "1", "Insert NULL into a non-Nullable column as its default.");
        def("input_format_with_names_use_header", "Bool", "1", "Use the header of *WithNames formats.");
        def("input_format_tsv_empty_as_default", "Bool", "0", "Treat empty TSV fields as default values.");
        def("input_format_values_interpret_expressions", "Bool", "1", "Evaluate non-literal expressions in the Values format.");
        def("input_format_connection_handling", "Bool", "0", "When the connection closes unexpectedly, parse and insert the data"
            + " received so far instead of failing (makes deduplication impossible).");
        def("input_format_max_block_wait_ms", "UInt64", "0", "The longest time in milliseconds a block being parsed waits before it is"
            + " emitted (0: no limit); needs input_format_connection_handling.");
        def("format_csv_delimiter", "Char", ",", "The delimiter of CSV.");
        def("format_csv_allow_double_quotes", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("format_csv_allow_single_quotes", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("format_csv_null_representation", "String", "\\N", "Format setting (see ClickHouse documentation).");
        def("format_tsv_null_representation", "String", "\\N", "Format setting (see ClickHouse documentation).");
        def("input_format_csv_empty_as_default", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("input_format_csv_skip_trailing_empty_lines", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("input_format_csv_trim_whitespaces", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("input_format_csv_unquoted_null_literal_as_null", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("input_format_tsv_crlf_end_of_line", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("input_format_tsv_skip_trailing_empty_lines", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("input_format_with_types_use_header", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("output_format_csv_crlf_end_of_line", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("output_format_json_array_of_rows", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("output_format_json_escape_forward_slashes", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("output_format_json_named_tuples_as_objects", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("output_format_json_validate_utf8", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("output_format_json_pretty_print", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("output_format_json_quote_64bit_floats", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("output_format_json_quote_decimals", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("output_format_tsv_crlf_end_of_line", "Bool", "0", "Format setting (see ClickHouse documentation).");
        def("output_format_write_statistics", "Bool", "1", "Format setting (see ClickHouse documentation).");
        def("date_time_input_format", "String", "best_effort", "How DateTime text input is parsed.");
        def("date_time_output_format", "String", "simple", "How DateTime is shown.");
        def("session_timezone", "Timezone", "", "The time zone of the session.");
        def("use_client_time_zone", "Bool", "0", "Use the client's time zone.");
        def("allow_experimental_analyzer", "Bool", "1", "Use the new query analyzer.");
        def("enable_analyzer", "Bool", "1", "Use the new query analyzer.");
        def("optimize_on_insert", "Bool", "1", "Apply the table engine's merge transformation on insert.");
        def("optimize_trivial_count_query", "Bool", "1", "Answer SELECT count() FROM a MergeTree table, with nothing else, from the parts' row counts.");
        def("optimize_throw_if_noop", "Bool", "0", "Throw if OPTIMIZE does nothing.");
        def("mutations_sync", "UInt64", "0", "Wait for mutations.");
        def("alter_sync", "UInt64", "1", "Wait for ALTER actions.");
        def("distributed_ddl_task_timeout", "Int64", "180", "Seconds an ON CLUSTER query waits for the hosts of its cluster.");
        def("distributed_ddl_output_mode", "String", "throw", "What an ON CLUSTER query answers: throw, none, null_status_on_timeout or never_throw.");
        def("replication_wait_for_inactive_replica_timeout", "Int64", "120", "Seconds to wait for inactive replicas to run ALTER and mutations.");
        def("replication_alter_partitions_sync", "UInt64", "1", "Wait for partition actions on replicas.");
        def("database_atomic_wait_for_drop_and_detach_synchronously", "Bool", "0", "Wait for DROP to finish.");
        def("log_queries", "Bool", "1", "Log queries to system.query_log.");
        def("log_comment", "String", "", "A comment for system.query_log.");
        def("query_id", "String", "", "The query id (HTTP parameter).");
        def("wait_end_of_query", "Bool", "0", "Buffer the whole response before sending it.");
        def("buffer_size", "UInt64", "1048576", "HTTP response buffer size.");
        def("extremes", "Bool", "0", "Compute extremes.");
        def("join_use_nulls", "Bool", "0", "Use NULL for non-matched JOIN rows.");
        def("prefer_column_name_to_alias", "Bool", "0", "Prefer columns over aliases.");
        def("final", "Bool", "0", "Apply FINAL to every table.");
        def("insert_null_as_default", "Bool", "1", "Insert defaults instead of NULL into non-Nullable columns in INSERT SELECT.");
        def("fsync_metadata", "Bool", "1", "Fsync metadata files.");
        def("network_compression_method", "String", "LZ4", "Compression of the native protocol.");
        def("low_cardinality_allow_in_native_format", "Bool", "1", "Allow LowCardinality in Native format.");
        def("allow_suspicious_low_cardinality_types", "Bool", "0", "Allow LowCardinality of small fixed types.");
        def("max_bytes_to_read", "UInt64", "0", "Limit on bytes read.");
        def("max_rows_to_read", "UInt64", "0", "Limit on rows read.");
        def("load_balancing", "String", "random", "Replica choice for distributed queries.");
        def("use_query_cache", "Bool", "0", "Use the query cache.");
        def("workload", "String", "default", "Workload name.");
        // types once experimental: a current server takes the old switches (obsolete or aliases), the types being on
        def("allow_experimental_object_type", "Bool", "0", "Obsolete; has no effect.");
        def("allow_experimental_json_type", "Bool", "1", "Alias of enable_json_type.");
        def("enable_json_type", "Bool", "1", "Allow the JSON type.");
        def("allow_experimental_variant_type", "Bool", "1", "Alias of enable_variant_type.");
        def("enable_variant_type", "Bool", "1", "Allow the Variant type.");
        def("allow_experimental_dynamic_type", "Bool", "1", "Alias of enable_dynamic_type.");
        def("enable_dynamic_type", "Bool", "1", "Allow the Dynamic type.");
        def("allow_experimental_bfloat16_type", "Bool", "1", "Obsolete; has no effect.");
        def("allow_experimental_geo_types", "Bool", "1", "Obsolete; has no effect.");
        def("allow_experimental_map_type", "Bool", "1", "Obsolete; has no effect.");
        def("allow_experimental_low_cardinality_type", "Bool", "1", "Obsolete; has no effect.");
        def("allow_suspicious_variant_types", "Bool", "0", "Allow Variant types with similar variants.");
        def("allow_suspicious_types_in_order_by", "Bool", "0", "Allow Variant and Dynamic types in ORDER BY keys.");
        def("allow_suspicious_types_in_group_by", "Bool", "0", "Allow Variant and Dynamic types in GROUP BY keys.");
        def("flatten_nested", "Bool", "1", "Split Nested columns into name.field arrays (the stub always does).");
    }

    private KnownSettings() {
    }

    public static boolean isKnown(String name) {
        return Registry.DEFS.containsKey(name);
    }

    public static Def get(String name) {
        return Registry.DEFS.get(name);
    }

    public static Map<String, Def> all() {
        return Registry.DEFS;
    }

    /** Settings that must be positive: the stub cannot work with 0 (or a negative timeout) there. */
    private static final java.util.Set<String> POSITIVE = java.util.Set.of("max_query_size",
        "http_receive_timeout", "http_send_timeout");

    /**
     * Throws {@code UNKNOWN_SETTING} unless {@code name} is known, and ClickHouse's parse error unless {@code value}
     * is a value of its type; returns the value as a number where the type is numeric.
     */
    public static long validate(String name, String value) {
        check(name);
        Def d = Registry.DEFS.get(name);
        if (d == null) {
            return 0;
        }
        long v = SettingFields.parse(d.type(), name, value);
        if ((v == 0 || v < 0 && d.type().equals("Seconds")) && POSITIVE.contains(name)) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Setting " + name + " cannot be " + (v == 0 ? "0" : "negative"));
        }
        return v;
    }

    /** Throws {@code UNKNOWN_SETTING} unless {@code name} is known. */
    public static void check(String name) {
        if (!Registry.DEFS.containsKey(name) && !name.startsWith("custom_") && !name.startsWith("param_")) {
            throw new ChException(ErrorCode.UNKNOWN_SETTING, "Setting " + name + " is neither a builtin setting nor started with the prefix 'custom_' registered for user-defined settings");
        }
    }
}
