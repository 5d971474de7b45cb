package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SELECT count() FROM t} answered from the parts' row counts must be the count of the rows a read finds, through
 * inserts, merges, DROP PARTITION, mutations and TRUNCATE, on MergeTree and ReplacingMergeTree (whose FINAL count is
 * not trivial), and the forms that are not trivial (WHERE, FINAL, the setting off) still count by reading.
 */
class TrivialCountTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private String ok(String url, String sql) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), sql + ": " + r.body());
        return r.body().trim();
    }

    @Test
    void theTrivialCountIsTheCountOfWhatAReadFinds(@TempDir Path data) throws Exception {
        Random rnd = new Random(11);
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            String u = s.httpUrl();
            ok(u, "CREATE TABLE m (p UInt8, k UInt32, v String) ENGINE = MergeTree PARTITION BY p ORDER BY k");
            ok(u, "CREATE TABLE r (p UInt8, k UInt32, v String) ENGINE = ReplacingMergeTree PARTITION BY p ORDER BY k");
            for (int step = 0; step < 60; step++) {
                for (String t : new String[] {"m", "r"}) {
                    int op = rnd.nextInt(10);
                    if (op < 6) {
                        int n = rnd.nextInt(op == 0 ? 20_000 : 30);
                        ok(u, "INSERT INTO " + t + " SELECT number % 3, rand() % 500, toString(number) FROM numbers(" + n + ")");
                    } else if (op == 6) {
                        ok(u, "OPTIMIZE TABLE " + t + (rnd.nextBoolean() ? " FINAL" : ""));
                    } else if (op == 7) {
                        ok(u, "ALTER TABLE " + t + " DROP PARTITION " + rnd.nextInt(3));
                    } else if (op == 8) {
                        ok(u, "ALTER TABLE " + t + " DELETE WHERE k % 7 = " + rnd.nextInt(7) + " SETTINGS mutations_sync = 1");
                    } else if (rnd.nextInt(4) == 0) {
                        ok(u, "TRUNCATE TABLE " + t);
                    }
                    String read = ok(u, "SELECT count() FROM " + t + " SETTINGS optimize_trivial_count_query = 0");
                    assertEquals(read, ok(u, "SELECT count() FROM " + t), "step " + step + " " + t);
                    assertEquals(read, ok(u, "SELECT count(*) AS c FROM " + t), "step " + step + " " + t);
                    assertEquals(read, ok(u, "SELECT sum(1) FROM " + t + " WHERE 1"), "step " + step + " " + t);
                    assertEquals(ok(u, "SELECT count() FROM (SELECT * FROM " + t + " FINAL)"), ok(u, "SELECT count() FROM " + t + " FINAL"),
                        "step " + step + " " + t + " FINAL");
                }
            }
            assertEquals("count()\tUInt64", ok(u, "SELECT count() FROM m FORMAT TSVWithNamesAndTypes").replace("\n", "\t").replaceAll("\t\\d+$", ""));
        }
    }
}
