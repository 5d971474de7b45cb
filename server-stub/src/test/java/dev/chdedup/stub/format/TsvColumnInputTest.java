package dev.chdedup.stub.format;

import static dev.chdedup.stub.format.FormatFixtures.cols;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.types.DataType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * TabSeparated read straight into columns (the insert's path, which reads plain integers, canonical DateTimes and
 * plain strings from the buffer) must give what reading rows and appending them gives (the path every value can
 * take), for values in and out of range, at every buffer boundary, and fail with the same error at the same row.
 */
class TsvColumnInputTest {
    private static final List<Column> COLUMNS = cols("u8 UInt8", "i8 Int8", "i32 Int32", "u64 UInt64", "i64 Int64", "s String",
        "t DateTime('UTC')", "k DateTime('Asia/Kolkata')", "fs FixedString(3)");

    private static final String[] INTS = {"0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "2147483647", "2147483648",
        "-2147483648", "-2147483649", "999999999999999999", "-999999999999999999", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "18446744073709551615", "18446744073709551616", "007", "+5", "1e3", "", "\\N", " 5", "5 ", "0x1F", "-", "12a"};
    private static final String[] DATE_TIMES = {"2023-11-14 22:13:20", "2023-11-14 23:59:59", "2023-11-15 00:00:00", "1970-01-01 00:00:00",
        "1969-12-31 23:59:59", "2105-12-31 23:59:59", "2106-02-07 06:28:15", "2024-02-29 12:00:00", "2023-02-29 12:00:00",
        "2023-11-14 24:00:00", "2023-11-14 23:60:00", "2023-11-14 23:00:60", "2023-11-14T22:13:20", "2023-11-14 2:13:20", "1700000000",
        "2023-11-14", "", "\\N", "2023-13-01 00:00:00", "2023-11-14 22:13:2x", "2023-11-14x22:13:20"};
    private static final String[] STRINGS = {"", "\\N", "NULL", "a", "row-12", "tab\\there", "back\\\\slash", "\\x41", "été", "abc", "ab",
        "abcd"};

    @Test
    void columnsEqualRowsOnRandomInput() throws Exception {
        Random rnd = new Random(20261202);
        int failures = 0;
        for (int round = 0; round < 300; round++) {
            StringBuilder in = new StringBuilder();
            int lines = 1 + rnd.nextInt(round % 10 == 0 ? 1500 : 40);
            int oddOneIn = new int[] {0, 30, 500}[round % 3]; // how often a field is an odd value (0: never), so that many rounds read far
            for (int l = 0; l < lines; l++) {
                for (int c = 0; c < COLUMNS.size(); c++) {
                    if (c > 0) {
                        in.append('\t');
                    }
                    in.append(field(rnd, COLUMNS.get(c).type(), oddOneIn == 0 || rnd.nextInt(oddOneIn) > 0));
                }
                in.append(rnd.nextInt(50) == 0 ? "\r\n" : "\n");
            }
            Map<String, String> settings = switch (round / 3 % 4) {
                case 1 -> Map.of("input_format_tsv_crlf_end_of_line", "1");
                case 2 -> Map.of("format_tsv_null_representation", "NULL");
                case 3 -> Map.of("input_format_tsv_empty_as_default", "0");
                default -> Map.of();
            };
            String fast = readColumns(in.toString(), settings);
            String slow = readRows(in.toString(), settings);
            assertEquals(slow, fast, "round " + round + " " + settings);
            if (slow.contains("error: ")) {
                failures++;
            }
        }
        assertTrue(failures > 20 && failures < 280, "some rounds fail and some read to the end: " + failures);
    }

    private static String field(Random rnd, DataType type, boolean valid) {
        String name = type.name();
        if (name.startsWith("DateTime")) {
            return valid ? String.format("2023-11-%02d %02d:%02d:%02d", 1 + rnd.nextInt(3), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60))
                : DATE_TIMES[rnd.nextInt(DATE_TIMES.length)];
        }
        if (name.equals("String")) {
            // "NULL" is a plain value except where it is the NULL representation
            return valid ? rnd.nextInt(50) == 0 ? "NULL" : "v" + rnd.nextInt(100_000) : STRINGS[rnd.nextInt(STRINGS.length)];
        }
        if (name.startsWith("FixedString")) {
            return valid ? "ab" : STRINGS[rnd.nextInt(STRINGS.length)];
        }
        return valid ? Integer.toString(rnd.nextInt(100)) : INTS[rnd.nextInt(INTS.length)];
    }

    private static RowReader open(String data, Map<String, String> settings) {
        return Formats.openInput("TabSeparated", new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)), COLUMNS,
            FormatSettings.of(settings), null);
    }

    /** The values read into columns, then the error if one stopped the reading. */
    private static String readColumns(String data, Map<String, String> settings) throws Exception {
        RowReader r = open(data, settings);
        assertTrue(r.readsColumns());
        IColumn.Mutable[] m = Columns.mutable(COLUMNS, 4);
        String error = "";
        int rows = 0;
        try {
            while (r.readInto(m)) {
                rows++;
            }
        } catch (ChException e) {
            error = "error: " + e.code() + " " + e.getMessage();
        }
        return render(Columns.finish(m), rows) + error;
    }

    /** The values read as rows and appended to columns as the insert completes them (a default for what was left out). */
    private static String readRows(String data, Map<String, String> settings) throws Exception {
        RowReader r = open(data, settings);
        IColumn.Mutable[] m = Columns.mutable(COLUMNS, 4);
        String error = "";
        int rows = 0;
        try {
            for (Object[] row; (row = r.next()) != null; rows++) {
                for (int c = 0; c < row.length; c++) {
                    DataType t = COLUMNS.get(c).type();
                    Object v = row[c] == RowReader.DEFAULT || row[c] == null && !t.isNullable() ? t.defaultValue() : row[c];
                    m[c].append(v);
                }
            }
        } catch (ChException e) {
            error = "error: " + e.code() + " " + e.getMessage();
        }
        return render(Columns.finish(m), rows) + error;
    }

    private static String render(IColumn[] cols, int rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            for (IColumn c : cols) {
                sb.append(c.get(i)).append('|');
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
