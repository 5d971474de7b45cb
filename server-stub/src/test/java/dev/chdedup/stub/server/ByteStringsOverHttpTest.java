package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Strings are bytes end to end through the HTTP interface: raw bytes inserted in RowBinary, TSV and Values
 * come back identical in every output format, SQL literals with {@code \xHH} escapes are those bytes, the
 * string functions count and cut bytes, and an input without a final line feed keeps its last field.
 */
class ByteStringsOverHttpTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private static byte[] post(String query, byte[] body) throws Exception {
        String url = STUB.httpUrl() + "/" + (query == null ? "" : "?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
        return r.body();
    }

    private static String sql(String sql) throws Exception {
        return new String(post(null, sql.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8).trim();
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            bo.writeBytes(p);
        }
        return bo.toByteArray();
    }

    @Test
    void literalsAndFunctionsWorkOnBytes() throws Exception {
        assertEquals("FF80", sql("SELECT hex('\\xFF\\x80')"));
        assertEquals("C3BC", sql("SELECT hex('\u00fc')"));
        assertEquals("1", sql("SELECT '\\xC3\\xBC' = '\u00fc'"));
        assertEquals("3", sql("SELECT length(unhex('FF00AB'))"));
        assertEquals("FF00AB", sql("SELECT hex(unhex('FF00AB'))"));
        assertEquals("2\t1", sql("SELECT length('\u00fc'), lengthUTF8('\u00fc')"));
        assertEquals("C3", sql("SELECT hex(substring('\u00fcx', 1, 1))"));
        assertEquals("\u00fc", sql("SELECT substringUTF8('\u00fcx', 1, 1)"));
        assertEquals("\u00fcA", sql("SELECT upper('\u00fca')"));
        assertEquals("\u00dcA", sql("SELECT upperUTF8('\u00fca')"));
        assertEquals("\u00e9", sql("SELECT lowerUTF8('\u00c9')"));
        assertEquals("BCC3", sql("SELECT hex(reverse('\u00fc'))"));
        assertEquals("x\u00fc", sql("SELECT reverseUTF8('\u00fcx')"));
        assertEquals("FF61C3BC", sql("SELECT hex(concat(unhex('FF'), 'a', '\u00fc'))"));
        assertEquals("4", sql("SELECT position('a\u00fcb', 'b')"));
        assertEquals("1\t0", sql("SELECT unhex('FF') > 'z', unhex('80') < unhex('7F')"));
        assertEquals("5", sql("SELECT length(toFixedString('\u00fc', 5))"));
        assertEquals("1\t1\t0", sql("SELECT '\u00fc' LIKE '_', 'X\u00dc' ILIKE 'x\u00fc', 'X\u00dc' LIKE 'x\u00fc'"));
    }

