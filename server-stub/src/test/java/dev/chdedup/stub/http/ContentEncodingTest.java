package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import dev.chdedup.stub.junit.StubServerExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * HTTP compression both ways through the stub: a request body in gzip, deflate, zstd or lz4 (frame format) is
 * decoded, a response is encoded with what Accept-Encoding asks for under enable_http_compression=1, the default
 * since 25.10 (also past the response buffer, where the body streams), ClickHouse's preference order picks among
 * several, and a corrupt body
 * is refused with the decoder's ClickHouse error without inserting anything.
 */
class ContentEncodingTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<byte[]> post(String query, byte[] body, String... headers) throws Exception {
        String params = "";
        if (query != null && query.contains("&")) {
            params = query.substring(query.indexOf('&'));
            query = query.substring(0, query.indexOf('&'));
        }
        String url = STUB.httpUrl() + "/?" + (query == null ? "" : "query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)) + params;
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String sql(String sql) throws Exception {
        HttpResponse<byte[]> r = post(null, sql.getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    static byte[] encode(String encoding, byte[] data) throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        try (OutputStream os = switch (encoding) {
            case "gzip" -> new GZIPOutputStream(bo);
            case "deflate" -> new DeflaterOutputStream(bo);
            case "zstd" -> new ZstdOutputStream(bo);
            case "lz4" -> new LZ4FrameOutputStream(bo);
            default -> throw new IllegalArgumentException(encoding);
        }) {
            os.write(data);
        }
        return bo.toByteArray();
    }

    static byte[] decode(String encoding, byte[] data) throws IOException {
        InputStream in = new ByteArrayInputStream(data);
        try (InputStream is = switch (encoding) {
            case "gzip" -> new GZIPInputStream(in);
            case "deflate" -> new InflaterInputStream(in);
            case "zstd" -> new ZstdInputStream(in);
            case "lz4" -> new LZ4FrameInputStream(in);
            default -> throw new IllegalArgumentException(encoding);
        }) {
            return is.readAllBytes();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "deflate", "zstd", "lz4"})
    void requestAndResponseBodiesAreCompressed(String encoding) throws Exception {
        String table = "t_" + encoding;
        sql("CREATE TABLE " + table + " (k UInt32, s String) ENGINE = MergeTree ORDER BY k");
        StringBuilder tsv = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            tsv.append(i).append('\t').append("row ").append(i).append('\n');
        }
        HttpResponse<byte[]> ins = post("INSERT INTO " + table + " FORMAT TabSeparated",
            encode(encoding, tsv.toString().getBytes(StandardCharsets.UTF_8)), "Content-Encoding", encoding);
        assertEquals(200, ins.statusCode(), new String(ins.body(), StandardCharsets.UTF_8));
        assertEquals("1000\t499500\n", sql("SELECT count(), sum(k) FROM " + table));

        HttpResponse<byte[]> sel = post("SELECT k, s FROM " + table + " ORDER BY k&enable_http_compression=1", new byte[0],
            "Accept-Encoding", encoding);
        assertEquals(200, sel.statusCode());
        assertEquals(encoding, sel.headers().firstValue("Content-Encoding").orElse(null));
        assertEquals(tsv.toString(), new String(decode(encoding, sel.body()), StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zstd", "lz4"})
    void aStreamedResultPastTheBufferIsOneCompressedStream(String encoding) throws Exception {
        HttpResponse<byte[]> sel = post("SELECT number, toString(number) FROM numbers(300000)&enable_http_compression=1",
            new byte[0], "Accept-Encoding", encoding);
        assertEquals(200, sel.statusCode());
        byte[] plain = decode(encoding, sel.body());
        String[] lines = new String(plain, StandardCharsets.UTF_8).split("\n");
        assertEquals(300000, lines.length);
        assertEquals("299999\t299999", lines[lines.length - 1]);
        assertTrue(sel.body().length < plain.length, "compressed: " + sel.body().length + " of " + plain.length);
    }

    @Test
    void preferenceFollowsClickHouseAndUnknownEncodingsAreNotApplied() throws Exception {
        assertEquals("gzip", ContentEncoding.choose("zstd, lz4, gzip"));
        assertEquals("deflate", ContentEncoding.choose("lz4, deflate"));
        assertEquals("zstd", ContentEncoding.choose("lz4, zstd"));
        assertEquals("lz4", ContentEncoding.choose("br, lz4"));
        assertNull(ContentEncoding.choose("br"));
        HttpResponse<byte[]> r = post("SELECT 1&enable_http_compression=1", new byte[0], "Accept-Encoding", "br");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Encoding").isEmpty());
        assertEquals("1\n", new String(r.body(), StandardCharsets.UTF_8));
        HttpResponse<byte[]> on = post("SELECT 1", new byte[0], "Accept-Encoding", "zstd");
        assertEquals("zstd", on.headers().firstValue("Content-Encoding").orElse(null), "enable_http_compression is 1 by default since 25.10");
        assertEquals("1\n", new String(decode("zstd", on.body()), StandardCharsets.UTF_8));
        HttpResponse<byte[]> off = post("SELECT 1&enable_http_compression=0", new byte[0], "Accept-Encoding", "zstd");
        assertTrue(off.headers().firstValue("Content-Encoding").isEmpty(), "compression is off with enable_http_compression=0");
        assertEquals("1\n", new String(off.body(), StandardCharsets.UTF_8));
        HttpResponse<byte[]> older = post("SELECT 1&compatibility=25.9", new byte[0], "Accept-Encoding", "zstd");
        assertTrue(older.headers().firstValue("Content-Encoding").isEmpty(), "off by default under compatibility before 25.10");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "zstd", "lz4"})
    void aCorruptBodyIsRefusedWithTheDecodersErrorAndInsertsNothing(String encoding) throws Exception {
        String table = "bad_" + encoding;
        sql("CREATE TABLE " + table + " (k UInt32) ENGINE = MergeTree ORDER BY k");
        byte[] good = encode(encoding, "1\n2\n3\n".getBytes(StandardCharsets.UTF_8));
        byte[] bad = Arrays.copyOf(good, good.length);
        for (int i = good.length / 2; i < good.length; i++) {
            bad[i] ^= 0x5A;
        }
        HttpResponse<byte[]> r = post("INSERT INTO " + table + " FORMAT TabSeparated", bad, "Content-Encoding", encoding);
        String code = encoding.equals("zstd") ? "561" : encoding.equals("lz4") ? "618" : "354";
        assertEquals(code, r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(null), new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("0\n", sql("SELECT count() FROM " + table));
        byte[] tail = Arrays.copyOf(good, good.length - 3);
        HttpResponse<byte[]> t = post("INSERT INTO " + table + " FORMAT TabSeparated", tail, "Content-Encoding", encoding);
        assertTrue(t.statusCode() >= 400, "a truncated stream is refused: " + new String(t.body(), StandardCharsets.UTF_8));
        assertEquals("0\n", sql("SELECT count() FROM " + table));
        assertArrayEquals("1\n2\n3\n".getBytes(StandardCharsets.UTF_8), decode(encoding, good));
    }
}
