package dev.chdedup.stub.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubServerExtension;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The RowBinary bytes of the issue-13 types, written by hand from ClickHouse's encoding: inserted as
 * RowBinaryWithNamesAndTypes (whose header names the type), they read back as the expected text and come out of
 * {@code FORMAT RowBinary} byte for byte (IPv4 a little-endian UInt32, IPv6 16 bytes in network order, BFloat16
 * the upper half of a Float32, Variant a discriminator in sorted variant order with 0xFF for NULL, Dynamic and JSON
 * paths in the binary type encoding with Nothing for NULL).
 */
class NewTypesRowBinaryTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] post(String query, byte[] body) throws Exception {
        String url = STUB.httpUrl() + "/?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        return r.body();
    }

    private static void string(ByteArrayOutputStream b, String s) {
        byte[] x = s.getBytes(StandardCharsets.UTF_8);
        b.write(x.length);
        b.writeBytes(x);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "IPv4|04030201|1.2.3.4",
        "IPv6|20010db8000000000000000000000001|2001:db8::1",
        "IPv6|00000000000000000000ffff0a000001|::ffff:10.0.0.1",
        "BFloat16|c03f|1.5",
        "DateTime64|03d920c88c010000|2024-01-02 03:04:05.123",
        "DateTime32|4d7d9365|2024-01-02 03:04:45",
        "Point|000000000000f83f0000000000000040|(1.5,2)",
        "Ring|0200000000000000000000000000000000000000000000f03f000000000000f03f|[(0,0),(1,1)]",
        "SimpleAggregateFunction(sum, UInt64)|0700000000000000|7",
        "Variant(UInt64, String)|012a00000000000000|42",
        "Variant(UInt64, String)|00026162|ab",
        "Variant(UInt64, String)|ff|\\N",
        "Dynamic|0a2a00000000000000|42",
        "Dynamic|15026162|ab",
        "Dynamic|1e0a020100000000000000ff00000000000000|[1,255]",
        "Dynamic|00|\\N",
        "JSON|0103612e620a0700000000000000|{\"a\":{\"b\":7}}",
        "JSON|00|{}",
        "Array(Map(String, UInt8))|020001016101|[{},{'a':1}]",
    })
    void rowBinaryBytesRoundTrip(String type, String hex, String text) throws Exception {
        String table = "rb_" + Integer.toHexString((type + hex).hashCode() & 0x7fffffff);
        post("CREATE TABLE " + table + " (v " + type + ") ENGINE = MergeTree ORDER BY tuple()", new byte[0]);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(1);
        string(body, "v");
        string(body, type);
        body.writeBytes(HEX.parseHex(hex));
        post("INSERT INTO " + table + " FORMAT RowBinaryWithNamesAndTypes", body.toByteArray());
        assertEquals(text + "\n", new String(post("SELECT v FROM " + table, new byte[0]), StandardCharsets.UTF_8));
        assertEquals(hex, HEX.formatHex(post("SELECT v FROM " + table + " FORMAT RowBinary", new byte[0])));
        byte[] header = post("SELECT v FROM " + table + " LIMIT 0 FORMAT RowBinaryWithNamesAndTypes", new byte[0]);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(1);
        string(expected, "v");
        string(expected, DataTypes.parse(type).name());
        assertEquals(HEX.formatHex(expected.toByteArray()), HEX.formatHex(header), "the header names the type as ClickHouse does");
    }
}
