package dev.chdedup.stub.compat;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What an older ClickHouse does differently on the HTTP interface, as data: the settings and formats it lacks, how it
 * words an error and which headers it sends ({@code queryHeaders}: Query-Id, Timezone, Exception-Code, Summary and Format),
 * how it frames a response ({@code legacyFraming}: always chunked, an error body LZ4-framed under {@code compress=1}),
 * the functions and MergeTree settings it lacks, what {@code version()} answers, whether it takes {@code INSERT ... SETTINGS},
 * whether a request body the client stopped sending simply ends there ({@code commitsCutBody}: 18.16 commits it when it
 * ends on a row boundary, and answers 200), and its defaults: those ClickHouse's {@link SettingsChangesHistory} gives
 * its version, and {@code releaseDefaults}, the ones that history does not record. The stub plays one of these
 * with {@code StubServer.builder().emulate("18.16")} or {@code --emulate 18.16}. {@link #CLICKHOUSE_18_16} follows what
 * a real 18.16.1 answered (../shared/clickhouse-observed/); {@link #CLICKHOUSE_22_1} is the last release before
 * {@code insert_deduplication_token}: modern error text and headers, no token. {@link #CURRENT} changes nothing.
 */
public record CompatibilityProfile(String name, String version, boolean legacyErrorText, boolean queryHeaders, boolean legacyFraming,
                                   boolean honorsFormatHeader,
                                   boolean insertSettingsClause, boolean emptyCompressedResult, boolean commitsCutBody, Set<String> unknownSettings,
                                   Set<String> unknownFormats, Set<String> unknownFunctions, Set<String> unknownMergeTreeSettings,
                                   Map<String, String> releaseDefaults) {
    /** Settings the driver or the official client may send that 18.16 lacks (it answers 404, Code 115). */
    private static final Set<String> ABSENT_IN_18_16 = Set.of("insert_deduplication_token", "deduplicate_insert",
        "deduplicate_insert_select", "async_insert", "wait_for_async_insert", "async_insert_deduplicate", "async_insert_busy_timeout_ms",
        "non_replicated_deduplication_window", "insert_quorum_parallel", "max_partitions_per_insert_block",
        "deduplicate_blocks_in_dependent_materialized_views", "session_timezone", "insert_deduplicate_select", "date_time_output_format",
        "output_format_json_quote_64bit_integers_as_strings", "input_format_null_as_default", "insert_null_as_default",
        "allow_experimental_object_type", "max_execution_time_leaf", "http_response_buffer_size", "enable_http_compression_level",
        "log_comment", "throw_on_max_partitions_per_insert_block",
        // the Distributed engine's settings 18.16 lacks (it has insert_distributed_sync, insert_distributed_timeout,
        // distributed_directory_monitor_sleep_time_ms and _batch_inserts)
        "distributed_foreground_insert", "distributed_background_insert_timeout", "distributed_background_insert_sleep_time_ms",
        "distributed_background_insert_max_sleep_time_ms", "distributed_background_insert_batch",
        "distributed_background_insert_split_batch_on_failure", "distributed_directory_monitor_max_sleep_time_ms",
        "distributed_directory_monitor_split_batch_on_failure", "use_compact_format_in_distributed_parts_names", "insert_shard_id",
        "insert_distributed_one_random_shard");
    /**
     * Functions the stub has that 18.16's system.functions does not list (checked on a real 18.16.1), lower case: the
     * official driver's {@code fromUnixTimestamp64Nano} for instants among them.
     */
    private static final Set<String> FUNCTIONS_ABSENT_IN_18_16 = Set.of("fromunixtimestamp64nano", "fromunixtimestamp64micro",
        "fromunixtimestamp64milli", "fromunixtimestamp64second", "todatetime64", "tounixtimestamp64nano", "tounixtimestamp64micro",
        "tounixtimestamp64milli", "now64", "todate32", "parsedatetime64besteffort", "mapkeys", "mapvalues", "map", "jsonextract",
        "servertimezone", "queryid", "currentuser", "toipv4", "isvalidjson", "randomstring", "shardnum", "shardcount");
    /** MergeTree settings 18.16's system.merge_tree_settings does not have (02c-merge-tree-settings.txt). */
    private static final Set<String> MERGE_TREE_SETTINGS_ABSENT_IN_18_16 = Set.of("non_replicated_deduplication_window");
    /**
     * The insert block sizes before DEFAULT_INSERT_BLOCK_SIZE lost its SIMD padding (1048449 now): 18.16.1's
     * system.settings (../shared/clickhouse-observed/02e-settings.txt); ClickHouse's history of default changes does
     * not record them.
     */
    private static final Map<String, String> INSERT_BLOCK_SIZES_OF_18_16 = Map.of("max_insert_block_size", "1048576",
        "min_insert_block_size_rows", "1048576", "min_insert_block_size_bytes", "268435456");
    /** Settings 22.1 lacks among those the driver sends: the token came with 22.2, the switches with 26.x. */
    private static final Set<String> ABSENT_IN_22_1 = Set.of("insert_deduplication_token", "deduplicate_insert", "deduplicate_insert_select",
        "async_insert_deduplicate", "session_timezone", "throw_on_max_partitions_per_insert_block");

    public static final CompatibilityProfile CURRENT = new CompatibilityProfile("current", null, false, true, false, true, true, false, false, Set.of(),
        Set.of(), Set.of(), Set.of(), Map.of());
    public static final CompatibilityProfile CLICKHOUSE_18_16 = new CompatibilityProfile("18.16", "18.16.1", true, false, true, false, false, true, true,
        ABSENT_IN_18_16, Set.of("rowbinarywithnamesandtypes", "rowbinarywithnames", "jsoncompacteachrow", "jsonstrings", "parquet", "arrow",
        "orc", "avro", "msgpack", "jsoncompactstringseachrow", "customseparated", "rawblob", "protobufsingle", "lineasstring",
        "jsonlines", "ndjson", "jsonobjecteachrow", "prettyjsoneachrow"), FUNCTIONS_ABSENT_IN_18_16, MERGE_TREE_SETTINGS_ABSENT_IN_18_16,
        INSERT_BLOCK_SIZES_OF_18_16);
    // the stub has given 22.1 the block sizes it observed in 18.16
    public static final CompatibilityProfile CLICKHOUSE_22_1 = new CompatibilityProfile("22.1", "22.1.3.7", false, true, false, true, true, false, false,
        ABSENT_IN_22_1, Set.of(), Set.of(), Set.of(), INSERT_BLOCK_SIZES_OF_18_16);

    public static List<CompatibilityProfile> all() {
        return List.of(CURRENT, CLICKHOUSE_18_16, CLICKHOUSE_22_1);
    }

    /** The profile named {@code name} ({@code 18.16}, {@code 22.1} or {@code current}); IllegalArgumentException names the others. */
    public static CompatibilityProfile named(String name) {
        for (CompatibilityProfile p : all()) {
            if (p.name.equals(name) || p.version != null && p.version.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("Unknown ClickHouse version to emulate: " + name + " (known: 18.16, 22.1, current)");
    }

    public boolean knowsSetting(String setting) {
        return !unknownSettings.contains(setting);
    }

    /**
     * This release's query-level defaults where they are not the current server's: the previous values of the changes
     * ClickHouse made after it, and its {@code releaseDefaults}. Empty for {@link #CURRENT}.
     */
    public Map<String, String> settingDefaults() {
        if (version == null) {
            return Map.of();
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (SettingsChangesHistory.Change c : SettingsChangesHistory.settings()) {
            String old = SettingsChangesHistory.settingUnder(c.name(), version);
            if (old != null) {
                m.put(c.name(), old);
            }
        }
        m.putAll(releaseDefaults);
        return Map.copyOf(m);
    }

    /** This release's default of MergeTree setting {@code name}, or null where it is the current server's. */
    public String mergeTreeSettingDefault(String name) {
        return SettingsChangesHistory.mergeTreeSettingUnder(name, version);
    }

    /** Whether this server has function {@code name} (names compared case-insensitively). */
    public boolean knowsFunction(String name) {
        return unknownFunctions.isEmpty() || !unknownFunctions.contains(name.toLowerCase(Locale.ROOT));
    }

    /** The Code 46 this server answers for a function it does not have. */
    public ChException unknownFunction(String name) {
        return new ChException(ErrorCode.UNKNOWN_FUNCTION, legacyErrorText ? "Unknown function " + name
            : "Function with name `" + name + "` does not exist. In scope " + name + "()");
    }

    /** Whether {@code system.merge_tree_settings} of this server lists {@code setting}. */
    public boolean knowsMergeTreeSetting(String setting) {
        return !unknownMergeTreeSettings.contains(setting);
    }

    /** What {@code version()} answers: this release's version, or {@code currentVersion} where the profile changes nothing. */
    public String serverVersion(String currentVersion) {
        return version != null ? version : currentVersion;
    }

    public boolean knowsFormat(String format) {
        return format == null || !unknownFormats.contains(format.toLowerCase(Locale.ROOT));
    }

    /** The Code 115 this server answers for a setting it does not have. */
    public ChException unknownSetting(String setting) {
        return new ChException(ErrorCode.UNKNOWN_SETTING, legacyErrorText ? "Unknown setting " + setting : "Setting " + setting
            + " is neither a builtin setting nor started with the prefix 'custom_' registered for user-defined settings");
    }

    /** Refuses a format this server does not have, as it does (Code 73). */
    public void checkFormat(String format) {
        if (!knowsFormat(format)) {
            throw new ChException(ErrorCode.UNKNOWN_FORMAT, "Unknown format " + format);
        }
    }

    /**
     * Refuses {@code INSERT ... SETTINGS} where the server's grammar has no such clause; {@code sql} is the statement
     * text, {@code hasSettings} whether the parsed INSERT carries a SETTINGS clause.
     */
    public void checkInsertSettingsClause(String sql, boolean hasSettings) {
        if (insertSettingsClause || !hasSettings) {
            return;
        }
        int at = sql.toUpperCase(Locale.ROOT).indexOf("SETTINGS");
        String rest = at < 0 ? "" : sql.substring(at, Math.min(sql.length(), at + 200)).strip();
        throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (at + 1) + ": " + rest
            + ". Expected one of: VALUES, WITH, FORMAT, SELECT");
    }

    /**
     * Whether responses carry {@code X-ClickHouse-Exception-Tag} and a failure after the body started is written as
     * the tagged {@code __exception__} block (ClickHouse 25.11 and later: the current server only).
     */
    public boolean exceptionTag() {
        return version == null;
    }

    /** The error body as this server writes it, with its newline. */
    public String errorBody(ChException e, String currentVersion) {
        if (legacyErrorText) {
            return "Code: " + e.code().code + ", e.displayText() = DB::Exception: " + e.getMessage() + ", e.what() = DB::Exception\n";
        }
        return e.displayText() + " (version " + (version != null ? version + " (official build)" : currentVersion) + ")\n";
    }
}
