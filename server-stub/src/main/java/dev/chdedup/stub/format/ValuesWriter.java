package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes the Values format as ClickHouse does: each row a parenthesised tuple of SQL literals (strings, dates
 * and UUIDs single-quoted with backslash escapes, NULL, arrays {@code [..]}, maps {@code {..}}), rows
 * separated by a bare comma, with no line breaks and nothing after the last row.
 */
final class ValuesWriter implements RowWriter {
    private final ByteSink out;
    private final DataType[] types;
    private final StringBuilder sb = new StringBuilder();
    private boolean any;

    ValuesWriter(OutputStream os, List<Column> columns) {
        this.out = new ByteSink(os);
        this.types = new DataType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
        }
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        sb.setLength(0);
        if (any) {
            sb.append(',');
        }
        any = true;
        sb.append('(');
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (row[i] == null) {
                sb.append("NULL");
            } else {
                types[i].formatQuoted(row[i], sb);
            }
        }
        sb.append(')');
        out.writeBytes(sb);
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
