package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reads over shards under {@code emulate("18.16")}, answering as a real ClickHouse 18.16.1 (Debian's package, a
 * server of its own with a cluster {@code two} whose second shard was down, observed 2026-12-06): no
 * {@code shardNum()} (46), no {@code _shard_num} (47), no {@code clusterAllReplicas} (46), an unknown cluster BAD_GET
 * (170), an unreachable table's structure the shard's ALL_CONNECTION_TRIES_FAILED (279), not 26.7's
 * NO_REMOTE_SHARD_AVAILABLE. An answer is its text, or an error's code.
 */
class ReadFromRemoteEmulationTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void readsOverShardsAnswerAs1816() throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate("18.16").build().start()) {
            s.clusters().define(Cluster.of("two", false, List.of(List.of(ShardedTables.at(s)), List.of(ShardedTables.down()))));
            String own = "'127.0.0.1:" + s.port() + "'";
            String[][] cases = {
                {"SELECT shardNum()", "Code: 46"},
                {"SELECT _shard_num FROM remote(" + own + ", system.one)", "Code: 47"},
                {"SELECT * FROM remote(" + own + ", system.one)", "0"},
                {"SELECT * FROM remote(" + own + ", 'system', 'one')", "0"},
                {"SELECT * FROM cluster('two', system.one)", "Code: 279"},
                {"SELECT count() FROM cluster('two', system, one)", "Code: 279"},
                {"SELECT * FROM remote('127.0.0.1:1', system.one)", "Code: 279"},
                {"SELECT * FROM clusterAllReplicas('two', system.one)", "Code: 46"},
                {"SELECT * FROM cluster('nope', system.one)", "Code: 170"},
            };
            List<String> wrong = new ArrayList<>();
            for (String[] c : cases) {
                String got = answer(s, c[0]);
                if (!got.equals(c[1])) {
                    wrong.add(c[0] + "\n    18.16: " + c[1] + "\n    stub:  " + got);
                }
            }
            assertEquals("", String.join("\n", wrong));
        }
    }

    private static String answer(StubServer s, String sql) throws Exception {
        String body = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofString()).body().strip();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^Code: (\\d+)").matcher(body);
        return m.find() ? "Code: " + m.group(1) : body;
    }
}
