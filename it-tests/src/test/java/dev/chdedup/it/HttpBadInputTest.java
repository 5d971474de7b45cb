package dev.chdedup.it;

import static dev.chdedup.it.ClickHouseHttp.enc;
import static dev.chdedup.it.HttpInterfaceTest.bytes;
import static dev.chdedup.it.HttpInterfaceTest.le;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.exec.ServerInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input over plain HTTP: each request gets ClickHouse's error body ({@code Code: N. DB::Exception: ... (NAME)
 * (version V)}), the code in {@code X-ClickHouse-Exception-Code}, the status ClickHouse's
 * {@code exceptionCodeToHTTPStatus} gives that code (400 for parse errors, 404 for unknown things, 500 otherwise),
 * and nothing is written. After every test the table still holds exactly its two seed rows.
 */
class HttpBadInputTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static final Pattern ERROR = Pattern.compile("Code: (\\d+)\\. DB::Exception: (.+) \\(([A-Z_]+)\\) \\(version "
        + Pattern.quote(ServerInfo.VERSION) + "\\)\n", Pattern.DOTALL);
    private static final String SEED = "1\tone\t2024-01-01\n2\ttwo\t2024-01-02";

    @BeforeAll
    static void table() {
        STUB.scalar("CREATE TABLE b (id UInt64, s String, d Date) ENGINE = MergeTree ORDER BY id");
        STUB.scalar("INSERT INTO b VALUES (1, 'one', '2024-01-01'), (2, 'two', '2024-01-02')");
    }

    @AfterEach
    void nothingWritten() {
        assertEquals(SEED, STUB.scalar("SELECT * FROM b ORDER BY id"));
        assertEquals("1", STUB.scalar("SELECT count() FROM system.parts WHERE table = 'b' AND active"));
    }

    @Test
    void malformedSql() {
        expect(STUB.http().postSql("SELEC 1"), 400, 62, "SYNTAX_ERROR");
        expectParseError(STUB.http().postSql("INSERT INTO b VALUES (3, 'x', '2024-01-03'"));
        expect(STUB.http().postSql("INSERT INTO b (id, s VALUES (3, 'x', '2024-01-03')"), 400, 62, "SYNTAX_ERROR");
        expect(STUB.http().postSql("SELECT * FROM b WHERE"), 400, 62, "SYNTAX_ERROR");
        expect(STUB.http().postSql("   "), 400, 62, "SYNTAX_ERROR");
        expect(STUB.http().get("/", "query=" + enc("SELECT (1")), 400, 62, "SYNTAX_ERROR");
    }

    @Test
    void unknownThings() {
        expect(STUB.http().postSql("SELECT * FROM nope"), 404, 60, "UNKNOWN_TABLE");
        expect(STUB.http().postSql("INSERT INTO nope VALUES (1)"), 404, 60, "UNKNOWN_TABLE");
        expect(STUB.http().postSql("SELECT * FROM nodb.b"), 404, 81, "UNKNOWN_DATABASE");
        expect(STUB.http().postSql("SELECT nofunc(1)"), 404, 46, "UNKNOWN_FUNCTION");
        expect(STUB.http().postSql("SELECT 1 FORMAT NoSuchFormat"), 404, 73, "UNKNOWN_FORMAT");
        expect(STUB.http().insert("INSERT INTO b FORMAT NoSuchFormat", bytes("3\tx\t2024-01-03\n")), 404, 73, "UNKNOWN_FORMAT");
    }

    @Test
    void unknownSettings() {
        expect(STUB.http().post("foo=1", "SELECT 1"), 404, 115, "UNKNOWN_SETTING");
        expect(STUB.http().post("query=" + enc("INSERT INTO b FORMAT TabSeparated") + "&insert_dedup_token_typo=x",
            bytes("3\tx\t2024-01-03\n")), 404, 115, "UNKNOWN_SETTING");
        expect(STUB.http().postSql("SELECT 1 SETTINGS no_such_setting = 1"), 404, 115, "UNKNOWN_SETTING");
        expect(STUB.http().postSql("INSERT INTO b SETTINGS no_such_setting = 1 VALUES (3, 'x', '2024-01-03')"), 404, 115, "UNKNOWN_SETTING");
    }

    @Test
    void wrongTypesInValues() {
        expectParseError(STUB.http().postSql("INSERT INTO b VALUES (3, 'x', '2024-01-03'), ('four', 'y', '2024-01-04')"));
        expectParseError(STUB.http().insert("INSERT INTO b VALUES", bytes("(3, 'x', '2024-01-03'), (4, 'y', 'not a date')")));
        expectParseError(STUB.http().insert("INSERT INTO b VALUES", bytes("(3, 'x', '2024-01-03'), (4, 'y')")));
        expectParseError(STUB.http().insert("INSERT INTO b VALUES", bytes("(3, 'x', '2024-01-03'), (4, 'unterminated")));
    }

    @Test
    void wrongTypesInTabSeparated() {
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT TabSeparated", bytes("3\tx\t2024-01-03\nfour\ty\t2024-01-04\n")));
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT TabSeparated", bytes("3\tx\t2024-01-03\n4\ty\n")));
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT TabSeparated", bytes("3\tx\t2024-01-03\n4\ty\tnot-a-date\n")));
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT TabSeparated", bytes("3\tx\t2024-01-03\textra\n")));
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT CSV", bytes("3,x,2024-01-03\n4,\"unterminated\n")));
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT JSONEachRow", bytes("{\"id\":3,\"s\":\"x\",\"d\":\"2024-01-03\"}\n{\"id\":\"four\"}\n")));
    }

    /** A RowBinary body that ends inside a row: ClickHouse's CANNOT_READ_ALL_DATA, which its HTTP handler answers with 500. */
    @Test
    void truncatedRowBinary() throws IOException {
        byte[] rows = rowBinary(3, 4);
        for (int cut : new int[] {rows.length - 1, rows.length - 3, rows.length / 2 + 3}) {
            byte[] body = java.util.Arrays.copyOf(rows, cut);
            expect(STUB.http().insert("INSERT INTO b FORMAT RowBinary", body), 500, 33, "CANNOT_READ_ALL_DATA");
        }
    }

    /** A String length beyond format_binary_max_string_size (1 GiB): ClickHouse's TOO_LARGE_STRING_SIZE, status 500. */
    @Test
    void garbageStringLengthInRowBinary() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(le(3, 8));
        body.write(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f});
        body.write(new byte[64]);
        expect(STUB.http().insert("INSERT INTO b FORMAT RowBinary", body.toByteArray()), 500, 131, "TOO_LARGE_STRING_SIZE");
    }

    @Test
    void garbageBytesAsSql() {
        byte[] garbage = new byte[512];
        new Random(42).nextBytes(garbage);
        garbage[0] = (byte) 0xfe;
        expect(STUB.http().post("", garbage), 400, 62, "SYNTAX_ERROR");
        expect(STUB.http().post("", bytes("\u0000\u0001\u0002SELECT 1")), 400, 62, "SYNTAX_ERROR");
    }

    @Test
    void garbageBytesAsData() {
        byte[] garbage = new byte[4096];
        new Random(7).nextBytes(garbage);
        garbage[0] = 'z';
        ClickHouseHttp.Response tsv = STUB.http().insert("INSERT INTO b FORMAT TabSeparated", garbage);
        expectSomeError(tsv);
        ClickHouseHttp.Response values = STUB.http().insert("INSERT INTO b VALUES", garbage);
        expectParseError(values);
        ClickHouseHttp.Response json = STUB.http().insert("INSERT INTO b FORMAT JSONEachRow", garbage);
        expectSomeError(json);
        ClickHouseHttp.Response rowBinary = STUB.http().insert("INSERT INTO b FORMAT RowBinary", garbage);
        expectSomeError(rowBinary);
        ClickHouseHttp.Response compressed = STUB.http().post("decompress=1&query=" + enc("INSERT INTO b FORMAT TabSeparated"), garbage);
        expectSomeError(compressed);
    }

    /** A well-formed batch followed by a bad row in the same request: the good rows are not written either. */
    @Test
    void oneBadRowRejectsTheWholeInsert() throws IOException {
        StringBuilder tsv = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            tsv.append(100 + i).append("\trow ").append(i).append("\t2024-02-01\n");
        }
        tsv.append("bad\trow\t2024-02-01\n");
        expectParseError(STUB.http().insert("INSERT INTO b FORMAT TabSeparated", bytes(tsv.toString())));
        byte[] rb = rowBinary(100, 1000);
        expect(STUB.http().insert("INSERT INTO b FORMAT RowBinary", java.util.Arrays.copyOf(rb, rb.length - 1)), 500, 33, "CANNOT_READ_ALL_DATA");
    }

    private static byte[] rowBinary(int firstId, int count) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            body.write(le(firstId + i, 8));
            byte[] s = bytes("row " + i);
            body.write(s.length);
            body.write(s);
            body.write(le(19_800 + i % 100, 2));
        }
        return body.toByteArray();
    }

    /** Status, code header and ClickHouse's error text, with the expected code and name. */
    private static void expect(ClickHouseHttp.Response r, int status, int code, String name) {
        Matcher m = expectSomeError(r);
        assertEquals(code + " " + name, m.group(1) + " " + m.group(3), r::toString);
        assertEquals(status, r.status(), r::toString);
    }

    /**
     * Input ClickHouse cannot parse. Which parse error a given malformed input gets depends on ClickHouse's parser
     * path (fast streaming, template, expression fallback), so any of them is accepted; all are answered with 400.
     */
    private static void expectParseError(ClickHouseHttp.Response r) {
        Matcher m = expectSomeError(r);
        assertTrue(PARSE_ERRORS.contains(Integer.parseInt(m.group(1))), r::toString);
        assertEquals(400, r.status(), r::toString);
    }

    private static final java.util.Set<Integer> PARSE_ERRORS = java.util.Set.of(6, 25, 26, 27, 38, 41, 62, 72, 117);

    /**
     * Any ClickHouse error: the code header, a body in ClickHouse's format naming that code, and the status
     * ClickHouse's HTTP handler gives that code.
     */
    private static Matcher expectSomeError(ClickHouseHttp.Response r) {
        Matcher m = ERROR.matcher(r.text());
        assertTrue(m.matches(), () -> "not a ClickHouse error body: " + r);
        assertEquals(m.group(1), r.header("X-ClickHouse-Exception-Code"), r::toString);
        assertEquals("text/plain; charset=UTF-8", r.header("Content-Type"));
        assertEquals(httpStatus(Integer.parseInt(m.group(1))), r.status(), r::toString);
        return m;
    }

    /**
     * ClickHouse's src/Server/HTTP/exceptionCodeToHTTPStatus.cpp, transcribed for the codes whose number is certain;
     * every other code is 500.
     */
    static int httpStatus(int code) {
        switch (code) {
            case 194: // REQUIRED_PASSWORD
                return 401;
            case 192: case 193: case 516: case 497: // UNKNOWN_USER, WRONG_PASSWORD, AUTHENTICATION_FAILED, ACCESS_DENIED
                return 403;
            case 36: case 6: case 25: case 26: case 38: case 41: case 72: case 27: case 376: // BAD_ARGUMENTS, CANNOT_PARSE_*
            case 15: case 44: case 8: case 62: case 117: case 53: case 321: // DUPLICATE_COLUMN, ILLEGAL_COLUMN, THERE_IS_NO_COLUMN,
                // SYNTAX_ERROR, INCORRECT_DATA, TYPE_MISMATCH, VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
                return 400;
            case 60: case 46: case 47: case 50: case 56: case 81: case 115: case 63: case 73: // UNKNOWN_TABLE .. UNKNOWN_FORMAT
                return 404;
            case 48: // NOT_IMPLEMENTED
                return 501;
            case 209: // SOCKET_TIMEOUT
                return 503;
            case 159: // TIMEOUT_EXCEEDED
                return 408;
            default:
                return 500;
        }
    }
}
