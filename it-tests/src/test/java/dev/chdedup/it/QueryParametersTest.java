package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.query.GenericRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side query parameters through the official Java client (client-v2), which binds values only as
 * {@code {name:Type}} placeholders with {@code param_name=} URL parameters: every kind of type, Identifier
 * parameters naming a table and a column, and ClickHouse's errors for a missing (456) or unparsable (457) value.
 */
class QueryParametersTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static Client client;

    @BeforeAll
    static void connect() {
        client = STUB.newClient();
        STUB.scalar("CREATE TABLE events (id UInt32, name String, at DateTime, tags Array(String)) ENGINE = MergeTree ORDER BY id");
        STUB.scalar("INSERT INTO events VALUES (1, 'it''s', '2024-01-02 03:04:05', ['a','b']), (2, 'tab\\there', '2024-02-03 00:00:00', [])");
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    private static Map<String, Object> params(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** The server's error the client reports (queryAll wraps it in a ClientException). */
    static ServerException serverError(org.junit.jupiter.api.function.Executable call) {
        Throwable t = assertThrows(RuntimeException.class, call);
        while (t != null && !(t instanceof ServerException)) {
            t = t.getCause();
        }
        assertTrue(t != null, "no ServerException in the cause chain");
        return (ServerException) t;
    }

    @Test
    void scalarParametersFilterRows() {
        List<GenericRecord> rows = client.queryAll("SELECT id, name FROM events WHERE id = {id:UInt32} AND at < {t:DateTime}",
            params("id", 1, "t", "2024-01-03 00:00:00"));
        assertEquals(1, rows.size());
        assertEquals("it's", rows.get(0).getString("name"));
        rows = client.queryAll("SELECT id FROM events WHERE name = {n:String}", params("n", "tab\\there"));
        assertEquals(1, rows.size(), "a String value is read escaped: \\t is a tab");
        assertEquals(2L, rows.get(0).getLong("id"));
    }

    @Test
    void compositeAndNullableParameters() {
        List<GenericRecord> rows = client.queryAll("SELECT {a:Array(UInt8)} AS a, length({a:Array(UInt8)}) AS n,"
            + " {m:Map(String, Int32)}['k'] AS mk, {t:Tuple(String, UInt8)}.1 AS t1, isNull({x:Nullable(Int64)}) AS xn,"
            + " toTypeName({d:Date}) AS dt, {d:Date} AS d",
            params("a", List.of(1, 2, 3), "m", "{'k':-7}", "t", "('q',1)", "x", "\\N", "d", "2024-05-06"));
        GenericRecord r = rows.get(0);
        assertEquals(3, r.getInteger("n"));
        assertEquals(-7, r.getInteger("mk"));
        assertEquals("q", r.getString("t1"));
        assertEquals(1, r.getInteger("xn"));
        assertEquals("Date", r.getString("dt"));
        assertEquals(java.time.LocalDate.of(2024, 5, 6), r.getLocalDate("d"));
    }

    @Test
    void identifierParametersNameTableAndColumn() {
        List<GenericRecord> rows = client.queryAll("SELECT {c:Identifier} FROM {db:Identifier}.{tbl:Identifier} ORDER BY id",
            params("c", "name", "db", "default", "tbl", "events"));
        assertEquals(2, rows.size());
        assertEquals("it's", rows.get(0).getString(1));
    }

    @Test
    void tableSchemaFromQueryIsTheResultHeader() {
        // the client sends DESCRIBE TABLE (query), which reads nothing: system.numbers would never end
        com.clickhouse.client.api.metadata.TableSchema schema = client.getTableSchemaFromQuery(
            "WITH big AS (SELECT number FROM system.numbers) SELECT number AS n, toString(number) AS s, [n] AS a FROM big ORDER BY n");
        assertEquals(List.of("n", "s", "a"), schema.getColumns().stream().map(c -> c.getColumnName()).toList());
        assertEquals("Array(UInt64)", schema.getColumns().get(2).getOriginalTypeName());
    }

    @Test
    void missingParameterIsUnknownQueryParameter() {
        ServerException e = serverError(() -> client.queryAll("SELECT {nope:String}", params("other", "x")));
        assertEquals(456, e.getCode());
        assertTrue(e.getMessage().contains("Substitution `nope` is not set"), e.getMessage());
    }

    @Test
    void unparsableValueIsBadQueryParameter() {
        ServerException e = serverError(() -> client.queryAll("SELECT {n:UInt8}", params("n", "12abc")));
        assertEquals(457, e.getCode());
        assertTrue(e.getMessage().contains("Value 12abc cannot be parsed as UInt8 for query parameter 'n'"
            + " because it isn't parsed completely: only 2 of 5 bytes was parsed: 12"), e.getMessage());
        assertEquals(2, STUB.count("events"), "a failed substitution runs nothing");
    }

    /** {name:Type} inside an INSERT's VALUES takes the parameter too, as ClickHouse substitutes them there, in expressions as well. */
    @Test
    void parametersInsideInsertValues() throws Exception {
        STUB.scalar("CREATE TABLE pvalues (id UInt32, name String, d Date) ENGINE = MergeTree ORDER BY id");
        client.query("INSERT INTO pvalues VALUES ({id:UInt32}, {name:String}, {d:Date}), ({id:UInt32} + 1, concat({name:String}, '!'), {d:Date})",
            params("id", 10, "name", "it's", "d", "2024-05-06")).get().close();
        List<GenericRecord> rows = client.queryAll("SELECT id, name, toString(d) AS d FROM pvalues ORDER BY id");
        assertEquals(2, rows.size());
        assertEquals(10, rows.get(0).getLong("id"));
        assertEquals("it's", rows.get(0).getString("name"));
        assertEquals("2024-05-06", rows.get(0).getString("d"));
        assertEquals(11, rows.get(1).getLong("id"));
        assertEquals("it's!", rows.get(1).getString("name"));
        ServerException missing = serverError(() -> client.query("INSERT INTO pvalues VALUES ({other:UInt32}, 'x', today())").get().close());
        assertEquals(456, missing.getCode());
        assertEquals(2, STUB.count("pvalues"), "a failed INSERT writes nothing");
    }

    /**
     * client-v2 with {@code client.http.use_form_request_for_query} sends the query and its parameters as a
     * multipart/form-data body, as ClickHouse's HTTP handler reads them: the answers are those of a URL request.
     */
    @Test
    void theClientsFormRequestsWork() throws Exception {
        try (Client form = STUB.clientBuilder().setOption("client.http.use_form_request_for_query", "true").build()) {
            List<GenericRecord> rows = form.queryAll("SELECT id, name FROM events WHERE id = {id:UInt32}", params("id", 1));
            assertEquals(1, rows.size());
            assertEquals("it's", rows.get(0).getString("name"));
            ServerException e = serverError(() -> form.queryAll("SELECT {nope:String}", params("other", "x")));
            assertEquals(456, e.getCode());
        }
    }
}
