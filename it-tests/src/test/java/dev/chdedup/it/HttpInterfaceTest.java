package dev.chdedup.it;

import static dev.chdedup.it.ClickHouseHttp.enc;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What curl users do with ClickHouse's HTTP interface, through a plain HTTP client: health checks, SELECT via GET,
 * SQL in the POST body, the INSERT in the URL with its data in the body (TabSeparated, Values, CSV, JSONEachRow,
 * RowBinary), output formats, and the response headers and encodings.
 */
class HttpInterfaceTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @BeforeAll
    static void table() {
        STUB.scalar("CREATE TABLE h (id UInt64, s String, t DateTime) ENGINE = MergeTree ORDER BY id");
    }

    @Test
    void pingAndRoot() {
        ClickHouseHttp.Response ping = STUB.http().get("/ping", "");
        assertEquals(200, ping.status());
        assertEquals("Ok.\n", ping.text());
        ClickHouseHttp.Response root = STUB.http().get("/", "");
        assertEquals(200, root.status());
        assertEquals("Ok.\n", root.text());
        assertEquals(404, STUB.http().get("/nope", "").status());
    }

    @Test
    void selectViaGet() {
        ClickHouseHttp.Response r = STUB.http().get("/", "query=" + enc("SELECT number, toString(number * 2) FROM numbers(3)"));
        assertEquals(200, r.status(), r::toString);
        assertEquals("0\t0\n1\t2\n2\t4\n", r.text());
        ClickHouseHttp.Response json = STUB.http().get("/", "query=" + enc("SELECT 1 AS x, 'a' AS y") + "&default_format=JSONEachRow");
        assertEquals("{\"x\":1,\"y\":\"a\"}\n", json.text());
        ClickHouseHttp.Response withNames = STUB.http().get("/", "query=" + enc("SELECT 1 AS x FORMAT TabSeparatedWithNamesAndTypes"));
        assertEquals("x\nUInt8\n1\n", withNames.text());
    }

    @Test
    void insertViaGetIsRefused() {
        ClickHouseHttp.Response r = STUB.http().get("/", "query=" + enc("INSERT INTO h VALUES (999, 'x', now())"));
        assertEquals(500, r.status(), r::toString);
        assertEquals("164", r.header("X-ClickHouse-Exception-Code"));
        assertEquals("0", STUB.scalar("SELECT count() FROM h WHERE id = 999"));
    }

    @Test
    void queryInUrlDataInBody() {
        ClickHouseHttp.Response tsv = STUB.http().insert("INSERT INTO h FORMAT TabSeparated", bytes("1\tone\t2024-01-01 00:00:01\n2\ttwo\\ttab\t2024-01-01 00:00:02\n"));
        assertEquals(200, tsv.status(), tsv::toString);
        assertEquals("", tsv.text());
        assertTrue(tsv.header("X-ClickHouse-Summary").contains("\"written_rows\":\"2\""), tsv.header("X-ClickHouse-Summary"));

        ClickHouseHttp.Response values = STUB.http().insert("INSERT INTO h VALUES", bytes("(3, 'three', '2024-01-01 00:00:03'), (4, 'it\\'s', 0)"));
        assertEquals(200, values.status(), values::toString);
        ClickHouseHttp.Response csv = STUB.http().insert("INSERT INTO h (id, s, t) FORMAT CSV", bytes("5,\"fi,ve\",2024-01-01 00:00:05\n"));
        assertEquals(200, csv.status(), csv::toString);
        ClickHouseHttp.Response json = STUB.http().insert("INSERT INTO h FORMAT JSONEachRow", bytes("{\"id\":6,\"s\":\"six\",\"t\":\"2024-01-01 00:00:06\"}\n"));
        assertEquals(200, json.status(), json::toString);

        // the whole statement with its data in the body
        ClickHouseHttp.Response inline = STUB.http().postSql("INSERT INTO h FORMAT TabSeparated\n7\tseven\t2024-01-01 00:00:07\n");
        assertEquals(200, inline.status(), inline::toString);

        assertEquals("1\tone\t2024-01-01 00:00:01\n2\ttwo\\ttab\t2024-01-01 00:00:02\n3\tthree\t2024-01-01 00:00:03\n"
                + "4\tit\\'s\t1970-01-01 00:00:00\n5\tfi,ve\t2024-01-01 00:00:05\n6\tsix\t2024-01-01 00:00:06\n7\tseven\t2024-01-01 00:00:07",
            STUB.scalar("SELECT * FROM h WHERE id < 100 ORDER BY id"));
    }

    @Test
    void rowBinaryInsertAndSelect() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0; i < 3; i++) {
            body.write(le(200 + i, 8));
            byte[] s = ("rb-" + i + " ✓").getBytes(StandardCharsets.UTF_8);
            body.write(s.length);
            body.write(s);
            body.write(le(1_700_000_000L + i, 4));
        }
        ClickHouseHttp.Response r = STUB.http().insert("INSERT INTO h FORMAT RowBinary", body.toByteArray());
        assertEquals(200, r.status(), r::toString);
        ClickHouseHttp.Response out = STUB.http().post("", bytes("SELECT * FROM h WHERE id >= 200 AND id < 300 ORDER BY id FORMAT RowBinary"));
        assertEquals(200, out.status());
        assertArrayEquals(body.toByteArray(), out.body());
    }

    @Test
    void headersAndQueryId() {
        ClickHouseHttp.Response r = STUB.http().post("query_id=my-query-1", "SELECT 1");
        assertEquals("my-query-1", r.header("X-ClickHouse-Query-Id"));
        assertEquals("UTC", r.header("X-ClickHouse-Timezone"));
        assertEquals("TabSeparated", r.header("X-ClickHouse-Format"));
        assertTrue(r.header("X-ClickHouse-Summary").startsWith("{\"read_rows\":"), r.header("X-ClickHouse-Summary"));
    }

    /** compress=1: ClickHouse's native blocks, decoded here with lz4-java and checked with the driver's CityHash128. */
    @Test
    @SuppressWarnings("deprecation") // ClickHouseCityHash: deprecated in clickhouse-data, still the reference implementation
    void nativeCompressedResponse() {
        ClickHouseHttp.Response r = STUB.http().post("compress=1", "SELECT number FROM numbers(5)");
        assertEquals(200, r.status());
        ByteBuffer b = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
        long lo = b.getLong();
        long hi = b.getLong();
        assertEquals((byte) 0x82, b.get(16), "LZ4 method byte");
        int compressedSize = b.getInt(17);
        int plainSize = b.getInt(21);
        assertEquals(r.body().length, 16 + compressedSize, "one block");
        long[] hash = com.clickhouse.data.ClickHouseCityHash.cityHash128(r.body(), 16, compressedSize);
        assertEquals(hash[0], lo, "checksum low");
        assertEquals(hash[1], hi, "checksum high");
        byte[] plain = net.jpountz.lz4.LZ4Factory.safeInstance().safeDecompressor()
            .decompress(r.body(), 16 + 9, compressedSize - 9, plainSize);
        assertEquals("0\n1\n2\n3\n4\n", new String(plain, StandardCharsets.UTF_8));
    }

    @Test
    void gzipResponse() throws IOException {
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        try {
            java.net.http.HttpResponse<byte[]> r = client.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(STUB.server().httpUrl() + "/?enable_http_compression=1"))
                .header("Accept-Encoding", "gzip").POST(java.net.http.HttpRequest.BodyPublishers.ofString("SELECT 'zipped'")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            assertEquals("gzip", r.headers().firstValue("Content-Encoding").orElse(null));
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
                assertEquals("zipped\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] le(long v, int n) {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v);
        byte[] out = new byte[n];
        System.arraycopy(b.array(), 0, out, 0, n);
        return out;
    }
}
