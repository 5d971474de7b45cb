package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.types.ByteStrings;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes Markdown: a pipe table with a header row, an alignment row ({@code -:} for numbers, {@code :-} otherwise)
 * and one row per result row, each value escaped as TabSeparated writes it (NULL is {@code \\N}), as ClickHouse 26.7's
 * MarkdownRowOutputFormat writes them: a {@code |} in a value is not escaped.
 */
final class MarkdownWriter implements RowWriter {
    private final ByteSink out;
    private final List<Column> columns;
    private final StringBuilder sb = new StringBuilder();
    private final dev.chdedup.stub.types.DataType[] bases;
    private final boolean[] composite;

    MarkdownWriter(OutputStream os, List<Column> columns) throws IOException {
        this.out = new ByteSink(os);
        this.columns = columns;
        this.bases = new dev.chdedup.stub.types.DataType[columns.size()];
        this.composite = new boolean[columns.size()];
        for (int i = 0; i < bases.length; i++) {
            bases[i] = columns.get(i).type().unwrap();
            composite[i] = TextFields.isComposite(columns.get(i).type());
        }
        out.write('|');
        for (Column c : columns) {
            out.write(' ');
            out.writeBytes(ByteStrings.fromText(c.name()));
            out.writeUtf8(" |");
        }
        out.writeUtf8("\n|");
        for (Column c : columns) {
            out.writeUtf8(TypeRules.alignsRight(c.type()) ? "-:|" : ":-|");
        }
        out.write('\n');
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        out.write('|');
        for (int i = 0; i < row.length; i++) {
            out.write(' ');
            if (row[i] == null) {
                out.writeUtf8("\\N");
            } else {
                TsvWriter.writeValue(out, bases[i], composite[i], row[i], sb, false);
            }
            out.writeUtf8(" |");
        }
        out.write('\n');
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
