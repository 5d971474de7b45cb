package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static dev.chdedup.stub.format.FormatFixtures.list;
import static dev.chdedup.stub.format.FormatFixtures.map;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.data.Column;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON and JSONCompact layouts, byte for byte as ClickHouse writes them. */
class JsonWriterTest {
    private static final List<Column> C = cols("number UInt64", "s String");
    private static final List<Object[]> ROWS = List.of(new Object[] {0L, "a"}, new Object[] {1L, "b/c"});

    private static String write(String format, List<Column> c, List<Object[]> rows, Map<String, String> settings,
                                boolean stats) throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        RowWriter w = Formats.openOutput(format, bo, c, FormatSettings.of(settings));
        for (Object[] r : rows) {
            w.writeRow(r);
        }
        if (stats) {
            w.setStatistics(0.001185208, 2, 16);
        }
        w.finish();
        return bo.toString(StandardCharsets.UTF_8);
    }

    private static final String META = "{\n\t\"meta\":\n\t[\n\t\t{\n\t\t\t\"name\": \"number\",\n\t\t\t\"type\": \"UInt64\"\n"
        + "\t\t},\n\t\t{\n\t\t\t\"name\": \"s\",\n\t\t\t\"type\": \"String\"\n\t\t}\n\t],\n\n";
    private static final String STATS = ",\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0.001185208,\n\t\t\"rows_read\": 2,\n"
        + "\t\t\"bytes_read\": 16\n\t}\n}\n";

    @Test
    void jsonLayout() throws IOException {
        assertEquals(META + "\t\"data\":\n\t[\n\t\t{\n\t\t\t\"number\": 0,\n\t\t\t\"s\": \"a\"\n\t\t},\n"
            + "\t\t{\n\t\t\t\"number\": 1,\n\t\t\t\"s\": \"b\\/c\"\n\t\t}\n\t],\n\n\t\"rows\": 2" + STATS,
            write("JSON", C, ROWS, Map.of(), true));
    }

    @Test
    void jsonCompactLayout() throws IOException {
        assertEquals(META + "\t\"data\":\n\t[\n\t\t[0, \"a\"],\n\t\t[1, \"b\\/c\"]\n\t],\n\n\t\"rows\": 2" + STATS,
            write("JSONCompact", C, ROWS, Map.of(), true));
    }

    @Test
    void emptyResultAndNoStatistics() throws IOException {
        assertEquals(META + "\t\"data\":\n\t[\n\n\t],\n\n\t\"rows\": 0,\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0,\n"
            + "\t\t\"rows_read\": 0,\n\t\t\"bytes_read\": 0\n\t}\n}\n", write("JSON", C, List.of(), Map.of(), false));
        assertEquals(META + "\t\"data\":\n\t[\n\n\t],\n\n\t\"rows\": 0\n}\n",
            write("JSON", C, List.of(), Map.of("output_format_write_statistics", "0"), false));
    }

    @Test
    void rowsBeforeLimit() throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        RowWriter w = Formats.openOutput("JSONCompact", bo, C, FormatSettings.of(Map.of("output_format_write_statistics",
            "0")));
        w.writeRow(ROWS.get(0));
        w.setRowsBeforeLimit(10);
        w.finish();
        assertEquals(META + "\t\"data\":\n\t[\n\t\t[0, \"a\"]\n\t],\n\n\t\"rows\": 1,\n\n"
            + "\t\"rows_before_limit_at_least\": 10\n}\n", bo.toString(StandardCharsets.UTF_8));
    }

    @Test
    void nestedValuesArePrettyPrintedInJsonOnly() throws IOException {
        List<Column> c = cols("a Array(UInt8)", "m Map(String, Array(UInt8))", "t Tuple(x Int8, y String)", "e Array(UInt8)");
        List<Object[]> rows = List.<Object[]>of(new Object[] {list(1L, 2L), map("k", list(3L)), list(4L, "z"), list()});
        String json = write("JSON", c, rows, Map.of("output_format_write_statistics", "0"), false);
        String data = json.substring(json.indexOf("\t\"data\""));
        assertEquals("\t\"data\":\n\t[\n\t\t{\n\t\t\t\"a\": [\n\t\t\t\t1,\n\t\t\t\t2\n\t\t\t],\n"
            + "\t\t\t\"m\": {\n\t\t\t\t\"k\": [\n\t\t\t\t\t3\n\t\t\t\t]\n\t\t\t},\n"
            + "\t\t\t\"t\": {\n\t\t\t\t\"x\": 4,\n\t\t\t\t\"y\": \"z\"\n\t\t\t},\n\t\t\t\"e\": []\n\t\t}\n\t],\n\n"
            + "\t\"rows\": 1\n}\n", data);
        String flat = write("JSON", c, rows, Map.of("output_format_write_statistics", "0",
            "output_format_json_pretty_print", "0"), false);
        assertEquals("\t\t{\n\t\t\t\"a\": [1,2],\n\t\t\t\"m\": {\"k\":[3]},\n\t\t\t\"t\": {\"x\":4,\"y\":\"z\"},\n"
            + "\t\t\t\"e\": []\n\t\t}", flat.substring(flat.indexOf("\t\t{\n\t\t\t\"a\""), flat.lastIndexOf("\n\t],")));
        String compact = write("JSONCompact", c, rows, Map.of("output_format_write_statistics", "0"), false);
        assertEquals(true, compact.contains("\t\t[[1,2], {\"k\":[3]}, {\"x\":4,\"y\":\"z\"}, []]\n"), compact);
    }

    @Test
    void secondsFormatting() {
        assertEquals("0", JsonWriter.seconds(0));
        assertEquals("0.000123", JsonWriter.seconds(0.000123));
        assertEquals("1.5", JsonWriter.seconds(1.5));
        assertEquals("12", JsonWriter.seconds(12));
    }
}
