package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * String and FixedString values are bytes: random byte strings (every byte value, invalid UTF-8, NUL, the bytes
 * every format escapes) written by each format and read back by it must come back byte for byte, in plain,
 * Nullable, LowCardinality, Array and Map columns; and a value read from raw bytes holds exactly those bytes.
 */
class ByteStringRoundTripTest {
    private static final List<Column> C = cols("s String", "fs FixedString(5)", "n Nullable(String)",
        "lc LowCardinality(String)", "a Array(String)", "m Map(String, String)", "t Tuple(String, UInt8)");

    /** A byte string of random bytes; a third of them only from the bytes formats treat specially. */
    static String randomBytes(Random rnd, int max) {
        byte[] b = new byte[rnd.nextInt(max + 1)];
        byte[] special = {0, '\t', '\n', '\r', '\\', '\'', '"', ',', '=', '{', '}', '[', ']', (byte) 0xFF, (byte) 0x80,
            (byte) 0xC3, (byte) 0xE2, (byte) 0xA8, (byte) 0xEF, (byte) 0xBF, (byte) 0xBD, 'N', 'x'};
        boolean picky = rnd.nextInt(3) == 0;
        for (int i = 0; i < b.length; i++) {
            b[i] = picky ? special[rnd.nextInt(special.length)] : (byte) rnd.nextInt(256);
        }
        return ByteStrings.of(b);
    }

