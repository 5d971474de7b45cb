package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnFloat;
import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the Native format as ClickHouse's {@code NativeWriter} does over HTTP (no block info, no compression, types
 * by name): each result block as the varint column count, the varint row count, then per column its name, its type's
 * name and its values in the type's bulk layout ({@link NativeSerialization}). An empty block, and so an empty
 * result, writes nothing.
 */
final class NativeWriter implements RowWriter {
    private static final int FLUSH_AT = 1 << 16;
    private final OutputStream os;
    private final BinaryOut buf = new BinaryOut(FLUSH_AT + 1024);
    private final List<Column> columns;
    private final List<Object[]> pending = new ArrayList<>();

    NativeWriter(OutputStream os, List<Column> columns) {
        this.os = os;
        this.columns = columns;
    }

    /** A row outside a block: it goes out with the rows next to it as one block, at the next block or the end. */
    @Override
    public void writeRow(Object[] row) throws IOException {
        pending.add(row);
    }

    @Override
    public void writeRowBlock(List<Object[]> rows) throws IOException {
        flushPending();
        writeBlockOfRows(rows);
    }

    @Override
    public void writeColumns(IColumn[] cols, int rows) throws IOException {
        flushPending();
        if (rows == 0) {
            return;
        }
        header(rows);
        for (int c = 0; c < columns.size(); c++) {
            columnHeader(c);
            IColumn col = cols[c];
            if (col instanceof ColumnVector) {
                ColumnVector v = (ColumnVector) col;
                for (int r = 0; r < rows; r++) {
                    buf.writeLongLE(v.getLong(r), v.width());
                }
            } else if (col instanceof ColumnString || col instanceof ColumnFloat) {
                for (int r = 0; r < rows; r++) {
                    col.writeBinary(r, buf);
                }
            } else {
                List<Object> values = new ArrayList<>(rows);
                for (int r = 0; r < rows; r++) {
                    values.add(col.get(r));
                }
                NativeSerialization.serializeBinaryBulk(col.type(), values, buf);
            }
            maybeFlush();
        }
    }

    private void writeBlockOfRows(List<Object[]> rows) throws IOException {
        if (rows.isEmpty()) {
            return;
        }
        header(rows.size());
        for (int c = 0; c < columns.size(); c++) {
            columnHeader(c);
            List<Object> values = new ArrayList<>(rows.size());
            for (Object[] r : rows) {
                values.add(r[c]);
            }
            NativeSerialization.serializeBinaryBulk(columns.get(c).type(), values, buf);
            maybeFlush();
        }
    }

    private void flushPending() throws IOException {
        if (!pending.isEmpty()) {
            writeBlockOfRows(pending);
            pending.clear();
        }
    }

    private void header(int rows) {
        buf.writeVarUInt(columns.size());
        buf.writeVarUInt(rows);
    }

    private void columnHeader(int c) {
        buf.writeString(ByteStrings.fromText(columns.get(c).name()));
        buf.writeString(ByteStrings.fromText(typeName(columns.get(c).type())));
    }

    /**
     * The type name a column header carries: the type's name, but a DateTime column's without its time zone, as
     * ClickHouse 26.7 writes it for a client without a protocol revision (HTTP) whatever the zone; a DateTime nested in
     * another type keeps its zone.
     */
    static String typeName(DataType t) {
        return t instanceof DateTimeType ? "DateTime" : t.name();
    }

    private void maybeFlush() throws IOException {
        if (buf.size() >= FLUSH_AT) {
            os.write(buf.array(), 0, buf.size());
            buf.reset();
        }
    }

    @Override
    public void finish() throws IOException {
        flushPending();
        os.write(buf.array(), 0, buf.size());
        buf.reset();
        os.flush();
    }
}
