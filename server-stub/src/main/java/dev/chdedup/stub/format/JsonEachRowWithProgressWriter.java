package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes JSONEachRowWithProgress and JSONCompactEachRowWithProgress as ClickHouse 25.x does: one JSON object per
 * line, first {@code {"meta":[{"name":..,"type":..},..]}}, then {@code {"row":{..}}} (an array of values for the
 * compact form) per row, then {@code {"progress":{"read_rows":..,"read_bytes":..,"total_rows_to_read":..,
 * "elapsed_ns":..}}} with the query's figures and, after a LIMIT, {@code {"rows_before_limit_at_least":N}}.
 * Mirrors ClickHouse's {@code JSONEachRowWithProgressRowOutputFormat}.
 */
final class JsonEachRowWithProgressWriter extends StatisticsWriter {
    private final ByteSink out;
    private final JsonOutput json;
    private final List<Column> columns;
    private final DataType[] types;
    private final byte[][] keys;
    private final boolean compact;
    private boolean started;

    JsonEachRowWithProgressWriter(OutputStream os, List<Column> columns, FormatSettings s, boolean compact) throws IOException {
        this.out = new ByteSink(os);
        this.json = new JsonOutput(out, s, s.jsonValidateUtf8);
        this.columns = columns;
        this.compact = compact;
        this.types = new DataType[columns.size()];
        this.keys = new byte[columns.size()][];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
            keys[i] = JsonEachRowWriter.key(columns.get(i).name(), s);
        }
    }

    private void start() throws IOException {
        started = true;
        out.writeUtf8("{\"meta\":[");
        for (int i = 0; i < types.length; i++) {
            out.writeUtf8(i > 0 ? ",{\"name\":" : "{\"name\":");
            json.string(ByteStrings.fromText(columns.get(i).name()));
            out.writeUtf8(",\"type\":");
            json.string(ByteStrings.fromText(types[i].name()));
            out.write('}');
        }
        out.writeUtf8("]}\n");
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        if (!started) {
            start();
        }
        out.writeUtf8(compact ? "{\"row\":[" : "{\"row\":{");
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                // the compact rows separate their values with a comma and a space, as JSONCompactEachRow does
                out.writeUtf8(compact ? ", " : ",");
            }
            if (!compact) {
                out.write(keys[i], 0, keys[i].length);
            }
            json.value(types[i], row[i], false, 0);
        }
        out.writeUtf8(compact ? "]}\n" : "}}\n");
    }

    @Override
    public void finish() throws IOException {
        if (!started) {
            start();
        }
        out.writeUtf8("{\"progress\":{\"read_rows\":\"" + rowsRead + "\",\"read_bytes\":\"" + bytesRead + "\",\"total_rows_to_read\":\""
            + rowsRead + "\",\"elapsed_ns\":\"" + (long) (elapsed * 1e9) + "\"}}\n");
        if (rowsBeforeLimit >= 0) {
            out.writeUtf8("{\"rows_before_limit_at_least\":" + rowsBeforeLimit + "}\n");
        }
        out.flush();
    }
}
