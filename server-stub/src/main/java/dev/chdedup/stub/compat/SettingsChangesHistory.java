package dev.chdedup.stub.compat;

import java.util.List;

/**
 * The default changes of ClickHouse's {@code src/Core/SettingsChangesHistory.cpp} for the settings the stub holds a
 * default of its own for: which release changed a default, and what it was before. It is what the
 * {@code compatibility} setting reads, as in the engine: a query whose {@code compatibility} names a release before a
 * change has the previous value of every setting it did not change ({@code getSettingsChangesHistory}); a server whose
 * profile names one (the releases the stub emulates set it) has the previous MergeTree defaults
 * ({@code getMergeTreeSettingsChangesHistory}, applied by {@code MergeTreeSettings::applyCompatibilitySetting}). Each
 * entry is copied from the engine's file; an entry's new value is the stub's default.
 */
public final class SettingsChangesHistory {
    /** One change: {@code name}'s default became {@code newValue} in {@code major.minor}, it was {@code previousValue}. */
    public record Change(int major, int minor, String name, String previousValue, String newValue) {
    }

    /**
     * Query-level settings. {@code async_insert} (26.2: false to true) is left out: the stub keeps 0, see
     * {@code KnownSettings}. {@code deduplicate_insert} and {@code deduplicate_insert_select} are read under
     * {@code compatibility} by {@code DeduplicationPolicy}.
     */
    private static final List<Change> SETTINGS = List.of(
        new Change(24, 1, "print_pretty_type_names", "0", "1"),
        new Change(25, 8, "output_format_json_quote_64bit_integers", "1", "0"),
        new Change(25, 10, "enable_http_compression", "0", "1"),
        new Change(25, 11, "create_table_empty_primary_key_by_default", "0", "1"),
        new Change(26, 5, "date_time_input_format", "basic", "best_effort"));

    /** MergeTree settings. */
    private static final List<Change> MERGE_TREE_SETTINGS = List.of(
        new Change(25, 9, "replicated_deduplication_window", "1000", "10000"),
        new Change(25, 10, "replicated_deduplication_window_seconds", "604800", "3600"));

    private SettingsChangesHistory() {
    }

    public static List<Change> settings() {
        return SETTINGS;
    }

    public static List<Change> mergeTreeSettings() {
        return MERGE_TREE_SETTINGS;
    }

    /**
     * The value of query-level setting {@code name}, not changed by the query, under {@code compatibility}: the value
     * before the first change after that release, or null where no change comes after it (the default applies).
     */
    public static String settingUnder(String name, String compatibility) {
        return previous(SETTINGS, name, compatibility);
    }

    /** As {@link #settingUnder}, for a MergeTree setting the table did not set, on a server whose profile names {@code compatibility}. */
    public static String mergeTreeSettingUnder(String name, String compatibility) {
        return previous(MERGE_TREE_SETTINGS, name, compatibility);
    }

    /** The engine walks the history from the newest release down, so the earliest change after the release wins. */
    private static String previous(List<Change> history, String name, String compatibility) {
        if (compatibility == null || compatibility.isBlank()) {
            return null;
        }
        Change first = null;
        for (Change c : history) {
            if (c.name().equals(name) && CompatibilityVersion.before(compatibility, c.major(), c.minor())
                && (first == null || c.major() < first.major() || c.major() == first.major() && c.minor() < first.minor())) {
                first = c;
            }
        }
        return first == null ? null : first.previousValue();
    }
}
