package dev.chdedup.stub.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubServerExtension;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Native bytes, live against the real engine: random tables of a few columns (of the types the stub's Native
 * writes) get the same random rows on the stub and on ClickHouse 26.7 (chDB), and {@code SELECT * FORMAT Native}
 * must give the same bytes; the stub's bytes inserted into the engine as Native (through a file, as the oracle takes
 * only text) must give the engine's rows. Bounded by {@code native.differential.scenarios} (default 30) and skipped
 * when chDB is not installed.
 */
class NativeDifferentialTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String[] TYPES = {"UInt8", "Int64", "String", "Nullable(Int32)", "Array(Nullable(String))",
        "LowCardinality(String)", "LowCardinality(Nullable(String))", "Map(String, UInt16)", "Tuple(a UInt8, b String)",
        "Decimal(18, 4)", "DateTime('UTC')", "Date", "UUID", "Float64", "Enum8('x' = 1, 'y' = 2)", "Array(Array(UInt8))",
        "FixedString(2)", "Int128", "IPv4", "Array(LowCardinality(String))"};

    private static String literal(String type, Random r) {
        switch (type) {
            case "UInt8": return Integer.toString(r.nextInt(256));
            case "Int64": return Long.toString(r.nextLong());
            case "Int128": return Long.toString(r.nextLong()) + (r.nextBoolean() ? "0000" : "");
            case "String": case "LowCardinality(String)": return "'" + word(r) + "'";
            case "Nullable(Int32)": return r.nextInt(3) == 0 ? "NULL" : Integer.toString(r.nextInt());
            case "LowCardinality(Nullable(String))": return r.nextInt(3) == 0 ? "NULL" : "'" + word(r) + "'";
            case "Array(Nullable(String))": case "Array(LowCardinality(String))": {
                List<String> e = new ArrayList<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    e.add(type.contains("Nullable") && r.nextBoolean() ? "NULL" : "'" + word(r) + "'");
                }
                return "[" + String.join(", ", e) + "]";
            }
            case "Map(String, UInt16)": return r.nextBoolean() ? "{}" : "{'" + word(r) + "': " + r.nextInt(65536) + "}";
            case "Tuple(a UInt8, b String)": return "(" + r.nextInt(256) + ", '" + word(r) + "')";
            case "Decimal(18, 4)": return (r.nextInt(2_000_000) - 1_000_000) + "." + r.nextInt(10);
            case "DateTime('UTC')": return "'20" + (10 + r.nextInt(20)) + "-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(9) + " 0" + r.nextInt(10) + ":00:00'";
            case "Date": return "'2024-0" + (1 + r.nextInt(9)) + "-2" + r.nextInt(9) + "'";
            case "UUID": return "'" + new UUID(r.nextLong(), r.nextLong()) + "'";
            case "Float64": return Double.toString(r.nextInt(100_000) / 64.0);
            case "Enum8('x' = 1, 'y' = 2)": return r.nextBoolean() ? "'x'" : "'y'";
            case "Array(Array(UInt8))": return r.nextBoolean() ? "[]" : "[[" + r.nextInt(256) + "], [], [1, 2]]";
            case "FixedString(2)": return "'" + (char) ('a' + r.nextInt(26)) + "'";
            case "IPv4": return "'" + r.nextInt(256) + ".0.0." + r.nextInt(256) + "'";
            default: throw new IllegalArgumentException(type);
        }
    }

    private static String word(Random r) {
        String[] w = {"", "a", "b", "x y", "tab\\there", "it\\'s", "\\xFF"};
        return w[r.nextInt(w.length)];
    }

    private static byte[] stub(String sql, byte[] body) throws IOException, InterruptedException {
        String url = STUB.httpUrl() + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8);
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), sql + ": " + new String(r.body(), StandardCharsets.UTF_8));
        return r.body();
    }

    private static String engine(EngineOracle oracle, String sql) throws IOException {
        EngineOracle.Answer a = oracle.query(sql, Map.of(), null);
        assertTrue(a.ok(), sql + ": " + a.error());
        return a.output();
    }

    @Test
    void randomTablesGiveTheEnginesNativeBytesBothWays() throws Exception {
        EngineOracle oracle;
        try {
            oracle = EngineOracle.start();
        } catch (EngineOracle.Unavailable e) {
            org.junit.jupiter.api.Assumptions.abort(e.getMessage());
            return;
        }
        Path dir = Files.createTempDirectory("native-diff");
        Path file = dir.resolve("t.native");
        List<String> failures = new ArrayList<>();
        long seed = Long.getLong("native.differential.seed", 20261202L);
        try (oracle) {
            for (int run = 0; run < Integer.getInteger("native.differential.scenarios", 30); run++) {
                Random r = new Random(seed + run);
                List<String> types = new ArrayList<>();
                StringBuilder columns = new StringBuilder("k UInt32");
                for (int c = 0; c < 3; c++) {
                    types.add(TYPES[r.nextInt(TYPES.length)]);
                    columns.append(", c").append(c).append(' ').append(types.get(c));
                }
                StringBuilder values = new StringBuilder();
                for (int row = 0, n = 1 + r.nextInt(6); row < n; row++) {
                    values.append(row == 0 ? "" : ", ").append('(').append(row);
                    for (String t : types) {
                        values.append(", ").append(literal(t, r));
                    }
                    values.append(')');
                }
                String table = "nd" + run;
                for (String ddl : new String[] {"CREATE TABLE " + table + " (" + columns + ") ENGINE = MergeTree ORDER BY k",
                    "INSERT INTO " + table + " VALUES " + values}) {
                    stub(ddl, new byte[0]);
                    engine(oracle, ddl);
                }
                String select = "SELECT * FROM " + table + " ORDER BY k";
                byte[] ours = stub(select + " FORMAT Native", new byte[0]);
                engine(oracle, "INSERT INTO FUNCTION file('" + file + "', 'Native') " + select + " SETTINGS engine_file_truncate_on_insert = 1");
                String theirs = engine(oracle, "SELECT hex(raw_blob) FROM file('" + file + "', 'RawBLOB')").strip();
                if (!HexFormat.of().withUpperCase().formatHex(ours).equals(theirs)) {
                    failures.add("seed " + (seed + run) + " (" + columns + ") VALUES " + values + "\n  engine: " + theirs
                        + "\n  stub:   " + HexFormat.of().withUpperCase().formatHex(ours));
                    continue;
                }
                Files.write(file, ours);
                String copy = table + "_copy";
                engine(oracle, "CREATE TABLE " + copy + " AS " + table);
                engine(oracle, "INSERT INTO " + copy + " FROM INFILE '" + file + "' FORMAT Native");
                stub("CREATE TABLE " + copy + " AS " + table, new byte[0]);
                stub("INSERT INTO " + copy + " FORMAT Native", ours);
                String want = engine(oracle, select + " FORMAT TSV");
                if (!want.equals(engine(oracle, "SELECT * FROM " + copy + " ORDER BY k FORMAT TSV"))
                    || !want.equals(new String(stub("SELECT * FROM " + copy + " ORDER BY k FORMAT TSV", new byte[0]), StandardCharsets.UTF_8))) {
                    failures.add("seed " + (seed + run) + ": the stub's Native bytes insert other rows (" + columns + ")");
                }
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }
}
