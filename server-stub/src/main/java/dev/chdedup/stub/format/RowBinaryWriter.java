package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.BinaryTypeEncoding;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes RowBinary, RowBinaryWithNames and RowBinaryWithNamesAndTypes: an optional header (varint column
 * count, then the names, then the type names, each as varint length and UTF-8 bytes) and then every value in
 * its type's binary encoding, row after row, buffered into large writes.
 */
final class RowBinaryWriter implements RowWriter {
    private static final int FLUSH_AT = 1 << 16;
    private final OutputStream os;
    private final BinaryOut buf = new BinaryOut(FLUSH_AT + 1024);
    private final List<Column> columns;
    private final DataType[] types;
    private final boolean withNames;
    private final boolean withTypes;
    private final boolean binaryTypes;
    private boolean started;

    RowBinaryWriter(OutputStream os, List<Column> columns, boolean withNames, boolean withTypes) {
        this(os, columns, withNames, withTypes, false);
    }

    /** The header's types as {@code s} says (binary type encoding or names), JSON values as it says. */
    RowBinaryWriter(OutputStream os, List<Column> columns, boolean withNames, boolean withTypes, FormatSettings s) {
        this(os, columns, withNames, withTypes, s.binaryEncodeTypes);
        buf.jsonAsString(s.binaryWriteJsonAsString, s.jsonQuote64bitIntegers);
    }

    /** {@code binaryTypes}: the header's types in ClickHouse's binary type encoding rather than by name. */
    RowBinaryWriter(OutputStream os, List<Column> columns, boolean withNames, boolean withTypes, boolean binaryTypes) {
        this.binaryTypes = binaryTypes;
        this.os = os;
        this.columns = columns;
        this.withNames = withNames;
        this.withTypes = withTypes;
        this.types = new DataType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = columns.get(i).type();
        }
    }

    private void start() {
        started = true;
        if (withNames) {
            buf.writeVarUInt(types.length);
            for (Column c : columns) {
                buf.writeString(ByteStrings.fromText(c.name()));
            }
            if (withTypes) {
                for (DataType t : types) {
                    if (binaryTypes) {
                        BinaryTypeEncoding.encode(t, buf);
                    } else {
                        buf.writeString(ByteStrings.fromText(t.name()));
                    }
                }
            }
        }
    }

    @Override
    public void writeRow(Object[] row) throws IOException {
        if (!started) {
            start();
        }
        for (int i = 0; i < types.length; i++) {
            types[i].writeBinary(row[i], buf);
        }
        if (buf.size() >= FLUSH_AT) {
            os.write(buf.array(), 0, buf.size());
            buf.reset();
        }
    }

    @Override
    public void writeColumns(IColumn[] cols, int rows) throws IOException {
        if (!started) {
            start();
        }
        // numbers and strings straight from their arrays (a call site per kind, which the JIT inlines), the rest by
        // their column
        int width = cols.length;
        ColumnVector[] vectors = new ColumnVector[width];
        ColumnString[] strings = new ColumnString[width];
        for (int c = 0; c < width; c++) {
            if (cols[c] instanceof ColumnVector) {
                vectors[c] = (ColumnVector) cols[c];
            } else if (cols[c] instanceof ColumnString) {
                strings[c] = (ColumnString) cols[c];
            }
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < width; c++) {
                if (vectors[c] != null) {
                    buf.writeLongLE(vectors[c].getLong(r), vectors[c].width());
                } else if (strings[c] != null) {
                    ColumnString s = strings[c];
                    int start = s.start(r);
                    int n = s.length(r);
                    buf.writeVarUInt(n);
                    buf.write(s.chars(), start, n);
                } else {
                    cols[c].writeBinary(r, buf);
                }
            }
            if (buf.size() >= FLUSH_AT) {
                os.write(buf.array(), 0, buf.size());
                buf.reset();
            }
        }
    }

    @Override
    public void finish() throws IOException {
        if (!started) {
            start();
        }
        os.write(buf.array(), 0, buf.size());
        buf.reset();
        os.flush();
    }
}
