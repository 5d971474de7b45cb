package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stub's {@code --emulate 18.16} block ids against a real ClickHouse 18.16 (Debian's package, a ReplicatedMergeTree on
 * ZooKeeper): there a block id is the hash of the part's sorted rows, so a retry, the same rows in another order,
 * identical blocks of one insert and an equal partition piece of another insert are all duplicates. The same
 * statements run on both, and every table must hold the same rows. Skips where the packages are not installed.
 */
class DebianClickHouseBlockIdsTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static DebianClickHouse clickhouse;
    private static StubServer stub;

    @BeforeAll
    static void start() throws Exception {
        clickhouse = DebianClickHouse.startOrSkip(2);
        stub = StubServer.builder().port(0).emulate("18.16").build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(clickhouse, stub);
    }

    /** One insert and the URL settings it runs with. */
    record Insert(String values, Map<String, String> settings) {
    }

    static final Map<String, String> SPLIT = Map.of("max_insert_block_size", "1");

    /** Each scenario: a partition key (or none), then inserts; the table's rows at the end are compared. */
    static final List<Object[]> SCENARIOS = List.of(
        new Object[] {"", List.of(new Insert("(1, 'a'), (2, 'b')", Map.of()), new Insert("(1, 'a'), (2, 'b')", Map.of()))},
        new Object[] {"", List.of(new Insert("(1, 'a'), (2, 'b')", Map.of()), new Insert("(2, 'b'), (1, 'a')", Map.of()))},
        new Object[] {"", List.of(new Insert("(4, 'a'), (4, 'a')", SPLIT), new Insert("(4, 'a')", Map.of()))},
        new Object[] {"", List.of(new Insert("(1, 'b'), (3, 'a')", SPLIT), new Insert("(3, 'a')", Map.of()))},
        new Object[] {"k % 3", List.of(new Insert("(2, 'a')", Map.of()), new Insert("(3, 'a'), (2, 'a')", Map.of()))},
        new Object[] {"k % 3", List.of(new Insert("(1, 'b'), (0, 'b'), (1, 'a')", Map.of()), new Insert("(1, 'b'), (1, 'a'), (5, 'c')", Map.of()))},
        new Object[] {"", List.of(new Insert("(1, 'a')", Map.of()), new Insert("(1, 'a'), (1, 'a')", Map.of()), new Insert("(1, 'a'), (1, 'a')", SPLIT))});

    private static String send(String baseUrl, String sql, Map<String, String> settings) throws IOException, InterruptedException {
        StringBuilder q = new StringBuilder("/?");
        for (Map.Entry<String, String> e : settings.entrySet()) {
            q.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).append('&');
        }
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + q)).timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(baseUrl + " HTTP " + r.statusCode() + ": " + r.body() + " for " + sql);
        }
        return r.body();
    }

    @SuppressWarnings("unchecked")
    private static String play(String baseUrl, int n, Object[] scenario) throws IOException, InterruptedException {
        String table = "ids_" + n + "_" + System.nanoTime();
        String partition = (String) scenario[0];
        send(baseUrl, "CREATE TABLE default." + table + " (k UInt64, v String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/ids/"
            + table + "', 'r1')" + (partition.isEmpty() ? "" : " PARTITION BY " + partition) + " ORDER BY k", Map.of());
        for (Insert i : (List<Insert>) scenario[1]) {
            send(baseUrl, "INSERT INTO default." + table + " VALUES " + i.values(), i.settings());
        }
        return send(baseUrl, "SELECT k, v FROM default." + table + " ORDER BY k, v", Map.of());
    }

    @Test
    void theStubPlaying1816KeepsTheRowsARealOneKeeps() throws Exception {
        List<String> real = new ArrayList<>();
        List<String> emulated = new ArrayList<>();
        for (int n = 0; n < SCENARIOS.size(); n++) {
            real.add(n + ": " + play(clickhouse.httpUrl(0), n, SCENARIOS.get(n)).strip().replace('\n', '|'));
            emulated.add(n + ": " + play(stub.httpUrl(), n, SCENARIOS.get(n)).strip().replace('\n', '|'));
        }
        System.out.println("ClickHouse " + clickhouse.query(0, "SELECT version()").strip() + ": " + real);
        assertEquals(real, emulated);
    }
}
