package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.data_formats.ClickHouseBinaryFormatReader;
import com.clickhouse.client.api.data_formats.internal.BinaryStreamReader;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.client.api.query.GenericRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * JSON, Dynamic and Variant through the official client (client-v2), which reads them from RowBinaryWithNamesAndTypes
 * into Java objects: JSON path subcolumns ({@code j.a.b} a Dynamic, a typed path, {@code j.^a} a sub-object,
 * {@code j.a[].x} the paths of an array of objects, {@code j.a.:Int64}) as ClickHouse 26.7 answers them; a JSON
 * column from its binary form (typed paths in their type, arrays of objects as lists of maps) and, with
 * output_format_binary_write_json_as_string, as its text.
 */
class JsonTypesClientTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static Client client;

    @BeforeAll
    static void connect() {
        client = STUB.newClient();
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void jsonPathSubcolumnsReadAsTheirTypes() {
        client.queryAll("CREATE TABLE jpaths (id UInt32, j JSON(a UInt32, SKIP z)) ENGINE = MergeTree ORDER BY id");
        client.queryAll("INSERT INTO jpaths VALUES (1, '{\"a\":5,\"b\":{\"c\":\"x\",\"d\":[{\"x\":1},{\"x\":2,\"y\":\"s\"}]},\"z\":1}'),"
            + " (2, '{\"b\":{\"c\":2}}')");
        List<GenericRecord> rows = client.queryAll("SELECT id, j.a, j.b.c, j.^b, j.b.d[].x, j.b.c.:Int64, j.z, dynamicType(j.b.c) AS t"
            + " FROM jpaths ORDER BY id");
        assertEquals(2, rows.size());
        GenericRecord one = rows.get(0);
        assertEquals(5L, one.getLong("j.a"));
        assertEquals("x", one.getObject("j.b.c"));
        assertEquals("String", one.getString("t"));
        Map<?, ?> b = (Map<?, ?>) one.getObject("j.^`b`");
        assertEquals("x", b.get("c"));
        assertEquals(List.of(Map.of("x", 1L), Map.of("x", 2L, "y", "s")), ((BinaryStreamReader.ArrayValue) b.get("d")).asList());
        assertEquals(List.of(1L, 2L), one.getList("j.b.d.:`Array(JSON)`.x"));
        assertNull(one.getObject("j.b.c.:`Int64`"));
        assertNull(one.getObject("j.z"));
        GenericRecord two = rows.get(1);
        assertEquals(0L, two.getLong("j.a"));
        assertEquals(2L, two.getObject("j.b.c"));
        assertEquals(2L, two.getObject("j.b.c.:`Int64`"));
        assertEquals("Int64", two.getString("t"));
        assertEquals(Map.of("c", 2L), two.getObject("j.^`b`"));
        assertEquals(List.of(), two.getList("j.b.d.:`Array(JSON)`.x"));
        assertEquals("Dynamic", client.queryAll("SELECT toTypeName(j.b.c) AS t FROM jpaths LIMIT 1").get(0).getString("t"));
        assertEquals(List.of(2L), client.queryAll("SELECT id FROM jpaths WHERE j.b.c.:Int64 = 2").stream().map(r -> r.getLong("id")).toList());
    }

    @Test
    void jsonColumnsReadFromTheirBinaryFormAndAsStrings() throws Exception {
        client.queryAll("CREATE TABLE jbin (id UInt8, j JSON(t UInt8)) ENGINE = Memory");
        client.queryAll("INSERT INTO jbin VALUES (1, '{\"a\":{\"b\":1},\"c\":[{\"d\":\"x\"}],\"e\":[1.5,2]}')");
        GenericRecord binary = client.queryAll("SELECT j FROM jbin").get(0);
        Map<?, ?> paths = (Map<?, ?>) binary.getObject("j");
        assertEquals(Set.of("a.b", "c", "e", "t"), paths.keySet());
        assertEquals(1L, paths.get("a.b"));
        assertEquals((short) 0, paths.get("t"));
        assertEquals(List.of(Map.of("d", "x")), ((BinaryStreamReader.ArrayValue) paths.get("c")).asList());
        assertEquals(List.of(1.5, 2.0), ((BinaryStreamReader.ArrayValue) paths.get("e")).asList());
        // as the engine writes it with output_format_json_quote_64bit_integers = 0 (the stub's default is 1)
        QuerySettings asString = new QuerySettings().serverSetting("output_format_binary_write_json_as_string", "1")
            .serverSetting("output_format_json_quote_64bit_integers", "0");
        try (QueryResponse r = client.query("SELECT j FROM jbin", asString).get()) {
            ClickHouseBinaryFormatReader reader = client.newBinaryFormatReader(r);
            reader.next();
            assertEquals("{\"a\":{\"b\":1},\"c\":[{\"d\":\"x\"}],\"e\":[1.5,2],\"t\":0}", reader.readValue("j"));
        }
    }

    @Test
    void conversionsAndSupertypesOfDynamicAndVariant() {
        GenericRecord r = client.queryAll("SELECT CAST('{\"a\":{\"b\":\"x\"}}'::JSON, 'Dynamic') AS d, dynamicType(d) AS dt,"
            + " CAST(CAST('12', 'Dynamic'), 'Int32') AS n, CAST(CAST(7, 'Variant(UInt8, String)'), 'String') AS s,"
            + " [CAST(1, 'Variant(UInt8, String)'), 1.5] AS va, toTypeName(va) AS vt, if(1, CAST('q', 'Dynamic'), 2) AS i,"
            + " ['{\"a\":1}'::JSON, '{\"b\":\"x\"}'::JSON] AS ja").get(0);
        assertEquals(Map.of("a.b", "x"), r.getObject("d"));
        assertEquals("JSON", r.getString("dt"));
        assertEquals(12, r.getInteger("n"));
        assertEquals("7", r.getString("s"));
        assertEquals("Array(Variant(Float64, String, UInt8))", r.getString("vt"));
        assertEquals(List.of((short) 1, 1.5), r.getList("va"));
        assertEquals("q", r.getObject("i"));
        assertEquals(List.of(Map.of("a", 1L), Map.of("b", "x")), r.getList("ja"));
    }
}
