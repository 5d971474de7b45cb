package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes JSONEachRow: one compact JSON object per row on its own line ({@code {"a":"1","b":"x"}\n}), or with
 * output_format_json_array_of_rows the rows as one JSON array ({@code [\n{...},\n{...}\n]\n}). JSONStringsEachRow
 * writes every value as the JSON string of its plain text form.
 */
final class JsonEachRowWriter implements RowWriter {
    private final ByteSink out;
    private final JsonOutput json;
    private final DataType[] types;
    private final byte[][] keys;
    private final boolean array;
    private final boolean strings;
    private final StringBuilder sb = new StringBuilder();
    private boolean started;
    private boolean any;

    JsonEachRowWriter(OutputStream os, List<Column> columns, FormatSettings s) throws IOException {
        this(os, columns, s, false);
    }

    JsonEachRowWriter(OutputStream os, List<Column> columns, FormatSettings s, boolean strings) throws IOException {
        this.strings = strings;
        this.out = new ByteSink(os);
        this.json = new JsonOutput(out, s, s.jsonValidateUtf8);
        this.array = s.jsonArrayOfRows;
        this.types = new DataType[columns.size()];
        this.keys = new byte[columns.size()][];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
            keys[i] = key(columns.get(i).name(), s);
        }
    }

    /** {@code "name":} as bytes, escaped once up front. */
    static byte[] key(String name, FormatSettings s) throws IOException {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        ByteSink k = new ByteSink(bo);
        k.writeJsonString(ByteStrings.fromText(name), s.jsonEscapeForwardSlashes, false);
        k.write(':');
        k.flush();
        return bo.toByteArray();
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        if (array) {
            out.writeUtf8(started ? ",\n" : "[\n");
            started = true;
        }
        any = true;
        out.write('{');
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(keys[i], 0, keys[i].length);
            if (strings) {
                json.string(JsonCompactEachRowWriter.plainText(types[i], row[i], sb));
            } else {
                json.value(types[i], row[i], false, 0);
            }
        }
        out.write('}');
        if (!array) {
            out.write('\n');
        }
    }

    @Override
    public void finish() throws IOException {
        if (array) {
            out.writeUtf8(any ? "\n]\n" : "[\n\n]\n");
        }
        out.flush();
    }
}
