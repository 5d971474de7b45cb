package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.junit.StubServerExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An error after the response body started is written as ClickHouse 25.11+ writes it: the response carries
 * X-ClickHouse-Exception-Tag, the body ends with the tagged __exception__ block whose length field counts the
 * message, and the chunked body is cut without its last chunk (also inside an HTTP compression stream), so a client
 * reports the error instead of trusting a short result; an older server's profile gets the untagged text.
 */
class OutputTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final Pattern BLOCK = Pattern.compile(
        "\r\n__exception__\r\n([a-z]{16})\r\n(Code: (\\d+)\\. DB::Exception: [^\n]*\n)(\\d+) ([a-z]{16})\r\n__exception__\r\n$");

    /** A response read off the socket to its end: headers, the de-chunked body, whether the last chunk came. */
    record Raw(int status, Map<String, String> headers, byte[] body, boolean complete) {
    }

    static Raw get(String query, String... extraHeaders) throws IOException {
        return getWith(query, "", extraHeaders);
    }

    static Raw getWith(String query, String params, String... extraHeaders) throws IOException {
        return exchange("GET /?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + params, new byte[0], extraHeaders);
    }

    static Raw post(String sql) throws IOException {
        return exchange("POST /", sql.getBytes(StandardCharsets.UTF_8));
    }

    private static Raw exchange(String target, byte[] requestBody, String... extraHeaders) throws IOException {
        try (Socket s = new Socket("127.0.0.1", STUB.port())) {
            s.setSoTimeout(30_000);
            StringBuilder req = new StringBuilder(target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + requestBody.length + "\r\n");
            for (String h : extraHeaders) {
                req.append(h).append("\r\n");
            }
            OutputStream os = s.getOutputStream();
            os.write(req.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            os.write(requestBody);
            os.flush();
            InputStream in = s.getInputStream();
            String statusLine = line(in);
            Map<String, String> headers = new LinkedHashMap<>();
            for (String l = line(in); !l.isEmpty(); l = line(in)) {
                int c = l.indexOf(':');
                headers.put(l.substring(0, c).trim().toLowerCase(Locale.ROOT), l.substring(c + 1).trim());
            }
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (!"chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body.writeBytes(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
                return new Raw(status, headers, body.toByteArray(), true);
            }
            while (true) {
                String size = line(in);
                if (size == null || size.isEmpty()) {
                    return new Raw(status, headers, body.toByteArray(), false);
                }
                int n = Integer.parseInt(size.trim(), 16);
                if (n == 0) {
                    line(in);
                    return new Raw(status, headers, body.toByteArray(), true);
                }
                byte[] chunk = in.readNBytes(n);
                body.writeBytes(chunk);
                if (chunk.length < n) {
                    return new Raw(status, headers, body.toByteArray(), false);
                }
                line(in);
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return c < 0 && sb.length() == 0 ? null : sb.toString();
    }

    private static final String FAILING = "SELECT number, throwIf(number = 250000) FROM numbers(300000) SETTINGS max_block_size = 1000";

    private static void assertTaggedBlock(String body, String tag) {
        Matcher m = BLOCK.matcher(body);
        assertTrue(m.find(), "tagged exception block at the end: " + body.substring(Math.max(0, body.length() - 400)));
        assertEquals(tag, m.group(1));
        assertEquals(tag, m.group(5));
        assertEquals("395", m.group(3));
        assertTrue(m.group(2).contains("(FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)"), m.group(2));
        assertEquals(m.group(2).getBytes(StandardCharsets.UTF_8).length, Integer.parseInt(m.group(4)), "the length counts message and newline");
        String data = body.substring(0, m.start());
        assertTrue(data.startsWith("0\t0\n1\t0\n"), "rows before the error come first");
        assertFalse(data.contains("250000\t"), "no row of the failing block");
    }

    @Test
    void anErrorAfterTheBodyStartedIsTheTaggedBlockAndTheBodyIsCut() throws Exception {
        Raw r = get(FAILING);
        assertEquals(200, r.status());
        String tag = r.headers().get("x-clickhouse-exception-tag");
        assertNotNull(tag);
        assertTrue(tag.matches("[a-z]{16}"), tag);
        assertFalse(r.complete(), "the chunked body has no last chunk");
        assertTaggedBlock(new String(r.body(), StandardCharsets.UTF_8), tag);
    }

    @Test
    void theBlockIsInsideTheCompressedStream() throws Exception {
        Raw r = getWith(FAILING, "&enable_http_compression=1", "Accept-Encoding: zstd");
        assertEquals("zstd", r.headers().get("content-encoding"));
        byte[] plain;
        try (InputStream z = new ZstdInputStream(new ByteArrayInputStream(r.body()))) {
            plain = z.readAllBytes();
        }
        assertTaggedBlock(new String(plain, StandardCharsets.UTF_8), r.headers().get("x-clickhouse-exception-tag"));
    }

    @Test
    void everyResponseHasAFreshTagAndAnEarlyErrorKeepsItsStatus() throws Exception {
        Raw ok = get("SELECT 1");
        Raw ok2 = get("SELECT 1");
        assertTrue(ok.complete());
        assertEquals("1\n", new String(ok.body(), StandardCharsets.UTF_8));
        assertTrue(ok.headers().get("x-clickhouse-exception-tag").matches("[a-z]{16}"));
        assertFalse(ok.headers().get("x-clickhouse-exception-tag").equals(ok2.headers().get("x-clickhouse-exception-tag")));
        Raw early = get("SELECT throwIf(1)");
        assertEquals(500, early.status());
        assertEquals("395", early.headers().get("x-clickhouse-exception-code"));
        assertTrue(early.headers().containsKey("x-clickhouse-exception-tag"));
        assertTrue(new String(early.body(), StandardCharsets.UTF_8).startsWith("Code: 395. DB::Exception: "));
    }

    @Test
    void theBlockMatchesTheDocumentedLayout() {
        String body = "Code: 395. DB::Exception: boom. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 26.7.2.1)\n";
        String block = new String(Output.exceptionBlock(body, "abcdefghijklmnop"), StandardCharsets.UTF_8);
        assertEquals("\r\n__exception__\r\nabcdefghijklmnop\r\n" + body + body.length() + " abcdefghijklmnop\r\n__exception__\r\n", block);
        assertEquals("\n" + body, new String(Output.exceptionBlock(body, null), StandardCharsets.UTF_8));
        assertFalse(CompatibilityProfile.CLICKHOUSE_22_1.exceptionTag());
        assertTrue(CompatibilityProfile.CURRENT.exceptionTag());
    }

    private static long field(String text, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\\s*\"?(\\d+)").matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /**
     * A plain SELECT with a LIMIT reads its source in blocks of at most LIMIT + OFFSET rows, as ClickHouse does: the
     * figures are ClickHouse 26.7's (the engine in ../shared/oracle/, FORMAT JSON's rows_before_limit_at_least and
     * statistics.rows_read). Before, system.numbers made a block of max_block_size rows whatever the LIMIT.
     */
    @Test
    void aLimitBoundsTheBlocksAPlainSelectReads() throws Exception {
        String[][] cases = {
            // query, rows_before_limit_at_least, rows_read, as the engine answered
            {"SELECT number FROM system.numbers LIMIT 2 FORMAT JSON", "2", "2"},
            {"SELECT number FROM system.numbers LIMIT 3 OFFSET 2 FORMAT JSON", "5", "5"},
            {"SELECT number FROM numbers(100000) LIMIT 5 FORMAT JSON", "5", "5"},
            {"SELECT number * 2 AS x FROM numbers(1000000) LIMIT 7 FORMAT JSON", "7", "7"},
            {"SELECT number FROM numbers(1000) WHERE number % 2 = 0 LIMIT 10 FORMAT JSON", "500", "1000"},
            {"SELECT count() FROM numbers(1000) LIMIT 1 FORMAT JSON", "1", "1000"},
        };
        for (String[] c : cases) {
            Raw r = get(c[0]);
            String json = new String(r.body(), StandardCharsets.UTF_8);
            assertEquals(Long.parseLong(c[1]), field(json, "rows_before_limit_at_least"), c[0] + ": " + json);
            assertEquals(Long.parseLong(c[2]), field(json, "rows_read"), c[0] + ": " + json);
            assertEquals(Long.parseLong(c[2]), field(r.headers().get("x-clickhouse-summary"), "read_rows"), c[0]);
        }
        // two rows of 0.5 s; a block of max_block_size rows would pass the 3-second cap of one sleepEachRow call
        Raw slept = get("SELECT sleepEachRow(0.5) FROM system.numbers LIMIT 2 FORMAT TSV");
        assertEquals("0\n0\n", new String(slept.body(), StandardCharsets.UTF_8));
    }

    @Test
    void theSummaryAndJsonStatisticsCountWhatWasReadAndWhatReachedTheLimit() throws Exception {
        Raw streamed = get("SELECT number FROM numbers(1000) WHERE number % 2 = 0 LIMIT 10 FORMAT JSON");
        String json = new String(streamed.body(), StandardCharsets.UTF_8);
        assertEquals(10, field(json, "rows"));
        assertEquals(500, field(json, "rows_before_limit_at_least"), json);
        assertEquals(1000, field(json, "rows_read"));
        assertEquals(8000, field(json, "bytes_read"));
        assertEquals(1000, field(streamed.headers().get("x-clickhouse-summary"), "read_rows"));
        assertEquals(8000, field(streamed.headers().get("x-clickhouse-summary"), "read_bytes"));
        assertEquals(10, field(streamed.headers().get("x-clickhouse-summary"), "result_rows"));

        Raw sorted = get("SELECT number FROM numbers(1000) ORDER BY number DESC LIMIT 3 FORMAT JSONCompact");
        assertEquals(1000, field(new String(sorted.body(), StandardCharsets.UTF_8), "rows_before_limit_at_least"));

        Raw unlimited = get("SELECT number FROM numbers(5) FORMAT JSON");
        String plain = new String(unlimited.body(), StandardCharsets.UTF_8);
        assertFalse(plain.contains("rows_before_limit_at_least"), plain);
        assertEquals(5, field(plain, "rows_read"));

        Raw sub = get("SELECT count() FROM (SELECT number FROM numbers(300)) FORMAT JSON");
        assertEquals(300, field(new String(sub.body(), StandardCharsets.UTF_8), "rows_read"), "a subquery's rows are read once");
    }

    @Test
    void readBytesOfATableGrowWithItsValues() throws Exception {
        assertEquals(200, post("CREATE TABLE rb (k UInt32, s String) ENGINE = MergeTree ORDER BY k").status());
        Raw insert = post("INSERT INTO rb SELECT number, repeat('x', 100) FROM numbers(50)");
        assertEquals(200, insert.status(), new String(insert.body(), StandardCharsets.UTF_8));
        assertEquals(50, field(insert.headers().get("x-clickhouse-summary"), "read_rows"), "INSERT SELECT reports what it read");
        assertEquals(50, field(insert.headers().get("x-clickhouse-summary"), "written_rows"));
        Raw r = get("SELECT k, s FROM rb WHERE k < 5");
        String summary = r.headers().get("x-clickhouse-summary");
        assertEquals(50, field(summary, "read_rows"), summary);
        assertTrue(field(summary, "read_bytes") >= 50 * (4 + 100), summary);
        assertEquals(5, field(summary, "result_rows"), summary);
        // a query that names only k reads only k's column, as ClickHouse counts it
        String onlyK = get("SELECT k FROM rb WHERE k < 5").headers().get("x-clickhouse-summary");
        assertEquals(50, field(onlyK, "read_rows"), onlyK);
        assertTrue(field(onlyK, "read_bytes") >= 50 * 4 && field(onlyK, "read_bytes") < 50 * (4 + 100), onlyK);
    }

    @Test
    void jsonEachRowWithProgressEndsWithTheQuerysProgressAndRowsBeforeLimit() throws Exception {
        Raw r = get("SELECT number AS n, toString(number) AS s FROM numbers(100) LIMIT 2 FORMAT JSONEachRowWithProgress");
        String[] lines = new String(r.body(), StandardCharsets.UTF_8).split("\n");
        assertEquals("{\"meta\":[{\"name\":\"n\",\"type\":\"UInt64\"},{\"name\":\"s\",\"type\":\"String\"}]}", lines[0]);
        assertEquals("{\"row\":{\"n\":0,\"s\":\"0\"}}", lines[1]);
        assertEquals("{\"row\":{\"n\":1,\"s\":\"1\"}}", lines[2]);
        // as ClickHouse 26.7 answers it: the LIMIT bounds the block read, so 2 rows are read
        assertTrue(lines[3].matches("\\{\"progress\":\\{\"read_rows\":\"2\",\"read_bytes\":\"16\",\"total_rows_to_read\":\"2\","
            + "\"elapsed_ns\":\"\\d+\"}}"), lines[3]);
        assertEquals("{\"rows_before_limit_at_least\":2}", lines[4]);
        assertEquals(5, lines.length);
        Raw compact = get("SELECT number FROM numbers(1) FORMAT JSONCompactEachRowWithProgress");
        String[] c = new String(compact.body(), StandardCharsets.UTF_8).split("\n");
        assertEquals("{\"row\":[0]}", c[1]);
        assertEquals(3, c.length, "no rows_before_limit_at_least without LIMIT");
    }
}
