package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.StringType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes Markdown: a pipe table with a header row, an alignment row ({@code -:} for numbers, {@code :-} otherwise)
 * and one row per result row; ASCII punctuation in string values is backslash-escaped so the table stays intact.
 * Mirrors ClickHouse's MarkdownRowOutputFormat.
 */
final class MarkdownWriter implements RowWriter {
    private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    private final ByteSink out;
    private final List<Column> columns;
    private final StringBuilder sb = new StringBuilder();

    MarkdownWriter(OutputStream os, List<Column> columns) throws IOException {
        this.out = new ByteSink(os);
        this.columns = columns;
        out.write('|');
        for (Column c : columns) {
            out.write(' ');
            out.writeBytes(ByteStrings.fromText(c.name()));
            out.writeUtf8(" |");
        }
        out.writeUtf8("\n|");
        for (Column c : columns) {
            out.writeUtf8(TypeRules.isNumeric(c.type()) ? "-:|" : ":-|");
        }
        out.write('\n');
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        out.write('|');
        for (int i = 0; i < row.length; i++) {
            out.write(' ');
            String text = JsonCompactEachRowWriter.plainText(columns.get(i).type(), row[i], sb);
            if (row[i] != null && columns.get(i).type().unwrap() instanceof StringType) {
                for (int k = 0; k < text.length(); k++) {
                    char ch = text.charAt(k);
                    if (PUNCTUATION.indexOf(ch) >= 0) {
                        out.write('\\');
                    }
                    out.write(ch);
                }
            } else {
                out.writeBytes(text);
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
