package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes CSV, CSVWithNames and CSVWithNamesAndTypes as ClickHouse does: numbers and booleans bare; strings,
 * dates, UUIDs, enum names and the text form of arrays and maps in double quotes (a quote doubled); NULL as
 * {@code \N}; a Tuple as one field per element; a quoted header line of names (and of types).
 */
final class CsvWriter implements RowWriter {
    private final ByteSink out;
    private final List<Column> columns;
    private final FormatSettings s;
    private final boolean withNames;
    private final boolean withTypes;
    private final DataType[] types;
    private final StringBuilder sb = new StringBuilder();
    private boolean started;

    CsvWriter(OutputStream os, List<Column> columns, FormatSettings s, boolean withNames, boolean withTypes) {
        this.out = new ByteSink(os);
        this.columns = columns;
        this.s = s;
        this.withNames = withNames;
        this.withTypes = withTypes;
        this.types = new DataType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
        }
    }

    private void start() throws IOException {
        started = true;
        if (withNames) {
            for (int i = 0; i < types.length; i++) {
                if (i > 0) {
                    out.write(s.csvDelimiter);
                }
                out.writeCsvQuoted(ByteStrings.fromText(columns.get(i).name()));
            }
            endLine();
        }
        if (withTypes) {
            for (int i = 0; i < types.length; i++) {
                if (i > 0) {
                    out.write(s.csvDelimiter);
                }
                out.writeCsvQuoted(ByteStrings.fromText(types[i].name()));
            }
            endLine();
        }
    }

    private void endLine() throws IOException {
        if (s.csvCrlfOutput) {
            out.write('\r');
        }
        out.write('\n');
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        if (!started) {
            start();
        }
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                out.write(s.csvDelimiter);
            }
            writeValue(types[i], row[i]);
        }
        endLine();
    }

    private void writeValue(DataType t, Object v) throws IOException {
        if (v == null) {
            out.writeUtf8(s.csvNullRepresentation);
            return;
        }
        if (v instanceof TypedValue) {
            // Dynamic and Variant: the value as its own type writes it
            writeValue(((TypedValue) v).type(), ((TypedValue) v).value());
            return;
        }
        DataType b = t.unwrap();
        if (b instanceof TupleType) {
            TupleType tt = (TupleType) b;
            List<?> l = (List<?>) v;
            for (int k = 0; k < tt.elements.size(); k++) {
                if (k > 0) {
                    out.write(s.csvDelimiter);
                }
                writeValue(tt.elements.get(k), l.get(k));
            }
            return;
        }
        if (b instanceof StringType) {
            out.writeCsvQuoted((String) v);
            return;
        }
        if (b instanceof IntType && (((IntType) b).signed || (Long) v >= 0)) {
            out.writeLong((Long) v);
            return;
        }
        sb.setLength(0);
        b.formatText(v, sb);
        if (bare(b)) {
            out.writeUtf8(sb);
        } else {
            out.writeCsvQuoted(sb);
        }
    }

    private static boolean bare(DataType b) {
        return b instanceof IntType || b instanceof BigIntType || b instanceof FloatType || b instanceof DecimalType
            || b instanceof BoolType || b instanceof BFloat16Type;
    }

    @Override
    public void finish() throws IOException {
        if (!started) {
            start();
        }
        out.flush();
    }
}
