package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.List;

/**
 * Writes the JSON and JSONCompact formats with ClickHouse's exact tab-indented layout: a "meta" array of
 * column names and types, "data" (rows as objects, or as arrays in JSONCompact), "rows", optionally
 * "rows_before_limit_at_least", and a "statistics" object whose figures the caller sets through
 * {@link #setStatistics} before {@link #finish()}.
 */
public final class JsonWriter extends StatisticsWriter {
    private final ByteSink out;
    private final JsonOutput json;
    private final FormatSettings s;
    private final List<Column> columns;
    private final DataType[] types;
    private final byte[][] titles;
    private final boolean compact;
    private boolean started;
    private long rows;

    JsonWriter(OutputStream os, List<Column> columns, FormatSettings s, boolean compact) throws IOException {
        this.out = new ByteSink(os);
        this.json = new JsonOutput(out, s, true);
        this.s = s;
        this.columns = columns;
        this.compact = compact;
        this.types = new DataType[columns.size()];
        this.titles = new byte[columns.size()][];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
            titles[i] = JsonEachRowWriter.key(columns.get(i).name(), s);
        }
    }

    private void start() throws IOException {
        started = true;
        out.writeUtf8("{\n\t\"meta\":\n\t[\n");
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                out.writeUtf8(",\n");
            }
            out.writeUtf8("\t\t{\n\t\t\t\"name\": ");
            json.string(ByteStrings.fromText(columns.get(i).name()));
            out.writeUtf8(",\n\t\t\t\"type\": ");
            json.string(ByteStrings.fromText(types[i].name()));
            out.writeUtf8("\n\t\t}");
        }
        out.writeUtf8("\n\t],\n\n\t\"data\":\n\t[\n");
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        if (!started) {
            start();
        }
        if (rows++ > 0) {
            out.writeUtf8(",\n");
        }
        if (compact) {
            out.writeUtf8("\t\t[");
            for (int i = 0; i < types.length; i++) {
                if (i > 0) {
                    out.writeUtf8(", ");
                }
                json.value(types[i], row[i], false, 0);
            }
            out.write(']');
            return;
        }
        out.writeUtf8("\t\t{\n");
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                out.writeUtf8(",\n");
            }
            out.tabs(3);
            out.write(titles[i], 0, titles[i].length);
            out.write(' ');
            json.value(types[i], row[i], s.jsonPrettyPrint, 3);
        }
        out.writeUtf8("\n\t\t}");
    }

    @Override
    public void finish() throws IOException {
        if (!started) {
            start();
        }
        out.writeUtf8("\n\t],\n\n\t\"rows\": ");
        out.writeLong(rows);
        if (rowsBeforeLimit >= 0) {
            out.writeUtf8(",\n\n\t\"rows_before_limit_at_least\": ");
            out.writeLong(rowsBeforeLimit);
        }
        if (s.writeStatistics) {
            out.writeUtf8(",\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": ");
            out.writeUtf8(seconds(elapsed));
            out.writeUtf8(",\n\t\t\"rows_read\": ");
            out.writeLong(rowsRead);
            out.writeUtf8(",\n\t\t\"bytes_read\": ");
            out.writeLong(bytesRead);
            out.writeUtf8("\n\t}");
        }
        out.writeUtf8("\n}\n");
        out.flush();
    }

    /** A double in its shortest form, plain rather than scientific for ordinary magnitudes (0.000123). */
    static String seconds(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        if (Math.abs(d) >= 1e-7 && Math.abs(d) < 1e21) {
            return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
        }
        return Double.toString(d).replace("E", "e");
    }
}
