package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.exec.EngineAnswers;
import dev.chdedup.stub.junit.StubServerExtension;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * RowBinary and RowBinaryWithDefaults input held to bytes and answers recorded from the engine (ClickHouse 26.7 as
 * chDB, fed with {@code INSERT ... FROM INFILE}): a value of each type in its RowBinary form, as the engine writes it,
 * inserted plain, after a 0 marker and as a 1 marker (the column's default), reads back as the engine shows it and
 * comes out of {@code FORMAT RowBinary} byte for byte; every cut of it fails as the engine's does (a varint cut short
 * is ATTEMPT_TO_READ_AFTER_EOF, any other value CANNOT_READ_ALL_DATA) and writes nothing. Then tables: DEFAULT
 * expressions behind the markers, an Enum code outside the enum kept (a marker on an Enum without DEFAULT is code 0),
 * Nested flattened (its arrays must agree in size) and not (flatten_nested = 0), sizes refused.
 */
class RowBinaryInputEngineTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final HexFormat HEX = HexFormat.of();

    /**
     * {type, the engine's RowBinary of a value, the engine's TSV of the rows (1: the value, 2: after a 0 marker, 3: a
     * 1 marker), the engine's RowBinary of the three, the engine's error for each cut of the value after one byte of i
     * (c: CANNOT_READ_ALL_DATA, e: ATTEMPT_TO_READ_AFTER_EOF)}.
     */
    private static final String[][] TYPES = {
        {"Int8", "80", "1\t-128\n2\t-128\n3\t0", "808000", ""},
        {"UInt8", "ff", "1\t255\n2\t255\n3\t0", "ffff00", ""},
        {"Int16", "feff", "1\t-2\n2\t-2\n3\t0", "fefffeff0000", "c"},
        {"UInt16", "ffff", "1\t65535\n2\t65535\n3\t0", "ffffffff0000", "c"},
        {"Int32", "c01dfeff", "1\t-123456\n2\t-123456\n3\t0", "c01dfeffc01dfeff00000000", "ccc"},
        {"UInt32", "ffffffff", "1\t4294967295\n2\t4294967295\n3\t0", "ffffffffffffffff00000000", "ccc"},
        {"Int64", "0000000000000080", "1\t-9223372036854775808\n2\t-9223372036854775808\n3\t0", "000000000000008000000000000000800000000000000000", "ccccccc"},
        {"UInt64", "ffffffffffffffff", "1\t18446744073709551615\n2\t18446744073709551615\n3\t0", "ffffffffffffffffffffffffffffffff0000000000000000", "ccccccc"},
        {"Int128", "0100000000000080ffffffffffffff7f", "1\t170141183460469231722463931679029329921\n2\t170141183460469231722463931679029329921\n3\t0", "0100000000000080ffffffffffffff7f0100000000000080ffffffffffffff7f00000000000000000000000000000000", "ccccccccccccccc"},
        {"UInt128", "0100000000000000feffffffffffffff", "1\t340282366920938463426481119284349108225\n2\t340282366920938463426481119284349108225\n3\t0", "0100000000000000feffffffffffffff0100000000000000feffffffffffffff00000000000000000000000000000000", "ccccccccccccccc"},
        {"Int256", "979c808df7fff7aad2c6fee410000855969c808df7ffffffffffffffffffffff", "1\t-12345678901234566659059819926545389922366292714345\n2\t-12345678901234566659059819926545389922366292714345\n3\t0", "979c808df7fff7aad2c6fee410000855969c808df7ffffffffffffffffffffff979c808df7fff7aad2c6fee410000855969c808df7ffffffffffffffffffffff0000000000000000000000000000000000000000000000000000000000000000", "ccccccccccccccccccccccccccccccc"},
        {"UInt256", "0100000000000000fcffffffffffffff0500000000000000fcffffffffffffff", "1\t115792089237316195398462578067141184799968521174335529155754622898352762650625\n2\t115792089237316195398462578067141184799968521174335529155754622898352762650625\n3\t0", "0100000000000000fcffffffffffffff0500000000000000fcffffffffffffff0100000000000000fcffffffffffffff0500000000000000fcffffffffffffff0000000000000000000000000000000000000000000000000000000000000000", "ccccccccccccccccccccccccccccccc"},
        {"Float32", "0000c0bf", "1\t-1.5\n2\t-1.5\n3\t0", "0000c0bf0000c0bf00000000", "ccc"},
        {"Float64", "9a9999999999b9bf", "1\t-0.1\n2\t-0.1\n3\t0", "9a9999999999b9bf9a9999999999b9bf0000000000000000", "ccccccc"},
        {"Bool", "01", "1\ttrue\n2\ttrue\n3\tfalse", "010100", ""},
        {"String", "0868c3a96c6c6f000a", "1\théllo\\0\\n\n2\théllo\\0\\n\n3\t", "0868c3a96c6c6f000a0868c3a96c6c6f000a00", "cccccccc"},
        {"FixedString(4)", "61620000", "1\tab\\0\\0\n2\tab\\0\\0\n3\t\\0\\0\\0\\0", "616200006162000000000000", "ccc"},
        {"Date", "464d", "1\t2024-02-29\n2\t2024-02-29\n3\t1970-01-01", "464d464d0000", "c"},
        {"Date32", "219cffff", "1\t1900-01-01\n2\t1900-01-01\n3\t1970-01-01", "219cffff219cffff00000000", "ccc"},
        {"DateTime", "257d9365", "1\t2024-01-02 03:04:05\n2\t2024-01-02 03:04:05\n3\t1970-01-01 00:00:00", "257d9365257d936500000000", "ccc"},
        {"DateTime('Asia/Tokyo')", "95fe9265", "1\t2024-01-02 03:04:05\n2\t2024-01-02 03:04:05\n3\t1970-01-01 09:00:00", "95fe926595fe926500000000", "ccc"},
        {"DateTime64(3)", "2edb20c88c010000", "1\t2024-01-02 03:04:05.678\n2\t2024-01-02 03:04:05.678\n3\t1970-01-01 00:00:00.000", "2edb20c88c0100002edb20c88c0100000000000000000000", "ccccccc"},
        {"DateTime64(9, 'UTC')", "1503c1cbffffffff", "1\t1969-12-31 23:59:59.123456789\n2\t1969-12-31 23:59:59.123456789\n3\t1970-01-01 00:00:00.000000000", "1503c1cbffffffff1503c1cbffffffff0000000000000000", "ccccccc"},
        {"Decimal(9, 2)", "ec32a4f8", "1\t-1234567.88\n2\t-1234567.88\n3\t0", "ec32a4f8ec32a4f800000000", "ccc"},
        {"Decimal(18, 4)", "50f330a64b9bb601", "1\t12345678901234.568\n2\t12345678901234.568\n3\t0", "50f330a64b9bb60150f330a64b9bb6010000000000000000", "ccccccc"},
        {"Decimal(38, 10)", "003302f0f6b049f9ffccfd0f094fb6f6", "1\t-1234567890123456752597498551.7127552256\n2\t-1234567890123456752597498551.7127552256\n3\t0", "003302f0f6b049f9ffccfd0f094fb6f6003302f0f6b049f9ffccfd0f094fb6f600000000000000000000000000000000", "ccccccccccccccc"},
        {"Decimal(76, 20)", "69637f72080008552d39011beffff7aa69637f72080000000000000000000000", "1\t123456789012345666590598199265.45389922366292714345\n2\t123456789012345666590598199265.45389922366292714345\n3\t0", "69637f72080008552d39011beffff7aa69637f7208000000000000000000000069637f72080008552d39011beffff7aa69637f720800000000000000000000000000000000000000000000000000000000000000000000000000000000000000", "ccccccccccccccccccccccccccccccc"},
        {"UUID", "efcdab8967452301efcdab8967452301", "1\t01234567-89ab-cdef-0123-456789abcdef\n2\t01234567-89ab-cdef-0123-456789abcdef\n3\t00000000-0000-0000-0000-000000000000", "efcdab8967452301efcdab8967452301efcdab8967452301efcdab896745230100000000000000000000000000000000", "ccccccccccccccc"},
        {"IPv4", "0302010a", "1\t10.1.2.3\n2\t10.1.2.3\n3\t0.0.0.0", "0302010a0302010a00000000", "ccc"},
        {"IPv6", "20010db8000000000000000000000001", "1\t2001:db8::1\n2\t2001:db8::1\n3\t::", "20010db800000000000000000000000120010db800000000000000000000000100000000000000000000000000000000", "ccccccccccccccc"},
        {"IPv6", "00000000000000000000ffff01020304", "1\t::ffff:1.2.3.4\n2\t::ffff:1.2.3.4\n3\t::", "00000000000000000000ffff0102030400000000000000000000ffff0102030400000000000000000000000000000000", "ccccccccccccccc"},
        {"Enum8('a' = -1, 'b' = 2)", "ff", "Code: 691 UNKNOWN_ELEMENT_OF_ENUM", "ffff00", ""},
        {"Enum16('x' = 1000, 'y' = -1000)", "18fc", "Code: 691 UNKNOWN_ELEMENT_OF_ENUM", "18fc18fc0000", "c"},
        {"Nullable(Int32)", "01", "1\t\\N\n2\t\\N\n3\t\\N", "010101", ""},
        {"Nullable(Int32)", "0005000000", "1\t5\n2\t5\n3\t\\N", "0005000000000500000001", "cccc"},
        {"Nullable(String)", "000173", "1\ts\n2\ts\n3\t\\N", "00017300017301", "ec"},
        {"LowCardinality(String)", "026c63", "1\tlc\n2\tlc\n3\t", "026c63026c6300", "cc"},
        {"LowCardinality(Nullable(String))", "01", "1\t\\N\n2\t\\N\n3\t\\N", "010101", ""},
        {"LowCardinality(Nullable(String))", "000176", "1\tv\n2\tv\n3\t\\N", "00017600017601", "ec"},
        {"Array(Int32)", "03010000000200000003000000", "1\t[1,2,3]\n2\t[1,2,3]\n3\t[]", "030100000002000000030000000301000000020000000300000000", "cccccccccccc"},
        {"Array(Nullable(String))", "0200016101", "1\t['a',NULL]\n2\t['a',NULL]\n3\t[]", "0200016101020001610100", "cecc"},
        {"Array(Array(UInt8))", "03010100020203", "1\t[[1],[],[2,3]]\n2\t[[1],[],[2,3]]\n3\t[]", "030101000202030301010002020300", "eceecc"},
        {"Map(String, Int32)", "02016101000000016202000000", "1\t{'a':1,'b':2}\n2\t{'a':1,'b':2}\n3\t{}", "020161010000000162020000000201610100000001620200000000", "eccccceccccc"},
        {"Map(Int8, Array(String))", "02ff0101780200", "1\t{-1:['x'],2:[]}\n2\t{-1:['x'],2:[]}\n3\t{}", "02ff010178020002ff010178020000", "ceecce"},
        {"Map(String, Nullable(UInt64))", "00", "1\t{}\n2\t{}\n3\t{}", "000000", ""},
        {"Tuple(Int32, String)", "010000000161", "1\t(1,'a')\n2\t(1,'a')\n3\t(0,'')", "0100000001610100000001610000000000", "cccec"},
        {"Tuple(a Int32, b Nullable(String))", "f9ffffff01", "1\t(-7,NULL)\n2\t(-7,NULL)\n3\t(0,NULL)", "f9ffffff01f9ffffff010000000001", "cccc"},
        {"Array(Tuple(UInt8, Map(String, String)))", "010101016b0176", "1\t[(1,{'k':'v'})]\n2\t[(1,{'k':'v'})]\n3\t[]", "010101016b0176010101016b017600", "ceecec"},
        {"BFloat16", "c03f", "1\t1.5\n2\t1.5\n3\t0", "c03fc03f0000", "c"},
        {"Array(LowCardinality(String))", "0201700171", "1\t['p','q']\n2\t['p','q']\n3\t[]", "0201700171020170017100", "ecec"}
    };

    /** {columns, URL parameters of the CREATE, format, input, query, the engine's answer}. */
    private static final String[][] TABLES = {
        {"i Int32, d Int32 DEFAULT i * 2, n Nullable(Int8) DEFAULT -1", "", "RowBinaryWithDefaults", "00050000000101000600000000feffffff00010007000000010000ff", "SELECT * FROM t ORDER BY i", "5\t10\t-1\n6\t-2\t\\N\n7\t14\t-1"},
        {"i Int32, s String DEFAULT concat('s', toString(i)), a Array(UInt8) DEFAULT [1, 2], m Map(String, UInt8) DEFAULT map('k', 1)", "", "RowBinaryWithDefaults", "0001000000010101000200000000017800000000", "SELECT * FROM t ORDER BY i", "1\ts1\t[1,2]\t{'k':1}\n2\tx\t[]\t{}"},
        {"i UInt8, e Enum8('a' = 1, 'b' = 2), f Enum8('a' = 1, 'b' = 2) DEFAULT 'b'", "", "RowBinaryWithDefaults", "00010101000200070001", "SELECT i, CAST(e AS Int8), CAST(f AS Int8) FROM t ORDER BY i", "1\t0\t2\n2\t7\t1"},
        {"i UInt8, e Enum8('a' = 1, 'b' = 2)", "", "RowBinary", "0100021a0302", "SELECT i, CAST(e AS Int8) FROM t ORDER BY i", "1\t0\n2\t26\n3\t2"},
        {"i UInt8, e Enum8('a' = 1, 'b' = 2)", "", "RowBinary", "0100", "SELECT * FROM t", "Code: 691 UNKNOWN_ELEMENT_OF_ENUM"},
        {"i UInt8, n Nested(a Int32, b String)", "", "RowBinary", "010205000000060000000201780179", "SELECT * FROM t ORDER BY i", "1\t[5,6]\t['x','y']"},
        {"i UInt8, n Nested(a Int32, b String)", "", "RowBinary", "01020500000006000000010178", "SELECT * FROM t", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
        {"i UInt8, n Nested(a Int32, b String)", "", "RowBinaryWithDefaults", "000100010500000001", "SELECT * FROM t", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
        {"i UInt8, n Nested(a Int32, b String)", "flatten_nested=0", "RowBinary", "0102050000000178060000000179", "SELECT * FROM t ORDER BY i", "1\t[(5,'x'),(6,'y')]"},
        {"i UInt8, n Nested(a Int32, b Nullable(String)), m Map(String, Nested(x UInt8))", "flatten_nested=0", "RowBinaryWithDefaults", "0001000105000000010001016b010700020101", "SELECT * FROM t ORDER BY i", "1\t[(5,NULL)]\t{'k':[(7)]}\n2\t[]\t{}"},
        {"i UInt8, s String", "", "RowBinary", "04", "SELECT * FROM t", "Code: 32 ATTEMPT_TO_READ_AFTER_EOF"},
        {"i UInt8, s String", "", "RowBinary", "0480", "SELECT * FROM t", "Code: 32 ATTEMPT_TO_READ_AFTER_EOF"},
        {"i UInt8, s String", "", "RowBinary", "040261", "SELECT * FROM t", "Code: 33 CANNOT_READ_ALL_DATA"},
        {"i UInt8, s String", "", "RowBinaryWithDefaults", "0004", "SELECT * FROM t", "Code: 33 CANNOT_READ_ALL_DATA"},
        {"i UInt8, s String", "", "RowBinaryWithDefaults", "0205", "SELECT * FROM t", "0\t"},
        {"i UInt8, s String", "", "RowBinary", "04ffffffff0f", "SELECT * FROM t", "Code: 131 TOO_LARGE_STRING_SIZE"},
        {"i UInt8, a Array(Int8)", "", "RowBinary", "048180808004", "SELECT * FROM t", "Code: 128 TOO_LARGE_ARRAY_SIZE"},
        {"i UInt8, m Map(String, String)", "", "RowBinary", "04ffffffff0f", "SELECT * FROM t", "Code: 128 TOO_LARGE_ARRAY_SIZE"},
        {"i UInt8, m Map(String, String)", "", "RowBinary", "0101016b01760201016b", "SELECT * FROM t", "Code: 32 ATTEMPT_TO_READ_AFTER_EOF"},
        {"i UInt8, b Bool, n Nullable(UInt8)", "", "RowBinary", "01020702000005", "SELECT * FROM t ORDER BY i", "1\ttrue\t\\N\n2\tfalse\t5"},
        {"i UInt8, l LowCardinality(Nullable(String)), t Tuple(a UInt8, b Array(String))", "", "RowBinaryWithDefaults", "000100000178000701017900020101", "SELECT * FROM t ORDER BY i", "1\tx\t(7,['y'])\n2\t\\N\t(0,[])"}
    };

    @Test
    void eachTypeReadsAsTheEngineWritesIt() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String[] c : TYPES) {
            byte[] value = HEX.parseHex(c[1]);
            answer("", "DROP TABLE IF EXISTS t", null);
            answer("", "CREATE TABLE t (i UInt8, x " + c[0] + ") ENGINE = Memory", null);
            check(wrong, c[0] + " RowBinary", "", answer("", "INSERT INTO t FORMAT RowBinary", concat(new byte[] {1}, value)));
            check(wrong, c[0] + " RowBinaryWithDefaults", "", answer("", "INSERT INTO t FORMAT RowBinaryWithDefaults",
                concat(new byte[] {0, 2, 0}, value, new byte[] {0, 3, 1})));
            check(wrong, c[0] + " rows", c[2], answer("", "SELECT * FROM t ORDER BY i FORMAT TSV", null));
            check(wrong, c[0] + " bytes", c[3], HEX.formatHex(post("", "SELECT x FROM t ORDER BY i FORMAT RowBinary", null).body()));
            StringBuilder cuts = new StringBuilder();
            for (int k = 1; k < value.length; k++) {
                String a = answer("", "INSERT INTO t FORMAT RowBinary", concat(new byte[] {4}, Arrays.copyOf(value, k)));
                cuts.append(a.equals("Code: 33 CANNOT_READ_ALL_DATA") ? "c" : a.equals("Code: 32 ATTEMPT_TO_READ_AFTER_EOF") ? "e" : "?");
            }
            check(wrong, c[0] + " cut short", c[4], cuts.toString());
            check(wrong, c[0] + " rows after the cuts", "3", answer("", "SELECT count() FROM t", null));
        }
        assertEquals("", String.join("\n", wrong));
    }

    @Test
    void tablesReadAsTheEngineReadsThem() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String[] c : TABLES) {
            answer("", "DROP TABLE IF EXISTS t", null);
            answer(c[1], "CREATE TABLE t (" + c[0] + ") ENGINE = Memory", null);
            String inserted = answer("", "INSERT INTO t FORMAT " + c[2], HEX.parseHex(c[3]));
            check(wrong, c[0] + " " + c[2] + " " + c[3], c[5], inserted.isEmpty() ? answer("", c[4], null) : inserted);
        }
        assertEquals("", String.join("\n", wrong));
    }

    private static void check(List<String> wrong, String what, String engine, String stub) {
        if (!engine.equals(stub)) {
            wrong.add(what + "\n    engine: " + engine + "\n    stub:   " + stub);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    /** {@code sql} with {@code data} as the body (or as the body itself), with {@code params} added to the URL. */
    private static HttpResponse<byte[]> post(String params, String sql, byte[] data) throws Exception {
        String url = STUB.httpUrl() + "/?" + params + (data == null ? "" : "&query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
        byte[] body = data == null ? sql.getBytes(StandardCharsets.UTF_8) : data;
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String answer(String params, String sql, byte[] data) throws Exception {
        return EngineAnswers.asRecorded(post(params, sql, data).body());
    }
}
