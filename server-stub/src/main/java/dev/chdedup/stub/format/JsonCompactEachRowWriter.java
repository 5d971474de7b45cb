package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes the JSONCompactEachRow family: one JSON array of values per line ({@code [1,"x"]\n}), after a line of
 * column names ({@code WithNames}) and one of type names ({@code WithNamesAndTypes}); the {@code Strings} variants
 * write every value as the JSON string of its plain text form (NULL as {@code ᴺᵁᴸᴸ}, as ClickHouse's serializeText
 * does). Mirrors ClickHouse's JSONCompactEachRowRowOutputFormat.
 */
final class JsonCompactEachRowWriter implements RowWriter {
    private final ByteSink out;
    private final JsonOutput json;
    private final DataType[] types;
    private final boolean strings;
    private final StringBuilder sb = new StringBuilder();

    JsonCompactEachRowWriter(OutputStream os, List<Column> columns, FormatSettings s, boolean strings, boolean names,
                             boolean typeNames) throws IOException {
        this.out = new ByteSink(os);
        this.json = new JsonOutput(out, s, s.jsonValidateUtf8);
        this.strings = strings;
        this.types = new DataType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
        }
        if (names) {
            header(columns, false);
        }
        if (typeNames) {
            header(columns, true);
        }
    }

    private void header(List<Column> columns, boolean typeNames) throws IOException {
        out.write('[');
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                out.writeUtf8(", ");
            }
            json.string(ByteStrings.fromText(typeNames ? columns.get(i).type().name() : columns.get(i).name()));
        }
        out.writeUtf8("]\n");
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        out.write('[');
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                out.writeUtf8(", ");
            }
            if (strings) {
                json.string(plainText(types[i], row[i], sb));
            } else {
                json.value(types[i], row[i], false, 0);
            }
        }
        out.writeUtf8("]\n");
    }

    /** The value's plain text form as a byte string (the JSONStrings formats' value), NULL as ᴺᵁᴸᴸ. */
    static String plainText(DataType t, Object v, StringBuilder sb) {
        if (v == null) {
            return ByteStrings.fromText("\u1D3A\u1D41\u1D38\u1D38");
        }
        sb.setLength(0);
        t.formatText(v, sb);
        return sb.toString();
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
