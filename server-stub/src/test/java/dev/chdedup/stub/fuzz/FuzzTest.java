package dev.chdedup.stub.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing of the stub: random well-typed and ill-typed expressions, and mutated insert bodies in every
 * input format. Whatever arrives, the answer is a result or a ClickHouse error about the input, never an internal
 * error (LOGICAL_ERROR), the server keeps serving, and a rejected single-block insert writes nothing.
 */
class FuzzTest {
    private static final String[] LEAF = {"1", "-1", "0", "300", "-70000", "18446744073709551615", "0.5", "1e300", "'a'", "''",
        "'2024-01-01'", "'2024-01-01 10:00:00'", "NULL", "true", "k", "v", "d", "arr", "m", "tup", "dt", "dec", "e", "nv", "[1, 2]",
        "[]", "(1, 'x')", "{'a': 1}"};
    private static final String[] UNARY = {"toString", "toDate", "toDateTime", "toUInt8", "toInt64", "toFloat64", "length", "lower",
        "upper", "hex", "isNull", "toYYYYMM", "toStartOfMonth", "negate", "abs", "not", "toDecimal64(%s, 2)", "toDateTime64(%s, 3)",
        "assumeNotNull", "toTypeName", "count", "sum", "min", "max", "avg", "any", "uniqExact", "groupArray", "round", "empty",
        "toUUID", "toBool", "toHour", "CAST(%s AS String)", "CAST(%s AS Nullable(UInt8))", "%s::Int32", "tupleElement(%s, 1)",
        "arrayElement(%s, 1)", "mapKeys", "fromUnixTimestamp64Milli", "toUnixTimestamp", "substring(%s, -1)", "%s LIKE 'a%%'",
        "arrayMap(x -> x, %s)", "arrayFilter(x -> x, %s)", "arrayExists(x -> x = 1, %s)", "arrayMap(x -> concat(x, 'a'), %s)"};
    private static final String[] BINARY = {"plus", "minus", "multiply", "divide", "intDiv", "modulo", "equals", "less", "and",
        "or", "concat", "coalesce", "greatest", "argMax", "has", "pow", "%s || %s", "%s = %s", "%s IN (%s)", "if(k > 1, %s, %s)"};

