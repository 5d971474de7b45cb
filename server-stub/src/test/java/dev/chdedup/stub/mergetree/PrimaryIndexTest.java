package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import dev.chdedup.stub.types.BinaryOut;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The primary index: a part has ClickHouse's {@code primary.idx} and, when Wide, a {@code <column>.mrk2} per column
 * (the bytes ClickHouse 26.7 wrote for the same table and rows, with {@code compress_marks = 0} and
 * {@code compress_primary_key = 0}); a WHERE on the key's first column reads only the granules that may hold its rows
 * (the same granules the engine's {@code EXPLAIN indexes = 1} reports); and the index never changes an answer: random
 * conditions over random tables answer as the same condition the index cannot read.
 */
class PrimaryIndexTest {
    private static final Pattern READ_ROWS = Pattern.compile("\"read_rows\":\"(\\d+)\"");
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> send(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), sql + ": " + r.body());
        return r;
    }

    private String query(StubServer s, String sql) throws Exception {
        return send(s, sql).body();
    }

    /** The rows the query read, from its X-ClickHouse-Summary. */
    private long readRows(StubServer s, String sql) throws Exception {
        Matcher m = READ_ROWS.matcher(send(s, sql).headers().firstValue("X-ClickHouse-Summary").orElseThrow());
        assertTrue(m.find());
        return Long.parseLong(m.group(1));
    }

    private static byte[] longs(long... values) {
        BinaryOut out = new BinaryOut(values.length * 8);
        for (long v : values) {
            out.writeLongLE(v, 8);
        }
        return out.toByteArray();
    }

    @Test
    void aPartHasClickHousesPrimaryIndexAndMarks(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            String settings = " ENGINE = MergeTree ORDER BY k SETTINGS index_granularity = 100, min_bytes_for_wide_part = 0";
            query(s, "CREATE TABLE t (k UInt64, s String)" + settings);
            query(s, "CREATE TABLE u (k UInt64, s String)" + settings);
            query(s, "INSERT INTO t SELECT number, toString(number) FROM numbers(1000)"); // rows
            StringBuilder tsv = new StringBuilder();
            for (int i = 999; i >= 0; i--) {
                tsv.append(i).append('\t').append(i).append('\n');
            }
            http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?query=INSERT%20INTO%20u%20FORMAT%20TabSeparated"))
                .POST(HttpRequest.BodyPublishers.ofString(tsv.toString())).build(), HttpResponse.BodyHandlers.ofString()); // columns, sorted
            long[] idx = {0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 999};
            long[] marks = new long[33];
            for (int m = 0; m < 11; m++) {
                marks[3 * m + 1] = 800L * m;
                marks[3 * m + 2] = m < 10 ? 100 : 0;
            }
            for (String table : List.of("t", "u")) {
                Path part = data.resolve("data/default/" + table + "/all_1_1_0");
                // what ClickHouse 26.7 wrote for this table and these rows
                assertArrayEquals(longs(idx), Files.readAllBytes(part.resolve("primary.idx")), table);
                assertArrayEquals(longs(marks), Files.readAllBytes(part.resolve("k.mrk2")), table);
                byte[] sMarks = Files.readAllBytes(part.resolve("s.mrk2"));
                assertEquals(33 * 8, sMarks.length);
                String checksums = Files.readString(part.resolve("checksums.txt"));
                assertTrue(checksums.contains("primary.idx\n") && checksums.contains("k.mrk2\n") && checksums.contains("s.mrk2\n"), checksums);
            }
            // a small part is Compact, one granule: its first and last key
            query(s, "CREATE TABLE c (k Int32, s String) ENGINE = MergeTree ORDER BY (k, s) SETTINGS index_granularity = 2");
            query(s, "INSERT INTO c VALUES (5, 'x'), (-3, 'b'), (7, 'a')");
            BinaryOut expected = new BinaryOut(32);
            expected.writeLongLE(-3, 4);
            expected.write(new byte[] {1, 'b'}, 0, 2);
            expected.writeLongLE(7, 4);
            expected.write(new byte[] {1, 'a'}, 0, 2);
            assertArrayEquals(expected.toByteArray(), Files.readAllBytes(data.resolve("data/default/c/all_1_1_0/primary.idx")));
            // a merge indexes the part it writes
            query(s, "INSERT INTO t SELECT number + 1000, 'x' FROM numbers(50)");
            query(s, "OPTIMIZE TABLE t FINAL");
            byte[] merged = Files.readAllBytes(data.resolve("data/default/t/all_1_2_1/primary.idx"));
            assertArrayEquals(longs(0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1049), merged);
        }
    }

    @Test
    void aConditionOnTheKeyReadsOnlyTheGranulesThatMayHoldItsRows(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, s String) ENGINE = MergeTree ORDER BY k SETTINGS index_granularity = 100, min_bytes_for_wide_part = 0");
            query(s, "INSERT INTO t SELECT number, toString(number) FROM numbers(1000)");
            assertEquals(1000, readRows(s, "SELECT count() FROM t WHERE s = '5'"));
            // granules [200, 300] and [300, 400]: the engine's EXPLAIN says Granules: 2/10
            assertEquals(200, readRows(s, "SELECT count() FROM t WHERE k >= 250 AND k < 350"));
            assertEquals("100\n", query(s, "SELECT count() FROM t WHERE k >= 250 AND k < 350"));
            // the engine: Granules: 5/10
            assertEquals(500, readRows(s, "SELECT count() FROM t WHERE k IN (5, 105, 995) OR k BETWEEN 300 AND 301"));
            assertEquals(100, readRows(s, "SELECT * FROM t WHERE 550 <= k AND k <= 551 AND s != ''"));
            assertEquals("550\t550\n551\t551\n", query(s, "SELECT * FROM t WHERE 550 <= k AND k <= 551 AND s != '' ORDER BY k"));
            assertEquals(0, readRows(s, "SELECT count() FROM t WHERE k > 999"));
            assertEquals(0, readRows(s, "SELECT count() FROM t WHERE k < 0"));
            assertEquals(0, readRows(s, "SELECT count() FROM t WHERE k = 5 AND k = 6"));
            assertEquals(1000, readRows(s, "SELECT count() FROM t WHERE k > -1"));
            assertEquals(1000, readRows(s, "SELECT count() FROM t WHERE k = 5 OR s = '7'"), "an OR with a term the index cannot read reads all");
            assertEquals(1000, readRows(s, "SELECT k * 2 AS k FROM t WHERE k = 6"), "k is the alias there");
            // EXPLAIN tells the same granules, as the engine's answers for this table
            assertEquals("default\tt\t1\t200\t2\n", query(s, "EXPLAIN ESTIMATE SELECT count() FROM t WHERE k >= 250 AND k < 350"));
            assertEquals("default\tt\t0\t0\t0\n", query(s, "EXPLAIN ESTIMATE SELECT count() FROM t WHERE k > 5000"));
            assertEquals("default\tt\t1\t1000\t10\n", query(s, "EXPLAIN ESTIMATE SELECT count() FROM t WHERE s = '5'"));
            assertTrue(query(s, "EXPLAIN SELECT * FROM t WHERE k >= 250 AND k < 350").contains("Parts: 1 | Granules: 2\n"));
            assertTrue(query(s, "EXPLAIN SELECT * FROM t WHERE k > 5000").contains("Parts: 0 | Granules: 0\n"));
            assertEquals("6\n", query(s, "SELECT k * 2 AS k FROM t WHERE k = 6"));
        }
    }

    /** A random condition on column {@code c}: comparisons with constants of {@code constants}, IN, BETWEEN, AND, OR. */
    private static String condition(Random rnd, String c, List<String> constants, int depth) {
        int kind = rnd.nextInt(depth > 1 ? 5 : 9);
        String v = constants.get(rnd.nextInt(constants.size()));
        String[] ops = {"=", "<", "<=", ">", ">=", "!="};
        return switch (kind) {
            case 0, 1 -> "(" + condition(rnd, c, constants, depth + 1) + (kind == 0 ? " AND " : " OR ") + condition(rnd, c, constants, depth + 1) + ")";
            case 2 -> c + " IN (" + v + ", " + constants.get(rnd.nextInt(constants.size())) + ")";
            case 3 -> c + " BETWEEN " + v + " AND " + constants.get(rnd.nextInt(constants.size()));
            case 4 -> v + " " + ops[rnd.nextInt(ops.length)] + " " + c;
            case 5 -> "x % 3 = 1";
            default -> c + " " + ops[rnd.nextInt(ops.length)] + " " + v;
        };
    }

    @Test
    void theIndexNeverChangesAnAnswer(@TempDir Path data) throws Exception {
        Random rnd = new Random(22);
        String[][] keyTypes = {
            {"UInt64", "toUInt64(18446744073709551615 - (number * 2654435761 % 1000003) % 100000 * 1000)"},
            {"Int32", "toInt32((number * 2654435761 % 1000003) % 2001) - 1000"},
            {"String", "concat('k', toString((number * 2654435761 % 1000003) % 500))"},
            {"Date", "toDate((number * 2654435761 % 1000003) % 3000)"},
            {"DateTime", "toDateTime(1600000000 + (number * 2654435761 % 1000003) % 100000, 'UTC')"},
            {"UInt8", "toUInt8((number * 2654435761 % 1000003) % 256)"},
        };
        int compared = 0;
        int restricted = 0;
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            for (int t = 0; t < keyTypes.length * 2; t++) {
                String type = keyTypes[t % keyTypes.length][0];
                String gen = keyTypes[t % keyTypes.length][1];
                String table = "r" + t;
                String order = t < keyTypes.length ? "ORDER BY k" : "ORDER BY (k, x) PRIMARY KEY k";
                query(s, "CREATE TABLE " + table + " (k " + type + ", x UInt32) ENGINE = MergeTree " + order + " SETTINGS index_granularity = "
                    + (1 + rnd.nextInt(40)) + (rnd.nextBoolean() ? ", min_bytes_for_wide_part = 0" : ""));
                for (int p = 0; p < 4; p++) {
                    query(s, "INSERT INTO " + table + " SELECT " + gen.replace("number", "(number + " + p * 100003 + ")") + ", number FROM numbers("
                        + (1 + rnd.nextInt(700)) + ")");
                }
                List<String> constants = new ArrayList<>();
                for (String row : query(s, "SELECT k FROM " + table + " ORDER BY rand() LIMIT 12").split("\n")) {
                    boolean numeric = !type.equals("String");
                    constants.add(numeric ? (type.startsWith("Date") ? query(s, "SELECT to" + (type.equals("Date") ? "UInt16" : "UInt32") + "(to" + type
                        + "('" + row + "'" + (type.equals("DateTime") ? ", 'UTC'" : "") + "))").trim() : row) : "'" + row + "'");
                }
                if (type.equals("String")) {
                    constants.addAll(List.of("''", "'k'", "'k9999'", "'z'"));
                } else {
                    constants.addAll(List.of("0", "-1", "255", "256", "18446744073709551615", "-9223372036854775808", "1600050000"));
                }
                for (int q = 0; q < 40; q++) {
                    String cond = condition(rnd, "k", constants, 0);
                    String indexed = "SELECT k, x FROM " + table + " WHERE " + cond + " ORDER BY k, x";
                    String plain = "SELECT k, x FROM " + table + " WHERE (" + cond + ") = 1 ORDER BY k, x";
                    assertEquals(query(s, plain), query(s, indexed), table + " (" + type + "): " + cond);
                    compared++;
                    long all = readRows(s, plain);
                    if (readRows(s, indexed) < all) {
                        restricted++;
                    }
                }
            }
        }
        assertEquals(480, compared);
        assertTrue(restricted > 100, "the index left granules out in " + restricted + " of " + compared + " queries");
    }
}
