package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.exec.EngineAnswers;
import dev.chdedup.stub.oracle.EngineOracle;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Test fixture for reads over shards: stub servers on free ports holding table {@code t} ({@link #DDL}), each shard its
 * own random rows, and a local table {@code dim} alike on every server; the same rows in the engine (ClickHouse 26.7 as
 * chDB, {@link EngineOracle}) as one table per shard ({@code t_s1}, {@code t_s2}, ...) and {@code dim}, so the answer
 * to a query over the shards' union is the engine's answer to the same query over {@code UNION ALL} of those tables,
 * {@code _shard_num} a constant of each part ({@link #union}).
 */
final class ShardedTables {
    static final String DDL = "CREATE TABLE %s (k UInt32, s String, v Int64, n Nullable(Float64), d Date) ENGINE = MergeTree ORDER BY k";
    static final String DIM_DDL = "CREATE TABLE dim (k UInt32, name String) ENGINE = MergeTree ORDER BY k";
    private static final String[] WORDS = {"apple", "avocado", "banana", "cherry", "date", "elder"};
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ShardedTables() {
    }

    /** {@code count} random rows of {@link #DDL} as a VALUES list; floats are quarters, so sums are exact in any order. */
    static String rows(long seed, int count) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : ", ").append('(').append(r.nextInt(30)).append(", '").append(WORDS[r.nextInt(WORDS.length)])
                .append("', ").append(r.nextInt(201) - 100).append(", ").append(r.nextInt(5) == 0 ? "NULL" : String.valueOf(r.nextInt(400) / 4.0))
                .append(", toDate('2024-01-01') + ").append(r.nextInt(60)).append(')');
        }
        return sb.toString();
    }

    static String dimRows() {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < 30; k += 3) {
            sb.append(k == 0 ? "" : ", ").append('(').append(k).append(", 'name").append(k).append("')");
        }
        return sb.toString();
    }

    /** Loads the shards' rows (shard {@code i} gets {@code shardRows.get(i)}) into the engine's {@code t_s1...} and {@code dim}. */
    static void loadEngine(EngineOracle engine, List<String> shardRows) throws IOException {
        for (int i = 0; i < shardRows.size(); i++) {
            String t = "t_s" + (i + 1);
            engineOk(engine, "DROP TABLE IF EXISTS " + t);
            engineOk(engine, String.format(DDL, t));
            engineOk(engine, "INSERT INTO " + t + " VALUES " + shardRows.get(i));
        }
        engineOk(engine, "DROP TABLE IF EXISTS dim");
        engineOk(engine, DIM_DDL);
        engineOk(engine, "INSERT INTO dim VALUES " + dimRows());
    }

    /** Creates {@code t} with {@code rows} (none when null) and {@code dim} on a stub server. */
    static void loadStub(StubServer s, String rows) throws Exception {
        assertEquals("", query(s, String.format(DDL, "t")));
        if (rows != null) {
            assertEquals("", query(s, "INSERT INTO t VALUES " + rows));
        }
        assertEquals("", query(s, DIM_DDL));
        assertEquals("", query(s, "INSERT INTO dim VALUES " + dimRows()));
    }

    private static void engineOk(EngineOracle engine, String sql) throws IOException {
        EngineOracle.Answer a = engine.query(sql, Map.of(), null);
        if (!a.ok()) {
            throw new AssertionError(sql + ": " + a.error());
        }
    }

    /**
     * The engine's table for the union of its shard tables {@code t_s<n>} for each {@code n} of {@code shards} in order
     * (a shard listed twice read twice, as clusterAllReplicas reads each replica), with the {@code _shard_num} of each
     * part (its position, from 1) when the query asks for it.
     */
    static String union(List<Integer> shards, boolean withShardNum) {
        return union("t_s", "", shards, withShardNum);
    }

    /** As above over tables {@code prefix<n>}, each read with {@code suffix} ({@code " FINAL"}). */
    static String union(String prefix, String suffix, List<Integer> shards, boolean withShardNum) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            parts.add("SELECT *" + (withShardNum ? ", toUInt32(" + (i + 1) + ") AS _shard_num, toUInt32(" + shards.size() + ") AS _shard_count" : "")
                + " FROM " + prefix + shards.get(i) + suffix);
        }
        return "(" + String.join(" UNION ALL ", parts) + ")";
    }

    /**
     * {@code template} with {@code {T}} read through {@code table} on the stub and over the union on the engine
     * ({@code shardNum()} and {@code shardCount()} being the union's columns there): one line per difference.
     */
    static List<String> differences(StubServer s, EngineOracle engine, String table, List<Integer> shards, List<String> templates,
                                    Map<String, String> settings) throws Exception {
        return differences(s, engine, table, withShardNum -> union(shards, withShardNum), templates, settings);
    }

    /** As above, the engine's table being {@code engineTable} (given whether the query reads {@code _shard_num}). */
    static List<String> differences(StubServer s, EngineOracle engine, String table, java.util.function.Function<Boolean, String> engineTable,
                                    List<String> templates, Map<String, String> settings) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String q : templates) {
            boolean shardColumns = q.contains("_shard_num") || q.contains("shardNum()") || q.contains("shardCount()");
            String stubSql = q.replace("{T}", table);
            String engineSql = q.replace("{T}", engineTable.apply(shardColumns)).replace("shardNum()", "_shard_num")
                .replace("shardCount()", "_shard_count");
            EngineOracle.Answer e = engine.query(engineSql, settings, null);
            String expected = e.ok() ? strip(e.output()) : "Code: " + e.errorName();
            String got = query(s, settings, stubSql);
            if (!got.equals(expected)) {
                wrong.add(stubSql + "\n    engine: " + expected + "\n    stub:   " + got);
            }
        }
        return wrong;
    }

    private static String strip(String out) {
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }

    static String query(StubServer s, String sql) throws Exception {
        return query(s, Map.of(), sql);
    }

    /** The stub's answer as the engine's is recorded: TabSeparated without its last newline, or {@code Code: N NAME}. */
    static String query(StubServer s, Map<String, String> settings, String sql) throws Exception {
        StringBuilder params = new StringBuilder("/?");
        for (Map.Entry<String, String> e : settings.entrySet()) {
            params.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).append('&');
        }
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + params))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (Boolean.getBoolean("distributed.debug") && r.statusCode() != 200) {
            System.out.println(sql + "\n  -> " + new String(r.body(), StandardCharsets.UTF_8));
        }
        return EngineAnswers.asRecorded(r.body());
    }

    /** The address of server {@code s} in a cluster. */
    static Cluster.Address at(StubServer s) {
        return new Cluster.Address("127.0.0.1", s.port(), null, null, null, false, 0, 0);
    }

    /** An address nothing listens on (port 1, which no test server can take): a replica that is down. */
    static Cluster.Address down() {
        return new Cluster.Address("127.0.0.1", 1, null, null, null, false, 0, 0);
    }
}
