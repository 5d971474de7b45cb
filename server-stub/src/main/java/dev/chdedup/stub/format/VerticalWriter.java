package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes Vertical: each row as {@code Row N:}, a rule, then one {@code name: value} line per column with the values
 * aligned, unescaped, NULL as {@code ᴺᵁᴸᴸ}, a large number with its readable tip, a long name cut in the middle;
 * rows apart by an empty line. Mirrors ClickHouse's
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
        String[] names = new String[columns.size()];
        long widest = 0;
        for (int i = 0; i < names.length; i++) {
            names[i] = PrettyFormatHelpers.truncateName(ByteStrings.fromText(columns.get(i).name()));
            widest = Math.max(widest, ByteStrings.codePoints(names[i]));
        }
        for (int i = 0; i < labels.length; i++) {
            labels[i] = names[i] + ":" + " ".repeat((int) (widest - ByteStrings.codePoints(names[i])) + 1);
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
            out.writeBytes(PrettyFormatHelpers.readableNumberTip(columns.get(i).type(), row[i]));
            out.write('\n');
        }
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
