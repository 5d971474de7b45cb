package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.AggregateFunctionGroupFormat;
import dev.chdedup.stub.format.FormatSettings;
import dev.chdedup.stub.format.Formats;
import dev.chdedup.stub.format.RowWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** The output formats groupFormat writes its rows in: the format layer's writers, with the default format settings. */
final class GroupFormatWriter implements AggregateFunctionGroupFormat.Writer {
    @Override
    public boolean isKnown(String format) {
        return Formats.isKnown(format);
    }

    @Override
    public byte[] write(String format, List<Column> columns, List<Object[]> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = Formats.openOutput(format, out, columns, FormatSettings.DEFAULTS);
        if (rows.isEmpty()) {
            return new byte[0];
        }
        try {
            w.writeRowBlock(rows);
            w.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
