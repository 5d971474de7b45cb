package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CREATE TABLE ... ENGINE = Distributed and the statements around it, answered as the engines answered them: ClickHouse
 * 26.7.2.1 (chDB 3.4.0, which has no cluster: its answers for a cluster it lacks; 10 cases) and a real 18.16.1 of two shards
 * (Debian's package, cluster {@code test_cluster}, recorded with it-tests' DebianClickHouse in Layout.SHARDS). Each
 * case is the statement and the engine's status and body (error bodies without the version suffix).
 */
class DistributedCreateCasesTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static StubServer current;
    private static StubServer legacy;

    @BeforeAll
    static void start() throws Exception {
        current = StubServer.builder().port(0).build().start();
        legacy = StubServer.builder().port(0).emulate("18.16").build().start();
        // 18.16's cluster of the recording: two shards, the first this server
        legacy.clusters().define(Cluster.of("test_cluster", true, List.of(
            List.of(new Cluster.Address("127.0.0.1", legacy.port(), null, null, null, false, 0, 0)),
            List.of(new Cluster.Address("127.0.0.1", 1, null, null, null, false, 0, 0)))));
        for (StubServer s : List.of(current, legacy)) {
            post(s, "CREATE TABLE l (k Int64, v String) ENGINE = MergeTree ORDER BY k", Map.of());
            post(s, "CREATE TABLE m (k Int8, v String) ENGINE = MergeTree ORDER BY k", Map.of());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        current.close();
        legacy.close();
    }

    private static String post(StubServer s, String sql, Map<String, String> params) throws Exception {
        StringBuilder url = new StringBuilder(s.httpUrl()).append("/?");
        params.forEach((k, v) -> url.append(k).append('=').append(v).append('&'));
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url.toString())).POST(HttpRequest.BodyPublishers.ofString(sql))
            .build(), HttpResponse.BodyHandlers.ofString());
        String body = r.body().strip().replaceFirst(" \\(version [^)]*\\)$", "");
        return body.startsWith("Code: ") ? body : r.statusCode() + (body.isEmpty() ? "" : " " + body);
    }

    private static void check(StubServer s, String sql, String expected) throws Exception {
        assertEquals(expected, post(s, sql, Map.of()), sql);
    }

    private static final String ARGUMENTS_26_7 = "Code: 42. DB::Exception: Storage Distributed requires from 3 to 5 parameters - name of"
        + " configuration section with list of remote servers, name of remote database, name of remote table, sharding key expression"
        + " (optional), policy to store data in (optional). (NUMBER_OF_ARGUMENTS_DOESNT_MATCH)";

    @Test
    void theEngineOf26_7ValidatesItsArgumentsBeforeItLooksForTheCluster() throws Exception {
        check(current, "CREATE TABLE dd_t2 (k Int64) ENGINE = Distributed(c, default, t)",
            "Code: 701. DB::Exception: Requested cluster 'c' not found. (CLUSTER_DOESNT_EXIST)");
        check(current, "CREATE TABLE dd_t3 (k Int64) ENGINE = Distributed(c, default)", ARGUMENTS_26_7);
        check(current, "CREATE TABLE dd_t5 (k Int64, s String) ENGINE = Distributed(c, default, t, k, 'default', 6)", ARGUMENTS_26_7);
        check(current, "CREATE TABLE dd_t4 (k Int64, s String) ENGINE = Distributed(c, default, t, s)",
            "Code: 53. DB::Exception: Sharding expression has type String, but should be one of integer type. (TYPE_MISMATCH)");
        check(current, "CREATE TABLE dd_t6 (k Nullable(Int64)) ENGINE = Distributed(c, default, t, k)",
            "Code: 53. DB::Exception: Sharding expression has type Nullable(Int64), but should be one of integer type. (TYPE_MISMATCH)");
        check(current, "CREATE TABLE dd_t11 (k Float64) ENGINE = Distributed(c, default, t, k)",
            "Code: 53. DB::Exception: Sharding expression has type Float64, but should be one of integer type. (TYPE_MISMATCH)");
        check(current, "CREATE TABLE dd_t7 (k Int64) ENGINE = Distributed(c, default, t, k, 'nopolicy')",
            "Code: 478. DB::Exception: Unknown storage policy `nopolicy`. (UNKNOWN_POLICY)");
        check(current, "CREATE TABLE dd_t9 (k Date) ENGINE = Distributed(c, default, t, k)",
            "Code: 701. DB::Exception: Requested cluster 'c' not found. (CLUSTER_DOESNT_EXIST)");
        check(current, "CREATE TABLE dd_t8 (k Int64) ENGINE = Distributed(c, default, t, x)", "Code: 47. DB::Exception: Missing columns: 'x'"
            + " while processing: 'x', required columns: 'x', available columns: 'k'. (UNKNOWN_IDENTIFIER)");
        check(current, "CREATE TABLE dd_t10 (k Int64) ENGINE = Distributed(c, default, t, k) SETTINGS foo=1",
            "Code: 115. DB::Exception: Unknown setting 'foo': for storage Distributed. (UNKNOWN_SETTING)");
        assertEquals("200 0", post(current, "SELECT count() FROM system.tables WHERE name LIKE 'dd_t%'", Map.of()), "nothing was created");
    }

    /**
     * 26.7 shows the engine's arguments as the literals its registerStorageDistributed makes of them (the cluster, database
     * and table names; the key as an expression): from the engine's source, as chDB has no cluster to create one on.
     */
    @Test
    void theEngineOf26_7ShowsItsNamesAsLiterals() throws Exception {
        current.clusters().define(Cluster.of("c1", true, List.of(List.of(new Cluster.Address("127.0.0.1", current.port(), null, null, null,
            false, 0, 0)))));
        check(current, "CREATE TABLE d AS l ENGINE = Distributed(c1, currentDatabase(), l, k)", "200");
        check(current, "SHOW CREATE TABLE d", "200 CREATE TABLE default.d\\n(\\n    `k` Int64,\\n    `v` String\\n)\\nENGINE ="
            + " Distributed(\\'c1\\', \\'default\\', \\'l\\', k)");
        check(current, "SELECT engine, engine_full FROM system.tables WHERE name = 'd' FORMAT TSV",
            "200 Distributed\tDistributed(\\'c1\\', \\'default\\', \\'l\\', k)");
    }

    @Test
    void eighteenSixteenTakesThreeOrFourArgumentsAndNoSettings() throws Exception {
        String arguments = "Code: 42, e.displayText() = DB::Exception: Storage Distributed requires 3 or 4 parameters - name of configuration"
            + " section with list of remote servers, name of remote database, name of remote table, sharding key expression (optional).,"
            + " e.what() = DB::Exception";
        check(legacy, "CREATE TABLE da AS l ENGINE = Distributed(test_cluster, default)", arguments);
        check(legacy, "CREATE TABLE dp AS l ENGINE = Distributed(test_cluster, default, l, k, 'default')", arguments);
        check(legacy, "CREATE TABLE dx AS l ENGINE = Distributed(nocluster, default, l, k)",
            "Code: 170, e.displayText() = DB::Exception: Requested cluster 'nocluster' not found, e.what() = DB::Exception");
        check(legacy, "CREATE TABLE ds AS l ENGINE = Distributed(test_cluster, default, l, v)",
            "Code: 53, e.displayText() = DB::Exception: Sharding expression has type String, but should be one of integer type, e.what() ="
                + " DB::Exception");
        check(legacy, "CREATE TABLE dwn AS l ENGINE = Distributed(test_cluster, default, l, toNullable(k))",
            "Code: 53, e.displayText() = DB::Exception: Sharding expression has type Nullable(Int64), but should be one of integer type,"
                + " e.what() = DB::Exception");
        check(legacy, "CREATE TABLE dws AS l ENGINE = Distributed(test_cluster, default, l, x)",
            "Code: 47, e.displayText() = DB::Exception: Unknown identifier: x, e.what() = DB::Exception");
        check(legacy, "CREATE TABLE dwf AS l ENGINE = Distributed(test_cluster, default, l, k) SETTINGS fsync_after_insert = 1",
            "Code: 36, e.displayText() = DB::Exception: Engine Distributed doesn't support SETTINGS clause. Currently only the MergeTree"
                + " family of engines, Kafka engine and Join engine support it, e.what() = DB::Exception");
    }

    @Test
    void eighteenSixteenKeepsTheEngineArgumentsAsWritten() throws Exception {
        check(legacy, "CREATE TABLE d AS l ENGINE = Distributed(test_cluster, default, l, k)", "200");
        check(legacy, "CREATE TABLE dm AS m ENGINE = Distributed('test_cluster', currentDatabase(), 'm', k)", "200");
        check(legacy, "SELECT engine, engine_full FROM system.tables WHERE name IN ('d', 'dm') ORDER BY name FORMAT TSV",
            "200 Distributed\tDistributed(test_cluster, default, l, k)\nDistributed\tDistributed(\\'test_cluster\\', currentDatabase(), \\'m\\', k)");
        check(legacy, "CREATE TABLE dn AS l ENGINE = Distributed(test_cluster, default, l)", "200");
        check(legacy, "INSERT INTO dn VALUES (1, 'a')", "Code: 55, e.displayText() = DB::Exception: Method write is not supported by storage"
            + " Distributed with more than one shard and no sharding key provided, e.what() = DB::Exception");
        check(legacy, "CREATE TABLE dw AS l ENGINE = Distributed(test_cluster, default, l, toDate(k))", "200");
        check(legacy, "INSERT INTO dw VALUES (1, 'a')",
            "Code: 53, e.displayText() = DB::Exception: Sharding key expression does not evaluate to an integer type, e.what() = DB::Exception");
        check(legacy, "SELECT * FROM system.distribution_queue",
            "Code: 60, e.displayText() = DB::Exception: Table system.distribution_queue doesn't exist., e.what() = DB::Exception");
    }

    @Test
    void eighteenSixteenHasNoSystemStatementsForDistributedTables() throws Exception {
        check(legacy, "CREATE TABLE df AS l ENGINE = Distributed(test_cluster, default, l, k)", "200");
        for (String sql : List.of("SYSTEM FLUSH DISTRIBUTED df", "SYSTEM STOP DISTRIBUTED SENDS df", "SYSTEM START DISTRIBUTED SENDS df")) {
            String answer = post(legacy, sql, Map.of());
            assertEquals("Code: 62, e.displayText() = DB::Exception: Syntax error: failed at position " + (sql.indexOf("DISTRIBUTED") + 1) + ": "
                + sql.substring(sql.indexOf("DISTRIBUTED")) + ".", answer.substring(0, Math.min(answer.length(), answer.indexOf(". Expected") + 1)),
                sql);
        }
    }
}
