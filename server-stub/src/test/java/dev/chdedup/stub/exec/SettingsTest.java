package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Setting values are checked when given, with ClickHouse's codes: in the settings layer itself, and over HTTP in URL
 * parameters, SET, INSERT ... SETTINGS and SELECT ... SETTINGS, where a refused value writes nothing.
 */
class SettingsTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static ErrorCode refused(String name, String value) {
        return assertThrows(ChException.class, () -> Settings.DEFAULTS.with(Map.of(name, value)), name + "=" + value).code();
    }

    @Test
    void badValuesAreRefusedWithClickHouseCodes() {
        assertEquals(ErrorCode.CANNOT_PARSE_BOOL, refused("insert_deduplicate", "maybe"));
        assertEquals(ErrorCode.CANNOT_PARSE_BOOL, refused("insert_deduplicate", "2"));
        assertEquals(ErrorCode.CANNOT_PARSE_BOOL, refused("async_insert", ""));
        assertEquals(ErrorCode.CANNOT_PARSE_NUMBER, refused("max_threads", "-5"));
        assertEquals(ErrorCode.CANNOT_PARSE_NUMBER, refused("max_block_size", "-1"));
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, refused("max_block_size", "12abc"));
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, refused("max_block_size", "10MB"));
        assertEquals(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, refused("max_threads", "many"));
        assertEquals(ErrorCode.CANNOT_PARSE_NUMBER, refused("max_insert_block_size", "99999999999999999999999"));
        assertEquals(ErrorCode.ARGUMENT_OUT_OF_BOUND, refused("max_query_size", "0"));
        assertEquals(ErrorCode.BAD_ARGUMENTS, refused("max_block_size", "0")); // NonZeroUInt64 in ClickHouse 26.7
        assertEquals(ErrorCode.SIZE_OF_FIXED_STRING_DOESNT_MATCH, refused("format_csv_delimiter", ";;"));
        assertEquals(ErrorCode.UNKNOWN_SETTING, refused("no_such_setting", "1"));
    }

    @Test
    void goodValuesAreAcceptedAsClickHouseAcceptsThem() {
        for (String v : List.of("0", "1", "true", "FALSE", "True")) {
            Settings.DEFAULTS.with(Map.of("insert_deduplicate", v));
        }
        assertEquals(false, Settings.DEFAULTS.with(Map.of("insert_deduplicate", "False")).getBool("insert_deduplicate"));
        assertEquals(true, Settings.DEFAULTS.with(Map.of("async_insert", "TRUE")).getBool("async_insert"));
        assertEquals(10_000, Settings.DEFAULTS.with(Map.of("max_block_size", "10k")).getLong("max_block_size"));
        assertEquals(2 << 20, Settings.DEFAULTS.with(Map.of("max_insert_block_size", "2Mi")).getLong("max_insert_block_size"));
        assertEquals(0, Settings.DEFAULTS.with(Map.of("max_threads", "auto")).getLong("max_threads"));
        assertEquals(4, Settings.DEFAULTS.with(Map.of("max_threads", "auto(4)")).getLong("max_threads"));
        assertEquals(-3, Settings.DEFAULTS.with(Map.of("http_zlib_compression_level", "-3")).getLong("http_zlib_compression_level"));
        Settings.DEFAULTS.with(Map.of("max_execution_time", "1.5", "format_csv_delimiter", ";"));
    }

    private static HttpResponse<String> post(StubServer s, String params, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?" + params)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void everyWayOfGivingASettingRefusesBadValuesAndWritesNothing() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals(200, post(s, "", "CREATE TABLE t (k Int32) ENGINE = MergeTree ORDER BY k").statusCode());
            String[][] cases = {
                {"insert_deduplicate=maybe", "INSERT INTO t VALUES (1)", "CANNOT_PARSE_BOOL"},
                {"max_threads=-5", "INSERT INTO t VALUES (1)", "CANNOT_PARSE_NUMBER"},
                {"max_query_size=0", "INSERT INTO t VALUES (1)", "ARGUMENT_OUT_OF_BOUND"},
                {"query=" + enc("INSERT INTO t SETTINGS insert_deduplicate='maybe' VALUES"), "(1)", "CANNOT_PARSE_BOOL"},
                {"query=" + enc("INSERT INTO t SETTINGS max_threads=-5 FORMAT TSV"), "1\n", "CANNOT_PARSE_NUMBER"},
                {"", "INSERT INTO t SETTINGS max_query_size = 0 VALUES (1)", "ARGUMENT_OUT_OF_BOUND"},
                {"", "INSERT INTO t SELECT 1 SETTINGS insert_deduplicate = 'maybe'", "CANNOT_PARSE_BOOL"},
                {"", "SELECT 1 SETTINGS max_threads = -5", "CANNOT_PARSE_NUMBER"},
                {"", "SET insert_deduplicate = 'maybe'", "CANNOT_PARSE_BOOL"},
            };
            for (String[] c : cases) {
                HttpResponse<String> r = post(s, c[0], c[1]);
                assertTrue(r.statusCode() >= 400, c[0] + " " + c[1] + " -> " + r.statusCode() + " " + r.body());
                assertTrue(r.body().contains("(" + c[2] + ")"), c[0] + " " + c[1] + " -> " + r.body());
            }
            // a session keeps nothing of a refused SET
            assertTrue(post(s, "session_id=s1", "SET insert_deduplicate = 'maybe'").body().contains("(CANNOT_PARSE_BOOL)"));
            assertEquals(200, post(s, "session_id=s1", "INSERT INTO t VALUES (1)").statusCode());
            assertEquals("1\n", post(s, "", "SELECT count() FROM t").body(), "only the good insert wrote");
            assertEquals(200, post(s, "insert_deduplicate=TRUE", "INSERT INTO t VALUES (2)").statusCode());
        }
    }
}
