package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Block;
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
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a result in the Native format with the header it carries (each block names its columns and their types), as
 * ClickHouse's {@code NativeReader} does on the client side of a query: what a server reads back from another server
 * (a shard's answer to a Distributed table's query, {@code remote()}). Unlike the INSERT's {@link NativeReader} it
 * takes the columns as they come, converting nothing.
 */
public final class NativeBlockInputStream {
    private final BinaryIn in;

    public NativeBlockInputStream(InputStream in) {
        this.in = new BinaryIn(in);
    }

    /** The next block, or null at the end of the input (between blocks). */
    public Block read() throws IOException {
        if (in.atEnd()) {
            return null;
        }
        long width;
        long rows;
        try {
            width = in.readVarUInt();
            rows = in.readVarUInt();
        } catch (EOFException e) {
            throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof");
        }
        if (Long.compareUnsigned(width, NativeReader.MAX_COLUMNS) > 0 || Long.compareUnsigned(rows, NativeReader.MAX_ROWS) > 0) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Suspiciously many columns or rows in Native format: "
                + Long.toUnsignedString(width) + " columns, " + Long.toUnsignedString(rows) + " rows");
        }
        List<Column> header = new ArrayList<>((int) width);
        List<List<Object>> values = new ArrayList<>((int) width);
        for (long c = 0; c < width; c++) {
            List<Object> column;
            String name;
            DataType type;
            try {
                name = ByteStrings.toText(NativeDeserialization.readString(in));
                type = DataTypes.parse(ByteStrings.toText(NativeDeserialization.readString(in)));
                column = NativeDeserialization.deserializeBinaryBulk(type, rows, in);
            } catch (EOFException e) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data");
            }
            if (column.size() != rows) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data in NativeReader. Rows read: " + column.size()
                    + ". Rows expected: " + rows);
            }
            header.add(new Column(name, type));
            values.add(column);
        }
        List<Object[]> out = new ArrayList<>((int) rows);
        for (int r = 0; r < rows; r++) {
            Object[] row = new Object[header.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = values.get(c).get(r);
            }
            out.add(row);
        }
        return new Block(header, out);
    }

    /** Every block to the end of the input. */
    public List<Block> readAll() throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Block b = read(); b != null; b = read()) {
            blocks.add(b);
        }
        return blocks;
    }
}
