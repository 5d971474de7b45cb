package dev.chdedup.stub.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.exec.KnownSettings;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.mergetree.MergeTreeSettings;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The defaults ClickHouse changed since the releases the stub plays: {@code compatibility} gives a query the values
 * before the changes after the release it names, and a server playing 18.16 or 22.1 keeps that release's defaults
 * (its query settings, its MergeTree settings, what its system tables show, what its replicated tables use).
 */
class SettingsChangesHistoryTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> post(StubServer s, String params, String sql, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?" + params)).POST(HttpRequest.BodyPublishers.ofString(sql));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String query(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = post(s, "", sql);
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    @Test
    void everyChangesNewValueIsTheStubsDefault() {
        for (SettingsChangesHistory.Change c : SettingsChangesHistory.settings()) {
            assertEquals(c.newValue(), KnownSettings.get(c.name()).defaultValue(), c.name());
        }
        for (SettingsChangesHistory.Change c : SettingsChangesHistory.mergeTreeSettings()) {
            assertEquals(c.newValue(), MergeTreeSettings.all().get(c.name()).defaultValue(), c.name());
        }
    }

    @Test
    void compatibilityGivesTheValuesBeforeTheLaterChanges() {
        assertEquals("0", SettingsChangesHistory.settingUnder("enable_http_compression", "25.9"));
        assertNull(SettingsChangesHistory.settingUnder("enable_http_compression", "25.10"), "changed in 25.10: 25.10 has the new value");
        assertNull(SettingsChangesHistory.settingUnder("enable_http_compression", ""));
        assertEquals("basic", SettingsChangesHistory.settingUnder("date_time_input_format", "18.16.1"));
        assertEquals("1000", SettingsChangesHistory.mergeTreeSettingUnder("replicated_deduplication_window", "25.8"));
        assertNull(SettingsChangesHistory.mergeTreeSettingUnder("replicated_deduplication_window", null));

        Settings older = Settings.DEFAULTS.with(Map.of("compatibility", "25.9"));
        assertEquals("0", older.get("enable_http_compression"));
        assertEquals("basic", older.get("date_time_input_format"));
        assertEquals("0", older.get("output_format_json_quote_64bit_integers"), "changed in 25.8");
        assertEquals("1", Settings.DEFAULTS.with(Map.of("compatibility", "25.7")).get("output_format_json_quote_64bit_integers"));
        assertEquals("1", older.with(Map.of("enable_http_compression", "1")).get("enable_http_compression"), "a changed setting keeps its value");
        assertEquals("best_effort", Settings.DEFAULTS.with(Map.of("compatibility", "26.5")).get("date_time_input_format"));
        assertEquals("1048449", older.get("max_insert_block_size"), "a change the engine's history does not record is not undone");
    }

    @Test
    void theEmulatedReleasesKeepTheirDefaults() throws Exception {
        for (String release : new String[] {"18.16", "22.1"}) {
            try (StubServer s = StubServer.builder().port(0).emulate(release).build().start()) {
                assertEquals("date_time_input_format\tbasic\tbasic\t0\nenable_http_compression\t0\t0\t0\n"
                    + "max_insert_block_size\t1048576\t1048576\t0\nmin_insert_block_size_bytes\t268435456\t268435456\t0\n"
                    + "min_insert_block_size_rows\t1048576\t1048576\t0\noutput_format_json_quote_64bit_integers\t1\t1\t0\n",
                    query(s, "SELECT name, value, default, changed FROM system.settings WHERE name IN ('max_insert_block_size',"
                        + " 'min_insert_block_size_rows', 'min_insert_block_size_bytes', 'enable_http_compression', 'date_time_input_format',"
                        + " 'output_format_json_quote_64bit_integers') ORDER BY name"), release);
                assertEquals("replicated_deduplication_window\t1000\t1000\nreplicated_deduplication_window_seconds\t604800\t604800\n",
                    query(s, "SELECT name, value, default FROM system.merge_tree_settings WHERE name LIKE 'replicated_deduplication_window%'"
                        + " AND name NOT LIKE '%async%' ORDER BY name"), release);

                HttpResponse<String> plain = post(s, "", "SELECT 1", "Accept-Encoding", "gzip");
                assertTrue(plain.headers().firstValue("Content-Encoding").isEmpty(), release + " compresses only when asked");
                query(s, "CREATE TABLE dt (t DateTime) ENGINE = MergeTree ORDER BY t");
                HttpResponse<String> iso = post(s, "query=" + URLEncoder.encode("INSERT INTO dt FORMAT TSV", StandardCharsets.UTF_8),
                    "2024-01-02T03:04:05+01:00\n");
                assertTrue(iso.statusCode() >= 400, release + " reads DateTime text the basic way: " + iso.body());

                query(s, "CREATE TABLE r (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/r', 'r1') ORDER BY k");
                query(s, "CREATE TABLE w (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/w', 'r1') ORDER BY k"
                    + " SETTINGS replicated_deduplication_window = 7");
                assertEquals(1000, s.components().catalog().mergeTree("default", "r").setting("replicated_deduplication_window"), release);
                assertEquals(604800, s.components().catalog().mergeTree("default", "r").setting("replicated_deduplication_window_seconds"));
                assertEquals(7, s.components().catalog().mergeTree("default", "w").setting("replicated_deduplication_window"));
            }
        }
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            query(s, "CREATE TABLE r (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/r', 'r1') ORDER BY k");
            assertEquals(10000, s.components().catalog().mergeTree("default", "r").setting("replicated_deduplication_window"));
            assertEquals(3600, s.components().catalog().mergeTree("default", "r").setting("replicated_deduplication_window_seconds"));
            query(s, "CREATE TABLE dt (t DateTime) ENGINE = MergeTree ORDER BY t");
            HttpResponse<String> iso = post(s, "query=" + URLEncoder.encode("INSERT INTO dt FORMAT TSV", StandardCharsets.UTF_8),
                "2024-01-02T03:04:05+01:00\n");
            assertEquals(200, iso.statusCode(), iso.body());
            assertEquals("1704161045\n", query(s, "SELECT toUnixTimestamp(t) FROM dt"));
        }
    }
}