    static List<Object[]> randomRows(long seed, int n) {
        Random rnd = new Random(seed);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String fs = randomBytes(rnd, 5);
            fs = fs + "\0".repeat(5 - fs.length());
            rows.add(new Object[] {randomBytes(rnd, 40), fs, rnd.nextBoolean() ? null : randomBytes(rnd, 10),
                randomBytes(rnd, 10), List.of(randomBytes(rnd, 8), randomBytes(rnd, 8)),
                FormatFixtures.map(randomBytes(rnd, 6), randomBytes(rnd, 6)), List.of(randomBytes(rnd, 8), 7L)});
        }
        // every byte value once, alone and in one string
        for (int v = 0; v < 256; v++) {
            String one = String.valueOf((char) v);
            rows.add(new Object[] {one, one + "\0\0\0\0", one, one, List.of(one), FormatFixtures.map(one, one), List.of(one, 1L)});
        }
        StringBuilder all = new StringBuilder();
        for (int v = 0; v < 256; v++) {
            all.append((char) v);
        }
        rows.add(new Object[] {all.toString(), "\u00ff\u00fe\0\u0080\u00c3", null, "", List.of(), FormatFixtures.map(),
            List.of("", 0L)});
        return rows;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RowBinary", "RowBinaryWithNames", "RowBinaryWithNamesAndTypes", "TSV", "TSVWithNames",
        "TSVWithNamesAndTypes", "CSV", "CSVWithNames", "CSVWithNamesAndTypes", "TSKV", "JSONEachRow", "Values"})
    void randomBytesRoundTrip(String format) throws IOException {
        // CSV reads a tuple whose string starts with '(' as a nested tuple (a limit of its own, not about bytes)
        List<Column> c = format.startsWith("CSV") ? C.subList(0, C.size() - 1) : C;
        for (long seed = 1; seed <= 5; seed++) {
            List<Object[]> rows = randomRows(seed * 7919 + format.hashCode(), 60);
            if (c != C) {
                rows.replaceAll(r -> Arrays.copyOf(r, c.size()));
            }
            byte[] data = FormatFixtures.write(format, c, rows, FormatSettings.DEFAULTS);
            List<Object[]> back = FormatFixtures.read(format, data, c, FormatSettings.DEFAULTS, null);
            FormatFixtures.assertRows(rows, back, format + " seed " + seed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"TSVRaw", "CSV", "TSV", "RowBinary"})
    void rawInputBytesAreKept(String format) throws IOException {
        List<Column> one = cols("s String");
        byte[] v = {(byte) 0xFF, (byte) 0xFE, 0x41, (byte) 0xC3, (byte) 0xBC, (byte) 0x80};
        byte[] in = format.equals("RowBinary") ? concat(new byte[] {(byte) v.length}, v) : concat(v, new byte[] {'\n'});
        List<Object[]> r = FormatFixtures.read(format, in, one, FormatSettings.DEFAULTS, null);
        assertEquals(1, r.size());
        assertEquals("FFFE41C3BC80", HexFormat.of().withUpperCase().formatHex(ByteStrings.bytes((String) r.get(0)[0])));
        byte[] expected = format.equals("CSV") ? concat(new byte[] {'"'}, v, new byte[] {'"', '\n'}) : in;
        assertArrayEquals(expected, FormatFixtures.write(format.equals("TSVRaw") ? "TSV" : format, one, r,
            FormatSettings.DEFAULTS), "written back as the same bytes");
    }

    @Test
    void jsonReplacesInvalidUtf8WhileJsonEachRowKeepsItUnlessAsked() throws IOException {
        List<Column> one = cols("s String");
        String v = ByteStrings.of(new byte[] {'a', (byte) 0xFF, (byte) 0xC3, (byte) 0xBC, (byte) 0xE2, (byte) 0x80,
            (byte) 0xA8, (byte) 0xC3});
        List<Object[]> rows = List.<Object[]>of(new Object[] {v});
        byte[] each = FormatFixtures.write("JSONEachRow", one, rows, FormatSettings.DEFAULTS);
        assertArrayEquals(concat("{\"s\":\"a".getBytes(StandardCharsets.US_ASCII),
            new byte[] {(byte) 0xFF, (byte) 0xC3, (byte) 0xBC}, "\\u2028".getBytes(StandardCharsets.US_ASCII),
            new byte[] {(byte) 0xC3}, "\"}\n".getBytes(StandardCharsets.US_ASCII)), each);
        byte[] valid = FormatFixtures.write("JSONEachRow", one, rows,
            FormatSettings.of(Map.of("output_format_json_validate_utf8", "1")));
        assertEquals("{\"s\":\"a\ufffd\u00fc\\u2028\ufffd\"}\n", new String(valid, StandardCharsets.UTF_8));
        String json = new String(FormatFixtures.write("JSON", one, rows, FormatSettings.DEFAULTS), StandardCharsets.UTF_8);
        assertEquals(true, json.contains("\"s\": \"a\ufffd\u00fc\\u2028\ufffd\""), json);
    }

    @Test
    void namesStayTextWhileValuesAreBytes() throws IOException {
        List<Column> c = cols("\u00e9t\u00e9 String", "e Enum8('\u00fc' = 1, '\u20ac' = 2)");
        List<Object[]> rows = List.<Object[]>of(new Object[] {ByteStrings.fromText("\u00fc"), 2L});
        assertEquals("\u00e9t\u00e9\te\nString\tEnum8(\\'\u00fc\\' = 1, \\'\u20ac\\' = 2)\n\u00fc\t\u20ac\n",
            new String(FormatFixtures.write("TSVWithNamesAndTypes", c, rows, FormatSettings.DEFAULTS), StandardCharsets.UTF_8));
        assertEquals("{\"\u00e9t\u00e9\":\"\u00fc\",\"e\":\"\u20ac\"}\n",
            new String(FormatFixtures.write("JSONEachRow", c, rows, FormatSettings.DEFAULTS), StandardCharsets.UTF_8));
        List<Object[]> back = FormatFixtures.read("TSVWithNames",
            "e\t\u00e9t\u00e9\n\u00fc\t\u00fc\n".getBytes(StandardCharsets.UTF_8), c, FormatSettings.DEFAULTS, null);
        assertEquals(Arrays.asList(ByteStrings.fromText("\u00fc"), 1L), Arrays.asList(back.get(0)));
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
