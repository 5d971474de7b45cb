package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The registry (names, aliases, content types) and a round trip of every type through every in/out pair. */
class FormatsTest {

    @ParameterizedTest
    @ValueSource(strings = {"TabSeparated", "TSV", "TSVRaw", "TabSeparatedWithNames", "TSVWithNamesAndTypes",
        "TabSeparatedRawWithNamesAndTypes", "CSV", "CSVWithNames", "CSVWithNamesAndTypes", "JSONEachRow",
        "Values", "RowBinary", "RowBinaryWithNames", "RowBinaryWithNamesAndTypes", "TSKV"})
    void everyTypeRoundTrips(String format) throws IOException {
        boolean raw = format.contains("Raw");
        FormatFixtures.assertRoundTrip(format, ALL, raw ? rawSafe(FormatFixtures.rows()) : FormatFixtures.rows());
        if (!format.equals("JSONEachRow")) {
            List<Object[]> special = FormatFixtures.specialFloatRows();
            FormatFixtures.assertRoundTrip(format, ALL, raw ? rawSafe(special) : special);
        }
    }

    /**
     * Raw formats do not escape, so a tab or line feed in a top-level string cannot survive them, and a string
     * that reads \N is NULL (or the default), as in ClickHouse.
     */
    private static List<Object[]> rawSafe(List<Object[]> rows) {
        for (Object[] r : rows) {
            for (String c : List.of("s", "ns")) {
                int i = FormatFixtures.indexOf(ALL, c);
                if (r[i] != null) {
                    r[i] = ((String) r[i]).replace('\t', ' ').replace('\n', ' ').replace("\\N", "\\n");
                }
            }
        }
        return rows;
    }

    @Test
    void namesAndAliasesResolve() {
        assertEquals("TabSeparated", Formats.canonicalName("TSV"));
        assertEquals("TabSeparated", Formats.canonicalName("tsv"));
        assertEquals("TabSeparatedRaw", Formats.canonicalName("TSVRaw"));
        assertEquals("TabSeparatedWithNames", Formats.canonicalName("TSVWithNames"));
        assertEquals("TabSeparatedWithNamesAndTypes", Formats.canonicalName("TSVWithNamesAndTypes"));
        assertEquals("JSONEachRow", Formats.canonicalName("JSONLines"));
        assertEquals("JSONEachRow", Formats.canonicalName("NDJSON"));
        assertEquals("RowBinaryWithNamesAndTypes", Formats.canonicalName("RowBinaryWithNamesAndTypes"));
        assertTrue(Formats.isKnown("Null"));
        assertFalse(Formats.isKnown("Parquet"));
        assertFalse(Formats.isKnown(null));
    }

    @Test
    void unknownFormatIsUnknownFormat() {
        ChException e = assertThrows(ChException.class, () -> Formats.canonicalName("NoSuchFormat"));
        assertEquals(ErrorCode.UNKNOWN_FORMAT, e.code());
        assertEquals("Unknown format NoSuchFormat", e.getMessage());
        assertThrows(ChException.class, () -> Formats.openOutput("Nope", new ByteArrayOutputStream(), ALL, null));
    }

    @Test
    void directionIsChecked() {
        ChException in = assertThrows(ChException.class,
            () -> Formats.openInput("JSON", new ByteArrayInputStream(new byte[0]), ALL, null, null));
        assertEquals("Format JSON is not suitable for input", in.getMessage());
        ChException out = assertThrows(ChException.class,
            () -> Formats.openOutput("RowBinaryWithDefaults", new ByteArrayOutputStream(), ALL, null));
        assertEquals("Format RowBinaryWithDefaults is not suitable for output", out.getMessage());
    }

    @Test
    void contentTypesAreClickHouses() {
        assertEquals("text/tab-separated-values; charset=UTF-8", Formats.contentType("TSV"));
        assertEquals("text/tab-separated-values; charset=UTF-8", Formats.contentType("TabSeparatedWithNamesAndTypes"));
        assertEquals("text/tab-separated-values; charset=UTF-8", Formats.contentType("TSKV"));
        assertEquals("text/csv; charset=UTF-8; header=absent", Formats.contentType("CSV"));
        assertEquals("text/csv; charset=UTF-8; header=present", Formats.contentType("CSVWithNames"));
        assertEquals("application/json; charset=UTF-8", Formats.contentType("JSON"));
        assertEquals("application/json; charset=UTF-8", Formats.contentType("JSONCompact"));
        assertEquals("application/x-ndjson; charset=UTF-8", Formats.contentType("JSONEachRow"));
        assertEquals("application/octet-stream", Formats.contentType("RowBinaryWithNamesAndTypes"));
        assertEquals("text/plain; charset=UTF-8", Formats.contentType("Values"));
        assertEquals("text/plain; charset=UTF-8", Formats.contentType("Null"));
    }

    @Test
    void nullFormatWritesNothing() throws IOException {
        assertEquals(0, FormatFixtures.write("Null", ALL, FormatFixtures.rows(), null).length);
    }

    @Test
    void aFailingStreamSurfacesAsIOException() {
        for (String f : List.of("TSV", "CSV", "JSONEachRow", "Values", "TSKV", "RowBinary")) {
            java.io.InputStream failing = new java.io.SequenceInputStream(
                new ByteArrayInputStream("{\"s\":\"ab".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                new java.io.InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("connection reset");
                    }
                });
            RowReader r = Formats.openInput(f, failing, FormatFixtures.cols("s String"), null, null);
            IOException e = assertThrows(IOException.class, () -> {
                while (r.next() != null) {
                    // keep reading until the stream fails
                }
            }, f);
            assertEquals("connection reset", e.getMessage(), f);
        }
    }

    @Test
    void emptyInputHasNoRows() throws IOException {
        for (String f : List.of("TSV", "TSVWithNamesAndTypes", "CSVWithNames", "JSONEachRow", "Values", "RowBinary",
            "RowBinaryWithNamesAndTypes", "TSKV")) {
            assertEquals(0, FormatFixtures.read(f, new byte[0], ALL, null, null).size(), f);
        }
    }
}