    private static final String[] JOINS = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "INNER JOIN"};

    /** Bytes that mean something to one of the text formats. */
    private static final String SPECIALS = "\t,\n'\"[]{}()\\0a-9:N";

    private static StubServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        server = StubServer.builder().port(0).build().start();
        query("CREATE TABLE t (k UInt32, v String, d Date, arr Array(UInt8), m Map(String, UInt8), tup Tuple(UInt8, String),"
            + " dt DateTime, dec Decimal(10, 2), e Enum8('a' = 1, 'b' = 2), nv Nullable(String)) ENGINE = MergeTree ORDER BY k");
        query("INSERT INTO t VALUES (1, 'a', '2024-01-01', [1,2], {'a': 1}, (1, 'x'), '2024-01-01 00:00:00', 1.5, 'a', NULL),"
            + " (2, 'b', '2024-02-01', [], {}, (2, 'y'), 0, -2.25, 'b', 'z')");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<String> send(String url, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static String query(String sql) throws Exception {
        HttpResponse<String> r = send(server.httpUrl() + "/", sql.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), sql + " -> " + r.body());
        return r.body().trim();
    }

    private static String expr(Random r, int depth) {
        if (depth <= 0 || r.nextInt(3) == 0) {
            return LEAF[r.nextInt(LEAF.length)];
        }
        if (r.nextBoolean()) {
            String f = UNARY[r.nextInt(UNARY.length)];
            String a = expr(r, depth - 1);
            return f.contains("%s") ? String.format(f, a) : f + "(" + a + ")";
        }
        String f = BINARY[r.nextInt(BINARY.length)];
        String a = expr(r, depth - 1);
        String b = expr(r, depth - 1);
        return f.contains("%s") ? String.format(f, a, b) : f + "(" + a + ", " + b + ")";
    }

    private static void assertNotInternal(String what, HttpResponse<String> r) {
        assertFalse(r.body().contains("LOGICAL_ERROR") || r.body().contains("Unexpected error"), what + " -> " + r.body());
        if (r.statusCode() != 200) {
            assertTrue(r.body().matches("(?s)Code: \\d+\\. DB::Exception: .*\\([A-Z_]+\\).*"), what + " -> " + r.body());
        }
    }

    @Test
    void randomExpressionsNeverCauseAnInternalError() throws Exception {
        Random r = new Random(Long.getLong("fuzz.seed", 20261201));
        for (int i = 0; i < 1500; i++) {
            String q;
            switch (r.nextInt(5)) {
                case 0: q = "SELECT " + expr(r, 3) + " FROM t"; break;
                case 1: q = "SELECT " + expr(r, 2) + ", " + expr(r, 2) + " FROM t WHERE " + expr(r, 2) + " ORDER BY " + expr(r, 1) + " LIMIT 3"; break;
                case 2: q = "SELECT " + expr(r, 3) + " FROM t GROUP BY " + expr(r, 1); break;
                case 3: q = "SELECT " + expr(r, 2) + " FROM t AS a " + JOINS[r.nextInt(JOINS.length)] + " t AS b ON " + expr(r, 1)
                    + " = b.k LIMIT 5"; break;
                default: q = "SELECT " + expr(r, 3) + " FROM numbers(3)";
            }
            assertNotInternal(q, send(server.httpUrl() + "/", q.getBytes(StandardCharsets.UTF_8)));
        }
        assertEquals("1", query("SELECT 1"));
    }

    @Test
    void mutatedInsertBodiesWriteAllOrNothing() throws Exception {
        query("CREATE TABLE f (k UInt32, s String, d DateTime, a Array(Int8), n Nullable(Float64)) ENGINE = MergeTree ORDER BY k");
        List<String[]> bodies = new ArrayList<>();
        bodies.add(new String[] {"TabSeparated", "1\ta\t2024-01-01 00:00:00\t[1,2]\t1.5\n2\tb\t2024-01-02 00:00:00\t[]\t\\N\n"});
        bodies.add(new String[] {"CSV", "1,\"a\",\"2024-01-01 00:00:00\",\"[1,2]\",1.5\n2,\"b\",\"2024-01-02 00:00:00\",\"[]\",\\N\n"});
        bodies.add(new String[] {"JSONEachRow", "{\"k\":1,\"s\":\"a\",\"d\":\"2024-01-01 00:00:00\",\"a\":[1,2],\"n\":1.5}\n{\"k\":2,\"s\":\"b\",\"d\":\"2024-01-02 00:00:00\",\"a\":[],\"n\":null}\n"});
        bodies.add(new String[] {"Values", "(1, 'a', '2024-01-01 00:00:00', [1,2], 1.5), (2, 'b', '2024-01-02 00:00:00', [], NULL)"});
        Random r = new Random(Long.getLong("fuzz.seed", 7));
        for (int i = 0; i < 600; i++) {
            String[] b = bodies.get(r.nextInt(bodies.size()));
            byte[] data = b[1].getBytes(StandardCharsets.UTF_8);
            int mutations = 1 + r.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                int at = r.nextInt(data.length);
                switch (r.nextInt(3)) {
                    case 0: data[at] = (byte) r.nextInt(256); break;
                    case 1: data = java.util.Arrays.copyOf(data, at); break;
                    default: data[at] = (byte) SPECIALS.charAt(r.nextInt(SPECIALS.length()));
                }
                if (data.length == 0) {
                    break;
                }
            }
            long before = Long.parseLong(query("SELECT count() FROM f"));
            String url = server.httpUrl() + "/?query=" + URLEncoder.encode("INSERT INTO f FORMAT " + b[0], StandardCharsets.UTF_8);
            HttpResponse<String> resp = send(url, data);
            assertNotInternal(b[0] + " " + new String(data, StandardCharsets.ISO_8859_1), resp);
            long after = Long.parseLong(query("SELECT count() FROM f"));
            if (resp.statusCode() == 200) {
                String summary = resp.headers().firstValue("X-ClickHouse-Summary").orElse("");
                long written = Long.parseLong(summary.replaceAll(".*\"written_rows\":\"(\\d+)\".*", "$1"));
                assertEquals(before + written, after, "written_rows matches what landed");
            } else {
                assertEquals(before, after, "a rejected insert (one block) writes nothing: " + resp.body());
            }
        }
    }
}
