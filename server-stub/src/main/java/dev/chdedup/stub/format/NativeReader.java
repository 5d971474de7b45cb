package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Native format as ClickHouse 26.7's {@code NativeReader} does for an INSERT over HTTP: blocks of a varint
 * column count, a varint row count and per column its name, type name and values ({@link NativeDeserialization}),
 * until the input ends between blocks. Columns are matched to the INSERT's by name, in any order: one of another type
 * is converted as CAST does (a NULL into a non-Nullable column takes its DEFAULT under
 * {@code input_format_null_as_default}), a column the INSERT does not name is skipped under
 * {@code input_format_skip_unknown_fields} and one the input leaves out takes its DEFAULT. A block is read whole
 * before its rows are handed on, so a block cut short inserts none of its rows.
 */
final class NativeReader implements RowReader {
    /** NativeReader's limits on a block header ({@code Suspiciously many columns/rows in Native format}). */
    static final long MAX_COLUMNS = 1_000_000;
    static final long MAX_ROWS = 1_000_000_000_000L;

    private final BinaryIn in;
    private final List<Column> columns;
    private final FormatSettings s;
    private final Map<String, Integer> byName = new HashMap<>();
    /** The current block's rows, in the INSERT's columns, and the next one to hand out. */
    private Object[][] block = new Object[0][];
    private int next;
    /** Rows of a block without columns still to hand out (each all DEFAULT). */
    private long emptyRows;

    NativeReader(InputStream is, List<Column> columns, FormatSettings s) {
        this.in = new BinaryIn(is);
        this.columns = columns;
        this.s = s;
        for (int i = 0; i < columns.size(); i++) {
            byName.put(columns.get(i).name(), i);
        }
    }

    @Override
    public boolean keepsInputBlocks() {
        return true;
    }

    @Override
    public boolean atBlockEnd() {
        return next >= block.length && emptyRows == 0;
    }

    @Override
    public Object[] next() throws IOException {
        while (true) {
            if (next < block.length) {
                Object[] r = block[next];
                block[next++] = null;
                return r;
            }
            if (emptyRows > 0) {
                emptyRows--;
                return TextFields.newRow(columns.size(), TextFields.identity(columns.size()));
            }
            if (in.atEnd()) {
                return null;
            }
            readBlock();
        }
    }

    private void readBlock() throws IOException {
        long width = varUInt();
        if (width > MAX_COLUMNS) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Suspiciously many columns in Native format: " + Long.toUnsignedString(width));
        }
        long rows = varUInt();
        if (Long.compareUnsigned(rows, MAX_ROWS) > 0) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Suspiciously many rows in Native format: " + Long.toUnsignedString(rows));
        }
        if (width == 0) {
            emptyRows = rows;
            return;
        }
        Object[][] values = new Object[columns.size()][];
        for (long c = 0; c < width; c++) {
            String name = ByteStrings.toText(string());
            DataType type = DataTypes.parse(ByteStrings.toText(string()));
            Integer target = byName.get(name);
            if (target == null && !s.skipUnknownFields) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Unknown column with name " + name + " found while reading data in Native format");
            }
            List<Object> column;
            try {
                column = NativeDeserialization.deserializeBinaryBulk(type, rows, in);
            } catch (EOFException e) { // a varint cut short
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data");
            }
            if (column.size() != rows) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data in NativeReader. Rows read: " + column.size()
                    + ". Rows expected: " + rows);
            }
            if (target != null) {
                values[target] = convert(column, type, columns.get(target));
            }
        }
        int n = (int) rows; // every column held as many values as the block's rows, so they fit an int
        block = new Object[n][];
        for (int r = 0; r < n; r++) {
            Object[] row = new Object[columns.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = values[c] == null ? DEFAULT : values[c][r];
            }
            block[r] = row;
        }
        next = 0;
    }

    /** The values of a column of {@code from} as the INSERT's column {@code to} takes them. */
    private Object[] convert(List<Object> column, DataType from, Column to) {
        Object[] out = column.toArray();
        if (from.equals(to.type())) {
            return out;
        }
        DataType target = to.type();
        for (int i = 0; i < out.length; i++) {
            Object v = out[i];
            try {
                if (v == null && !target.isNullable()) {
                    if (!s.nullAsDefault) {
                        throw new ChException(ErrorCode.CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, "Cannot convert NULL value to non-Nullable type");
                    }
                    out[i] = DEFAULT;
                } else {
                    out[i] = v == null ? null : target.convert(v, from);
                }
            } catch (RuntimeException e) {
                ChException ce = TextFields.asCh(e);
                throw new ChException(ce.code(), ce.getMessage() + ": while converting column \"" + to.name() + "\" from type "
                    + from.name() + " to type " + target.name(), e);
            }
        }
        return out;
    }

    private long varUInt() throws IOException {
        try {
            return in.readVarUInt();
        } catch (EOFException e) {
            throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof");
        }
    }

    /** A name or type name of the block header. */
    private String string() throws IOException {
        if (in.atEnd()) {
            throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof");
        }
        try {
            return NativeDeserialization.readString(in);
        } catch (EOFException e) {
            throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof");
        }
    }
}
