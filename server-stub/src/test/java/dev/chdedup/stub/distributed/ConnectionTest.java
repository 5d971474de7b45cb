package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.server.StubServer;
import dev.chdedup.stub.types.DataTypes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One server reaching another: a query's result with its header, a block inserted with its token, errors with their codes. */
class ConnectionTest {
    private static StubServer a;
    private static StubServer b;

    @BeforeAll
    static void start() throws Exception {
        a = StubServer.builder().port(0).build().start();
        b = StubServer.builder().port(0).build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        a.close();
        b.close();
    }

    private static Connection toB() {
        return new Connection(new Cluster.Address("127.0.0.1", b.port(), null, null, null, false, 1, 1), Duration.ofSeconds(1),
            Duration.ofSeconds(30));
    }

    private static List<List<Object>> rows(Connection.Result r) {
        List<List<Object>> out = new ArrayList<>();
        for (Block bl : r.blocks()) {
            for (Object[] row : bl.rows()) {
                out.add(Arrays.asList(row));
            }
        }
        return out;
    }

    @Test
    void aQueryComesBackWithItsColumnsAndTypes() {
        Connection.Result r = toB().query("SELECT number AS n, toString(number) AS s, [number] AS a FROM numbers(3)", Map.of());
        assertEquals(List.of("n", "s", "a"), r.columns().stream().map(Column::name).toList());
        assertEquals(List.of("UInt64", "String", "Array(UInt64)"), r.columns().stream().map(c -> c.type().name()).toList());
        assertEquals(3, rows(r).size());
        assertEquals(2L, ((Number) rows(r).get(2).get(0)).longValue());
    }

    @Test
    void aBlockInsertedTwiceWithOneTokenLandsOnce() {
        Connection c = toB();
        c.execute("CREATE TABLE conn_t (k UInt32, v String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 10",
            Map.of());
        List<Column> cols = List.of(new Column("k", DataTypes.parse("UInt32")), new Column("v", DataTypes.STRING));
        List<Object[]> block = List.of(new Object[] {1L, "x"},
            new Object[] {2L, "y"});
        Map<String, String> settings = Map.of("insert_deduplication_token", "t1");
        c.insert("`default`.`conn_t`", cols, block, settings);
        c.insert("`default`.`conn_t`", cols, block, settings);
        assertEquals(List.of(List.of(2L)), rows(c.query("SELECT count() FROM conn_t", Map.of())).stream()
            .map(r -> List.<Object>of(((Number) r.get(0)).longValue())).toList());
    }

    @Test
    void aRemoteErrorKeepsItsCodeAndNamesTheServer() {
        ChException e = assertThrows(ChException.class, () -> toB().query("SELECT * FROM no_such_table", Map.of()));
        assertEquals(ErrorCode.UNKNOWN_TABLE, e.code());
        assertTrue(e.getMessage().startsWith("Received from 127.0.0.1:" + b.port() + ". DB::Exception: "), e.getMessage());
        assertFalse(e.getMessage().contains("(UNKNOWN_TABLE)"), e.getMessage());
    }

    @Test
    void aServerThatIsNotThereIsANetworkError() throws Exception {
        int free;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            free = s.getLocalPort();
        }
        Connection c = new Connection(new Cluster.Address("127.0.0.1", free, null, null, null, false, 1, 1), Duration.ofSeconds(1), Duration.ofSeconds(5));
        assertEquals(ErrorCode.NETWORK_ERROR, assertThrows(ChException.class, () -> c.query("SELECT 1", Map.of())).code());
    }

    @Test
    void aServerKnowsItsOwnAddress() {
        Cluster cluster = Cluster.of("two", true, List.of(
            List.of(new Cluster.Address("127.0.0.1", a.port(), null, null, null, false, 0, 0)),
            List.of(new Cluster.Address("localhost", b.port(), null, null, null, false, 0, 0))));
        a.clusters().define(cluster);
        assertEquals(cluster, a.clusters().get("two"));
        assertTrue(a.clusters().isLocal(cluster.shard(1).replicas().get(0)));
        assertFalse(a.clusters().isLocal(cluster.shard(2).replicas().get(0)));
        assertEquals(2, cluster.totalWeight());
        assertEquals(ErrorCode.CLUSTER_DOESNT_EXIST, assertThrows(ChException.class, () -> a.clusters().get("three")).code());
    }
}
