package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * JSON in RowBinary byte for byte as ClickHouse 26.7 writes and reads it: the number of paths, the typed paths (their
 * values in their own types) and then the other paths (each value with its binary type encoding, arrays of objects
 * as Array(JSON(max_dynamic_types=16, max_dynamic_paths=256))), the JSON type's own binary encoding in a
 * RowBinaryWithNamesAndTypes header, and with output_format_binary_write_json_as_string /
 * input_format_binary_read_json_as_string the object as a String of its text. The cases have at most one path that
 * is not typed: the engine writes several in the order of its hash table, which the stub does not reproduce.
 */
class JsonRowBinaryTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** {query, the engine's response in hex}, taken from the engine through the oracle (shared/oracle). */
    private static final String[][] OUTPUT = {
            {"SELECT '{\"z\":1,\"b\":\"s\",\"a\":{\"c\":true}}'::JSON(y UInt8, x Nullable(String)) AS j FORMAT RowBinary",
                "0501780101790003612e632d010162150173017a0a0100000000000000"},
            {"SELECT '{\"a\":{\"b\":1}}'::JSON(max_dynamic_paths=3, b.c String, SKIP d, SKIP REGEXP 'e') AS j FORMAT RowBinaryWithNamesAndTypes SETTINGS output_format_binary_encode_types_in_binary_format = 1",
                "01016a300003200103622e63150101640101650203622e630003612e620a0100000000000000"},
            {"SELECT '{\"a\":[{\"x\":1}]}'::JSON AS j FORMAT RowBinaryWithNamesAndTypes SETTINGS output_format_binary_encode_types_in_binary_format = 1",
                "01016a30008008200000000101611e3000800210000000010101780a0100000000000000"},
            {"SELECT '{\"b\":[[{\"y\":\"q\"}]]}'::JSON AS j FORMAT RowBinary",
                "0101621e1e30008002100000000101010179150171"},
            {"SELECT '{\"c\":[1,2.5]}'::JSON AS j, '{\"g\":[\"a\",null]}'::JSON AS k, '{\"f\":[true,false]}'::JSON AS l FORMAT RowBinary",
                "0101631e230e0200000000000000f03f0000000000000004400101671e231502000161010101661e232d0200010000"},
            {"SELECT '{\"a\":18446744073709551615}'::JSON AS j, '{\"b\":-9223372036854775808}'::JSON AS k, '{\"e\":1e300}'::JSON AS l, '{\"c\":\"\\u00e9\"}'::JSON AS m FORMAT RowBinary",
                "01016104ffffffffffffffff0101620a00000000000000800101650e9c7500883ce4377e0101631502c3a9"},
            {"SELECT '{}'::JSON AS j, '{\"d\":null}'::JSON AS k, '{\"e\":[]}'::JSON AS l FORMAT RowBinaryWithNamesAndTypes",
                "03016a016b016c044a534f4e044a534f4e044a534f4e00000101651e231500"},
            {"SELECT '{\"a\":{\"b\":1}}'::JSON AS j FORMAT RowBinary SETTINGS output_format_binary_write_json_as_string = 1, output_format_json_quote_64bit_integers = 0",
                "0d7b2261223a7b2262223a317d7d"},
            {"SELECT '{\"a\":{\"b\":1},\"c\":[{\"d\":\"x\"}]}'::JSON(t UInt8) AS j, [j] AS a FORMAT RowBinaryWithNamesAndTypes SETTINGS output_format_binary_write_json_as_string = 1, output_format_json_quote_64bit_integers = 1",
                "02016a01610d4a534f4e28742055496e743829144172726179284a534f4e28742055496e74382929257b2261223a7b2262223a2231227d2c2263223a5b7b2264223a2278227d5d2c2274223a307d01257b2261223a7b2262223a2231227d2c2263223a5b7b2264223a2278227d5d2c2274223a307d"},
            {"SELECT ['{\"a\":1}'::JSON, '{\"b\":\"x\"}'::JSON] AS x FORMAT RowBinaryWithNamesAndTypes",
                "0101780b4172726179284a534f4e29020101610a0100000000000000010162150178"},
            {"SELECT CAST('{\"a\":[{\"x\":1}]}'::JSON, 'Dynamic') AS d FORMAT RowBinary",
                "30008008200000000101611e3000800210000000010101780a0100000000000000"},
            {"SELECT [CAST(1, 'Variant(UInt8, String)'), 1.5] AS x FORMAT RowBinaryWithNamesAndTypes",
                "0101782641727261792856617269616e7428466c6f617436342c20537472696e672c2055496e7438292902020100000000000000f83f"}
    };

    /**
     * {RowBinary body in hex, its settings, the row as the engine reads it into {@code j JSON(t UInt8)}}, the engine's
     * answers from {@code SELECT j FROM format(RowBinary, 'j JSON(t UInt8)', '...')}, 64-bit integers unquoted as by default.
     */
    private static final String[][] INPUT = {
        {"0301740703612e620a050000000000000001631e150201780179", "", "{\"a\":{\"b\":5},\"c\":[\"x\",\"y\"],\"t\":7}"},
        {"01016f1e30008002100000000101016b2d01", "", "{\"o\":[{\"k\":true}],\"t\":0}"},
        {"1b7b2261223a7b2262223a317d2c2274223a392c2273223a2278227d", "input_format_binary_read_json_as_string=1",
            "{\"a\":{\"b\":1},\"s\":\"x\",\"t\":9}"},
    };

    @Test
    void writesJsonAsTheEngineDoes() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            List<String> wrong = new ArrayList<>();
            for (String[] c : OUTPUT) {
                String got = HexFormat.of().formatHex(post(s, "", c[0].getBytes(StandardCharsets.UTF_8)));
                if (!got.equals(c[1])) {
                    wrong.add(c[0] + "\n    engine: " + c[1] + "\n    stub:   " + got);
                }
            }
            assertEquals("", String.join("\n", wrong));
        }
    }

    @Test
    void readsJsonAsTheEngineDoes() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            for (String[] c : INPUT) {
                post(s, "", "DROP TABLE IF EXISTS rbj".getBytes(StandardCharsets.UTF_8));
                post(s, "", "CREATE TABLE rbj (j JSON(t UInt8)) ENGINE = Memory".getBytes(StandardCharsets.UTF_8));
                String params = "query=" + URLEncoder.encode("INSERT INTO rbj FORMAT RowBinary", StandardCharsets.UTF_8)
                    + (c[1].isEmpty() ? "" : "&" + c[1]);
                assertEquals("", EngineAnswers.asRecorded(post(s, params, HexFormat.of().parseHex(c[0]))), c[0]);
                assertEquals(c[2], EngineAnswers.answer(s, "SELECT j FROM rbj"), c[0]);
            }
        }
    }

    @Test
    void theJsonAsStringSettingsExistWithTheEnginesDefaults() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            // the engine: 0 for both
            assertEquals("output_format_binary_write_json_as_string\t0\ninput_format_binary_read_json_as_string\t0",
                EngineAnswers.answer(s, "SELECT name, value FROM system.settings WHERE name IN ('output_format_binary_write_json_as_string',"
                    + " 'input_format_binary_read_json_as_string') ORDER BY name DESC"));
        }
    }

    private static byte[] post(StubServer s, String params, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?" + params)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofByteArray()).body();
    }
}
