package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes the TabSeparated family: an optional names line and types line, then one line per row with fields
 * separated by tabs. Values are escaped ({@code \t \n \\ \'} ...) except in Raw; Array, Map and Tuple values
 * are written in their quoted text form ({@code ['a','b']}) without further escaping, and NULL as {@code \N},
 * as ClickHouse does.
 */
final class TsvWriter implements RowWriter {
    private final ByteSink out;
    private final List<Column> columns;
    private final FormatSettings s;
    private final boolean raw;
    private final boolean withNames;
    private final boolean withTypes;
    private final DataType[] bases;
    private final boolean[] composite;
    private final StringBuilder sb = new StringBuilder();
    private boolean started;

    TsvWriter(OutputStream os, List<Column> columns, FormatSettings s, boolean raw, boolean withNames, boolean withTypes) {
        this.out = new ByteSink(os);
        this.columns = columns;
        this.s = s;
        this.raw = raw;
        this.withNames = withNames;
        this.withTypes = withTypes;
        this.bases = new DataType[columns.size()];
        this.composite = new boolean[columns.size()];
        for (int i = 0; i < bases.length; i++) {
            bases[i] = columns.get(i).type().unwrap();
            composite[i] = TextFields.isComposite(columns.get(i).type());
        }
    }

    private void start() throws IOException {
        started = true;
        if (withNames) {
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    out.write('\t');
                }
                header(columns.get(i).name());
            }
            endLine();
        }
        if (withTypes) {
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    out.write('\t');
                }
                header(columns.get(i).type().name());
            }
            endLine();
        }
    }

    private void header(String v) throws IOException {
        if (raw) {
            out.writeUtf8(v);
        } else {
            out.writeEscaped(ByteStrings.fromText(v), '\'');
        }
    }

    private void endLine() throws IOException {
        if (s.tsvCrlfOutput) {
            out.write('\r');
        }
        out.write('\n');
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        if (!started) {
            start();
        }
        for (int i = 0; i < bases.length; i++) {
            if (i > 0) {
                out.write('\t');
            }
            Object v = row[i];
            if (v == null) {
                out.writeUtf8(s.tsvNullRepresentation);
            } else {
                writeValue(out, bases[i], composite[i], v, sb, raw);
            }
        }
        endLine();
    }

    /** The rows of a columnar block: integers, DateTime and String straight from their columns, the rest by value. */
    @Override
    public void writeColumns(IColumn[] cols, int rows) throws IOException {
        if (!started) {
            start();
        }
        int width = cols.length;
        ColumnVector[] ints = new ColumnVector[width];
        boolean[] uint64 = new boolean[width];
        ColumnVector[] times = new ColumnVector[width];
        java.util.function.LongUnaryOperator[] local = new java.util.function.LongUnaryOperator[width];
        ColumnString[] strings = new ColumnString[width];
        for (int c = 0; c < width; c++) {
            DataType t = cols[c].type();
            if (cols[c] instanceof ColumnVector && t instanceof IntType) {
                ints[c] = (ColumnVector) cols[c];
                uint64[c] = !((IntType) t).signed && ((IntType) t).bits == 64;
            } else if (cols[c] instanceof ColumnVector && t instanceof DateTimeType) {
                times[c] = (ColumnVector) cols[c];
                local[c] = ((DateTimeType) t).localSeconds();
            } else if (cols[c] instanceof ColumnString) {
                strings[c] = (ColumnString) cols[c];
            }
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < width; c++) {
                if (c > 0) {
                    out.write('\t');
                }
                if (ints[c] != null) {
                    if (uint64[c]) {
                        out.writeUnsignedLong(ints[c].getLong(r));
                    } else {
                        out.writeLong(ints[c].getLong(r));
                    }
                } else if (times[c] != null) {
                    out.writeDateTime(local[c].applyAsLong(times[c].getLong(r)));
                } else if (strings[c] != null) {
                    ColumnString s = strings[c];
                    if (raw) {
                        out.write(s.chars(), s.start(r), s.length(r));
                    } else {
                        out.writeEscaped(s.chars(), s.start(r), s.length(r), '\'');
                    }
                } else {
                    Object v = cols[c].get(r);
                    if (v == null) {
                        out.writeUtf8(s.tsvNullRepresentation);
                    } else {
                        writeValue(out, bases[c], composite[c], v, sb, raw);
                    }
                }
            }
            endLine();
        }
    }

    /**
     * Writes a non-NULL value in the TabSeparated text form: escaped unless {@code raw} or composite.
     * Shared with TSKV.
     */
    static void writeValue(ByteSink out, DataType base, boolean composite, Object v, StringBuilder sb, boolean raw)
        throws IOException {
        if (v instanceof TypedValue && (base instanceof DynamicType || base instanceof VariantType)) {
            // a Dynamic or Variant value is written as its own type writes it
            TypedValue t = (TypedValue) v;
            writeValue(out, t.type().unwrap(), TextFields.isComposite(t.type()), t.value(), sb, raw);
            return;
        }
        if (base instanceof StringType && ((StringType) base).fixedLength == 0) {
            if (raw) {
                out.writeBytes((String) v);
            } else {
                out.writeEscaped((String) v, '\'');
            }
            return;
        }
        if (base instanceof IntType && (((IntType) base).signed || (Long) v >= 0)) {
            out.writeLong((Long) v);
            return;
        }
        sb.setLength(0);
        base.formatText(v, sb);
        if (raw || composite) {
            out.writeBytes(sb);
        } else {
            out.writeEscaped(sb, '\'');
        }
    }

    @Override
    public void finish() throws IOException {
        if (!started) {
            start();
        }
        out.flush();
    }
}
