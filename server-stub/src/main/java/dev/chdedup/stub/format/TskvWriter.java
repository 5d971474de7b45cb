package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes TSKV: one line per row of tab-separated {@code name=value} pairs. Names are escaped as ClickHouse's
 * writeAnyEscapedString with {@code =} as the quote character (so {@code =} becomes {@code \=}); values get the
 * TabSeparated escaping, NULL is {@code \N}.
 */
final class TskvWriter implements RowWriter {
    private final ByteSink out;
    private final FormatSettings s;
    private final DataType[] bases;
    private final boolean[] composite;
    private final byte[][] prefixes;
    private final StringBuilder sb = new StringBuilder();

    TskvWriter(OutputStream os, List<Column> columns, FormatSettings s) throws IOException {
        this.out = new ByteSink(os);
        this.s = s;
        int n = columns.size();
        this.bases = new DataType[n];
        this.composite = new boolean[n];
        this.prefixes = new byte[n][];
        for (int i = 0; i < n; i++) {
            bases[i] = columns.get(i).type().unwrap();
            composite[i] = TextFields.isComposite(columns.get(i).type());
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            ByteSink k = new ByteSink(bo);
            k.writeEscaped(ByteStrings.fromText(columns.get(i).name()), '=');
            k.write('=');
            k.flush();
            prefixes[i] = bo.toByteArray();
        }
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        for (int i = 0; i < bases.length; i++) {
            if (i > 0) {
                out.write('\t');
            }
            out.write(prefixes[i], 0, prefixes[i].length);
            if (row[i] == null) {
                out.writeUtf8(s.tsvNullRepresentation);
            } else {
                TsvWriter.writeValue(out, bases[i], composite[i], row[i], sb, false);
            }
        }
        out.write('\n');
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }
}
