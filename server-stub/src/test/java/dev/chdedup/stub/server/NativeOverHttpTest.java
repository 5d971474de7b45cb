package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Native format through the HTTP interface: every query of {@code native/queries.sql} answers the bytes
 * ClickHouse 26.7 answered ({@code native/golden.tsv}, written by {@code tools/native_golden.py}), the stub's Native
 * output inserted back as Native gives the same rows, and a body cut short inserts nothing.
 */
class NativeOverHttpTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private static HttpResponse<byte[]> send(String query, byte[] body) throws Exception {
        String url = STUB.httpUrl() + "/" + (query == null ? "" : "?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    }

    private static byte[] post(String query, byte[] body) throws Exception {
        HttpResponse<byte[]> r = send(query, body);
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        return r.body();
    }

    private static String sql(String sql) throws Exception {
        return new String(post(null, sql.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    static List<String> lines(String resource) throws IOException {
        try (InputStream in = NativeOverHttpTest.class.getResourceAsStream(resource)) {
            return Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
    }

    /** How golden.tsv records an answer: hex, or a digest and length for a large one. */
    static String encode(byte[] body) throws Exception {
        if (body.length <= 4096) {
            return HEX.formatHex(body);
        }
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)) + ":" + body.length;
    }

    @Test
    void answersTheEnginesBytes() throws Exception {
        List<String> golden = new ArrayList<>();
        for (String l : lines("/native/golden.tsv")) {
            if (!l.isBlank() && !l.startsWith("#")) {
                golden.add(l);
            }
        }
        int g = 0;
        List<String> wrong = new ArrayList<>();
        for (String q : lines("/native/queries.sql")) {
            if (q.startsWith("> ")) {
                sql(q.substring(2));
                continue;
            }
            if (q.isBlank() || q.startsWith("#")) {
                continue;
            }
            String[] expected = golden.get(g++).split("\t", 2);
            assertEquals(q, expected[0], "queries.sql and golden.tsv are out of step: run tools/native_golden.py");
            String got = encode(post(null, (q + " FORMAT Native").getBytes(StandardCharsets.UTF_8)));
            String want = expected.length > 1 ? expected[1] : "";
            if (!got.equals(want)) {
                wrong.add(q + "\n  engine: " + want + "\n  stub:   " + got);
            }
        }
        assertEquals(golden.size(), g);
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        HttpResponse<byte[]> r = send("SELECT 1 AS x", new byte[0]);
        assertEquals(200, r.statusCode());
        HttpResponse<byte[]> viaDefault = HTTP.send(HttpRequest.newBuilder(URI.create(STUB.httpUrl() + "/?default_format=Native"))
            .POST(HttpRequest.BodyPublishers.ofString("SELECT toUInt8(1) a, 'x' b")).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals("020101610555496E743801016206537472696E670178", HEX.formatHex(viaDefault.body()));
        assertEquals("application/octet-stream", viaDefault.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void nativeOutputInsertsBackAsTheSameRows() throws Exception {
        String columns = "k UInt32, lc LowCardinality(String), lcn LowCardinality(Nullable(String)), arr Array(Nullable(String)), "
            + "nest Array(Array(UInt16)), tup Tuple(a Int32, b Nullable(String)), m Map(String, Array(UInt8)), fs FixedString(3), "
            + "e Enum8('one' = 1, 'two' = 2), dt DateTime('Europe/Berlin'), d64 DateTime64(3, 'UTC'), dec Decimal(20, 4), "
            + "u UUID, ip4 IPv4, ip6 IPv6, big Int256, f Float32, b Bool, d32 Date32";
        sql("CREATE TABLE native_src (" + columns + ") ENGINE = MergeTree ORDER BY k");
        sql("CREATE TABLE native_dst (" + columns + ") ENGINE = MergeTree ORDER BY k");
        sql("INSERT INTO native_src VALUES (3, 'b', NULL, ['x', NULL], [[1, 2], []], (-1, NULL), {'k': [1]}, 'abc', 'two', "
            + "'2024-06-01 12:00:00', '2024-06-01 12:00:00.123', 12.3456, '01234567-89ab-cdef-0123-456789abcdef', '1.2.3.4', "
            + "'2001:db8::1', -5, 1.5, true, '1900-01-01'), (1, '', 'n', [], [], (5, 's'), {}, 'x', 'one', '2024-01-01 00:00:00', "
            + "'1970-01-01 00:00:00.000', -1, '00000000-0000-0000-0000-000000000000', '0.0.0.0', '::', 0, -0.25, false, '2299-12-31')");
        byte[] out = post(null, "SELECT * FROM native_src ORDER BY k FORMAT Native".getBytes(StandardCharsets.UTF_8));
        post("INSERT INTO native_dst FORMAT Native", out);
        String src = sql("SELECT * FROM native_src ORDER BY k FORMAT TSV");
        assertEquals(src, sql("SELECT * FROM native_dst ORDER BY k FORMAT TSV"));
        assertEquals(2, src.split("\n").length);
        // the columns by name: a subset in another order, the rest from their defaults
        byte[] part = post(null, "SELECT lc, k FROM native_src ORDER BY k FORMAT Native".getBytes(StandardCharsets.UTF_8));
        sql("CREATE TABLE native_part (k UInt64, lc String, extra String DEFAULT 'dflt') ENGINE = MergeTree ORDER BY k");
        post("INSERT INTO native_part FORMAT Native", part);
        assertEquals("1\t\tdflt\n3\tb\tdflt\n", sql("SELECT * FROM native_part ORDER BY k FORMAT TSV"));
    }

    @Test
    void aBodyCutShortInsertsNothing() throws Exception {
        sql("CREATE TABLE native_cut (k UInt64, s String) ENGINE = MergeTree ORDER BY k");
        byte[] out = post(null, "SELECT number AS k, toString(number) AS s FROM numbers(1000) FORMAT Native".getBytes(StandardCharsets.UTF_8));
        HttpResponse<byte[]> r = send("INSERT INTO native_cut FORMAT Native", Arrays.copyOf(out, out.length - 3));
        String body = new String(r.body(), StandardCharsets.UTF_8);
        assertEquals(500, r.statusCode(), body);
        assertTrue(body.startsWith("Code: 33. DB::Exception: Cannot read all data"), body);
        assertTrue(body.contains("(CANNOT_READ_ALL_DATA)"), body);
        assertEquals("0\n", sql("SELECT count() FROM native_cut"));
        HttpResponse<byte[]> unknown = send("INSERT INTO native_cut FORMAT Native",
            HexFormat.of().parseHex("0101016B03466F6F01"));
        assertTrue(new String(unknown.body(), StandardCharsets.UTF_8).startsWith("Code: 50. DB::Exception: Unknown data type family: Foo"));
        assertEquals("0\n", sql("SELECT count() FROM native_cut"));
    }

    /**
     * Each block of a Native body is one block of the insert, whatever max_insert_block_size says, and small blocks are
     * squashed as any insert's; part sizes as ClickHouse 26.7 made them for the same bodies (a block of 3 rows, then
     * one of 3 and one of 2): [3] and [3, 2] with max_insert_block_size = 1 and no squashing, [3, 3] and [3, 2, 5]
     * after a second insert with the defaults. The stub used to split a Native block into one-row parts.
     */
    @Test
    void aNativeBlockIsOneBlockOfTheInsert() throws Exception {
        byte[] three = post("SELECT number AS k FROM numbers(3) FORMAT Native", new byte[0]);
        byte[] two = post("SELECT number AS k FROM numbers(2) FORMAT Native", new byte[0]);
        byte[] threeThenTwo = new byte[three.length + two.length];
        System.arraycopy(three, 0, threeThenTwo, 0, three.length);
        System.arraycopy(two, 0, threeThenTwo, three.length, two.length);
        String[][] cases = {{"native_blocks_a", "[3]", "[3,3]"}, {"native_blocks_b", "[3,2]", "[3,2,5]"}};
        for (String[] c : cases) {
            byte[] body = c[0].endsWith("a") ? three : threeThenTwo;
            sql("CREATE TABLE " + c[0] + " (k UInt64) ENGINE = MergeTree ORDER BY k");
            String insert = STUB.httpUrl() + "/?query=" + URLEncoder.encode("INSERT INTO " + c[0] + " FORMAT Native", StandardCharsets.UTF_8);
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(insert
                    + "&max_insert_block_size=1&min_insert_block_size_rows=0&min_insert_block_size_bytes=0"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            String parts = "SELECT groupArray(rows) FROM (SELECT rows FROM system.parts WHERE database = currentDatabase() AND table = '"
                + c[0] + "' AND active ORDER BY min_block_number)";
            assertEquals(c[1] + "\n", sql(parts), c[0]);
            post("INSERT INTO " + c[0] + " FORMAT Native", body);
            assertEquals(c[2] + "\n", sql(parts), c[0] + " with the defaults");
        }
    }
}
