package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes Vertical: each row as {@code Row N:}, a rule, then one {@code name: value} line per column with the values
 * aligned, unescaped, NULL as {@code ᴺᵁᴸᴸ}; rows apart by an empty line. Mirrors ClickHouse's
 * VerticalRowOutputFormat.
 */
final class VerticalWriter implements RowWriter {
    private final ByteSink out;
    private final List<Column> columns;
    private final String[] labels;
    private final StringBuilder sb = new StringBuilder();
    private long rows;

    VerticalWriter(OutputStream os, List<Column> columns) {
        this.out = new ByteSink(os);
        this.columns = columns;
        this.labels = new String[columns.size()];
        long widest = 0;
        for (Column c : columns) {
            widest = Math.max(widest, ByteStrings.codePoints(ByteStrings.fromText(c.name())));
        }
        for (int i = 0; i < labels.length; i++) {
            String name = ByteStrings.fromText(columns.get(i).name());
            labels[i] = name + ":" + " ".repeat((int) (widest - ByteStrings.codePoints(name)) + 1);
        }
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        rows++;
        String title = "Row " + rows + ":";
        out.writeUtf8((rows > 1 ? "\n" : "") + title + "\n" + "─".repeat(title.length()) + "\n");
        for (int i = 0; i < row.length; i++) {
            out.writeBytes(labels[i]);
            out.writeBytes(JsonCompactEachRowWriter.plainText(columns.get(i).type(), row[i], sb));
            out.write('\n');
        }
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
