package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.mergetree.MergeTreeSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stub is a ClickHouse 26.7.2.1 server, the release of the engine it is checked against (chDB 3.4.0): it says so
 * wherever it reports its version, and has that server's defaults. Each expected default below is taken from
 * ClickHouse's source, not from the recorded settings tables: those come from the library engine (chDB, in
 * clickhouse-local's mode), whose defaults differ from a server's in places ({@code mutations_sync} 1,
 * {@code old_parts_lifetime} 0).
 */
class ServerDefaultsTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Query-level defaults: name, value, where ClickHouse's source sets it. */
    private static final String[][] SETTINGS = {
        // src/Core/Defines.h: DEFAULT_INSERT_BLOCK_SIZE = 1048449 (1048576 - PADDING_FOR_SIMD - (PADDING_FOR_SIMD - 1))
        {"max_insert_block_size", "1048449", "Settings.cpp: DECLARE_WITH_ALIAS(NonZeroUInt64, max_insert_block_size, DEFAULT_INSERT_BLOCK_SIZE"},
        {"min_insert_block_size_rows", "1048449", "Settings.cpp: DECLARE(UInt64, min_insert_block_size_rows, DEFAULT_INSERT_BLOCK_SIZE"},
        {"min_insert_block_size_bytes", "268402944", "Settings.cpp: DECLARE(UInt64, min_insert_block_size_bytes, (DEFAULT_INSERT_BLOCK_SIZE * 256)"},
        {"enable_http_compression", "1", "SettingsChangesHistory.cpp 25.10: {\"enable_http_compression\", false, true"},
        {"date_time_input_format", "best_effort", "SettingsChangesHistory.cpp 26.5: {\"date_time_input_format\", \"basic\", \"best_effort\""},
        {"insert_select_deduplicate", "auto", "SettingsChangesHistory.cpp 25.12: {\"insert_select_deduplicate\", Field{\"auto\"}, Field{\"auto\"}"},
        {"output_format_json_quote_64bit_integers", "0", "SettingsChangesHistory.cpp 25.8: {\"output_format_json_quote_64bit_integers\", true, false"},
        {"deduplicate_insert", "enable", "SettingsChangesHistory.cpp 26.2: {\"deduplicate_insert\", \"backward_compatible_choice\", \"enable\""},
        {"deduplicate_insert_select", "enable_when_possible", "SettingsChangesHistory.cpp 26.1: {\"deduplicate_insert_select\", ..., \"enable_when_possible\""},
        {"deduplicate_blocks_in_dependent_materialized_views", "1", "SettingsChangesHistory.cpp 26.2: false, true"},
        {"insert_deduplicate", "1", "Settings.cpp: DECLARE(Bool, insert_deduplicate, true"},
        {"mutations_sync", "0", "Settings.cpp: DECLARE(UInt64, mutations_sync, 0 (the library engine's row says 1)"},
        {"wait_for_async_insert", "1", "Settings.cpp: DECLARE(Bool, wait_for_async_insert, true"},
        {"wait_for_async_insert_timeout", "120", "Settings.cpp: DBMS_DEFAULT_LOCK_ACQUIRE_TIMEOUT_SEC (Defines.h: 120)"},
        {"async_insert_max_data_size", "10485760", "Settings.cpp: DECLARE(UInt64, async_insert_max_data_size, 10485760"},
        {"async_insert_busy_timeout_ms", "200", "Settings.cpp: async_insert_busy_timeout_max_ms, 200, alias async_insert_busy_timeout_ms"},
    };

    /** MergeTree defaults: name, value, where src/Storages/MergeTree/MergeTreeSettings.cpp sets it. */
    private static final String[][] MERGE_TREE_SETTINGS = {
        {"replicated_deduplication_window", "10000", "DECLARE(UInt64, replicated_deduplication_window, 10000 (25.9: 1000 -> 10000)"},
        {"replicated_deduplication_window_seconds", "3600", "DECLARE(UInt64, replicated_deduplication_window_seconds, 60 * 60 (25.10)"},
        {"replicated_deduplication_window_for_async_inserts", "10000", "DECLARE(UInt64, replicated_deduplication_window_for_async_inserts, 10000"},
        {"replicated_deduplication_window_seconds_for_async_inserts", "604800", "7 * 24 * 60 * 60 /* one week */"},
        {"non_replicated_deduplication_window", "0", "DECLARE(UInt64, non_replicated_deduplication_window, 0"},
        {"old_parts_lifetime", "480", "DECLARE(Seconds, old_parts_lifetime, 8 * 60 (the library engine's row says 0)"},
        {"parts_to_delay_insert", "1000", "DECLARE(UInt64, parts_to_delay_insert, 1000"},
        {"parts_to_throw_insert", "3000", "DECLARE(UInt64, parts_to_throw_insert, 3000"},
        {"max_parts_in_total", "100000", "DECLARE(UInt64, max_parts_in_total, 100000"},
    };

    private static String query(String sql) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(STUB.httpUrl() + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    /** A TabSeparated field's text. */
    private static String unescape(String field) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 1 < field.length()) {
                char n = field.charAt(++i);
                b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == '0' ? '\0' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    @Test
    void theVersionIsTheEnginesRelease() throws Exception {
        assertEquals("26.7.2.1", ServerInfo.VERSION);
        assertEquals(RecordedSettings.engineVersion(), ServerInfo.VERSION, "the release the settings tables were recorded from");
        assertEquals("26.7.2.1\n", query("SELECT version()"));
        // the engine's answer (port 8207): its version rows, in its order; the rest of its rows describe chDB's build
        assertEquals("VERSION_FULL\tClickHouse 26.7.2.1\nVERSION_DESCRIBE\tv26.7.2.1-stable\nVERSION_INTEGER\t26007002\n"
            + "VERSION_NAME\tClickHouse\nVERSION_MAJOR\t26\nVERSION_MINOR\t7\nVERSION_PATCH\t2\nVERSION_STRING\t26.7.2.1\n"
            + "VERSION_STRING_SHORT\t26.7\nVERSION_OFFICIAL\t\nSYSTEM\tLinux\nVERSION_GITHASH\ta6156303df65c307bdb8b66e9e9cc5637346a6b8\n"
            + "VERSION_REVISION\t54513\n", query("SELECT name, value FROM system.build_options WHERE name LIKE 'VERSION%' OR name = 'SYSTEM'"));
        HttpResponse<String> error = HTTP.send(HttpRequest.newBuilder(URI.create(STUB.httpUrl() + "/"))
            .POST(HttpRequest.BodyPublishers.ofString("SELECT throwIf(1, 'boom')")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(error.body().endsWith(" (version 26.7.2.1)\n"), error.body());
    }

    /**
     * HTTPHandler.cpp: every answer sets {@code X-ClickHouse-Server-Display-Name} to the server's {@code display_name}
     * (Server.cpp: {@code config().getString("display_name", getFQDNOrHostName())}, so the host's name, as a real
     * 18.16 answered with its host's, shared/clickhouse-observed/03-http.txt) and adds {@code Access-Control-Expose-Headers}.
     */
    @Test
    void theHeadersNameTheServerAsAServerDoes() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(STUB.httpUrl() + "/?query=SELECT%20hostName()")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(r.body().strip(), r.headers().firstValue("X-ClickHouse-Server-Display-Name").orElse(null));
        assertEquals("X-ClickHouse-Query-Id,X-ClickHouse-Summary,X-ClickHouse-Server-Display-Name,X-ClickHouse-Format,"
            + "X-ClickHouse-Timezone,X-ClickHouse-Exception-Code,X-ClickHouse-Exception-Tag",
            r.headers().firstValue("Access-Control-Expose-Headers").orElse(null));
    }

    @Test
    void theDefaultsAreA267Servers() throws Exception {
        for (String[] s : SETTINGS) {
            assertEquals(s[1], KnownSettings.get(s[0]).defaultValue(), s[0] + " (" + s[2] + ")");
            assertEquals(s[1], Settings.DEFAULTS.get(s[0]), s[0]);
            assertEquals(s[1] + "\t" + s[1] + "\t0\n", query("SELECT value, default, changed FROM system.settings WHERE name = '" + s[0] + "'"), s[0]);
        }
        for (String[] s : MERGE_TREE_SETTINGS) {
            assertEquals(s[1], MergeTreeSettings.all().get(s[0]).defaultValue(), s[0] + " (" + s[2] + ")");
            assertEquals(s[1] + "\t" + s[1] + "\n", query("SELECT value, default FROM system.merge_tree_settings WHERE name = '" + s[0] + "'"), s[0]);
        }
        assertEquals(268402944L, 256L * Settings.DEFAULTS.getLong("max_insert_block_size"));
    }

    /**
     * system.settings lists the engine's settings, no more and no fewer, each with the engine's recorded default,
     * except where a 26.7 server's differs from the library engine's (chDB changed it: {@code mutations_sync}) or the
     * stub deliberately keeps its own ({@code async_insert}, see the test below). The values are the defaults: the
     * engine's values of {@code allow_introspection_functions}, {@code implicit_select}, {@code storage_file_read_method}
     * and {@code output_format_arrow_use_native_writer} are clickhouse-local's and chDB's overrides of them
     * (LocalServer.cpp applySettingsOverridesForLocal, chDB's ChdbSettingsOverrides.cpp), not a server's.
     */
    @Test
    void systemSettingsListsTheEnginesSettingsWithAServersDefaults() throws Exception {
        java.util.Set<String> differ = java.util.Set.of("mutations_sync", "async_insert");
        java.util.Map<String, String> listed = new java.util.TreeMap<>();
        for (String line : query("SELECT name, value, default, changed FROM system.settings FORMAT TSV").split("\n")) {
            String[] f = line.split("\t", -1);
            assertEquals(f[2] + "\t0", f[1] + "\t" + f[3], f[0] + ": the value of an unchanged setting is its default");
            listed.put(f[0], unescape(f[2]));
        }
        assertEquals(new java.util.TreeSet<>(RecordedSettings.settings().keySet()), listed.keySet());
        for (RecordedSettings.Row r : RecordedSettings.settings().values()) {
            if (!differ.contains(r.name())) {
                assertEquals(r.defaultValue(), listed.get(r.name()), r.name());
            }
        }
        for (String name : differ) {
            assertTrue(!RecordedSettings.settings().get(name).defaultValue().equals(listed.get(name)), name);
        }
    }

    /**
     * system.merge_tree_settings lists the engine's 354 MergeTree settings with the engine's recorded defaults, except
     * {@code old_parts_lifetime}, which chDB sets to 0 where a server has 480 (MergeTreeSettings.cpp: 8 * 60).
     */
    @Test
    void systemMergeTreeSettingsListsTheEnginesSettingsWithAServersDefaults() throws Exception {
        java.util.Map<String, String> listed = new java.util.TreeMap<>();
        for (String line : query("SELECT name, value, default, changed FROM system.merge_tree_settings FORMAT TSV").split("\n")) {
            String[] f = line.split("\t", -1);
            assertEquals(f[2] + "\t0", f[1] + "\t" + f[3], f[0] + ": the value of an unchanged setting is its default");
            listed.put(f[0], unescape(f[2]));
        }
        assertEquals(new java.util.TreeSet<>(RecordedSettings.mergeTreeSettings().keySet()), listed.keySet());
        for (RecordedSettings.Row r : RecordedSettings.mergeTreeSettings().values()) {
            if (!r.name().equals("old_parts_lifetime")) {
                assertEquals(r.defaultValue(), listed.get(r.name()), r.name());
            }
        }
        assertEquals("480", listed.get("old_parts_lifetime"));
    }

    @Test
    void theLibraryEnginesRecordedDefaultsThatAreNotAServersStayOverridden() {
        assertEquals("1", RecordedSettings.settings().get("mutations_sync").defaultValue());
        assertEquals("0", RecordedSettings.mergeTreeSettings().get("old_parts_lifetime").defaultValue());
        // async_insert: a 26.2+ server's default is 1 (SettingsChangesHistory.cpp 26.2: {"async_insert", false, true}, and
        // Settings.cpp: DECLARE(Bool, async_insert, true), as the recorded row says; the stub deliberately keeps 0
        assertEquals("1", RecordedSettings.settings().get("async_insert").defaultValue());
        assertEquals("0", KnownSettings.get("async_insert").defaultValue());
    }
}