    @Test
    void rawBytesRoundTripThroughEveryFormat() throws Exception {
        sql("CREATE TABLE raw (k UInt32, s String, f FixedString(4)) ENGINE = MergeTree ORDER BY k");
        byte[] v = new byte[256];
        for (int i = 0; i < 256; i++) {
            v[i] = (byte) i;
        }
        byte[] f = {(byte) 0xFF, (byte) 0xFE, 0, (byte) 0x80};
        // RowBinary: k, varint length 256 (0x80 0x02), the bytes, then the FixedString
        post("INSERT INTO raw FORMAT RowBinary", cat(new byte[] {1, 0, 0, 0, (byte) 0x80, 2}, v, f));
        // TSV without a final line feed: the raw bytes of 0x80..0xFF need no escaping
        byte[] high = new byte[128];
        for (int i = 0; i < 128; i++) {
            high[i] = (byte) (128 + i);
        }
        post("INSERT INTO raw FORMAT TSV", cat("2\t".getBytes(StandardCharsets.US_ASCII), high, "\t\\xFF\\xFE\\0\\x80"
            .getBytes(StandardCharsets.US_ASCII)));
        post("INSERT INTO raw VALUES", cat("(3, '".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xFF, (byte) 0xFE},
            "\\xC3', unhex('FFFE0080')), (4, concat('".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xFF},
            "', '\u00fc'), 'abcd')".getBytes(StandardCharsets.UTF_8)));
        assertEquals("1\t" + HEX.formatHex(v) + "\tFFFE0080\n2\t" + HEX.formatHex(high) + "\tFFFE0080\n3\tFFFEC3\tFFFE0080\n4\tFFC3BC\t61626364",
            sql("SELECT k, hex(s), hex(f) FROM raw ORDER BY k"));
        byte[] rb = post("SELECT s, f FROM raw WHERE k = 1 FORMAT RowBinary", new byte[0]);
        assertArrayEquals(cat(new byte[] {(byte) 0x80, 2}, v, f), rb);
        byte[] raw = post("SELECT s FROM raw WHERE k = 2 FORMAT TSVRaw", new byte[0]);
        assertArrayEquals(cat(high, new byte[] {'\n'}), raw);
        byte[] each = post("SELECT s FROM raw WHERE k = 3 FORMAT JSONEachRow", new byte[0]);
        assertArrayEquals(cat("{\"s\":\"".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xFF, (byte) 0xFE, (byte) 0xC3},
            "\"}\n".getBytes(StandardCharsets.US_ASCII)), each);
        byte[] csv = post("SELECT s FROM raw WHERE k = 2 FORMAT CSV", new byte[0]);
        assertArrayEquals(cat(new byte[] {'"'}, high, new byte[] {'"', '\n'}), csv);
        // what one format wrote, another reads back to the same bytes
        sql("CREATE TABLE copy (k UInt32, s String, f FixedString(4)) ENGINE = MergeTree ORDER BY k");
        for (String fmt : new String[] {"RowBinary", "TSV", "CSV", "TSKV", "JSONEachRow", "Values"}) {
            sql("TRUNCATE TABLE copy");
            post("INSERT INTO copy FORMAT " + fmt, post("SELECT * FROM raw ORDER BY k FORMAT " + fmt, new byte[0]));
            assertEquals(sql("SELECT k, hex(s), hex(f) FROM raw ORDER BY k"), sql("SELECT k, hex(s), hex(f) FROM copy ORDER BY k"), fmt);
        }
    }

    @Test
    void lastFieldWithoutLineFeedIsKept() throws Exception {
        sql("CREATE TABLE num (a Int32, b Int32) ENGINE = MergeTree ORDER BY a");
        sql("CREATE TABLE str (a Int32, s String) ENGINE = MergeTree ORDER BY a");
        post("INSERT INTO num FORMAT TSV", "1\t123456".getBytes(StandardCharsets.US_ASCII));
        post("INSERT INTO num FORMAT TSKV", "a=2\tb=654321".getBytes(StandardCharsets.US_ASCII));
        post("INSERT INTO num FORMAT TSVWithNames", "a\tb\n3\t777777".getBytes(StandardCharsets.US_ASCII));
        post("INSERT INTO str FORMAT CSV", "1,hello world".getBytes(StandardCharsets.US_ASCII));
        post("INSERT INTO str FORMAT CSVWithNames", "a,s\n2,\"quoted one\"".getBytes(StandardCharsets.US_ASCII));
        assertEquals("1\t123456\n2\t654321\n3\t777777", sql("SELECT * FROM num ORDER BY a"));
        assertEquals("1\thello world\n2\tquoted one", sql("SELECT * FROM str ORDER BY a"));
    }

    @Test
    void identicalBytesDeduplicateWhateverFormatCarriedThem() throws Exception {
        sql("CREATE TABLE dd (s String) ENGINE = MergeTree ORDER BY s SETTINGS non_replicated_deduplication_window = 10");
        byte[] v = new byte[64];
        new Random(7).nextBytes(v);
        post("INSERT INTO dd FORMAT RowBinary", cat(new byte[] {64}, v));
        StringBuilder hexLiteral = new StringBuilder();
        for (byte b : v) {
            hexLiteral.append(String.format("\\x%02X", b & 0xFF));
        }
        post("INSERT INTO dd VALUES", ("('" + hexLiteral + "')").getBytes(StandardCharsets.US_ASCII));
        assertEquals("1", sql("SELECT count() FROM dd"), "the same bytes are the same block");
        assertEquals(HEX.formatHex(v), sql("SELECT hex(s) FROM dd"));
    }
}
