package dev.chdedup.stub.format;

import dev.chdedup.stub.data.IColumn;
import java.io.IOException;

/**
 * Reads rows of an input format one at a time. A row is an {@code Object[]} in the order of the columns the
 * reader was opened for; a slot is {@link #DEFAULT} where the input left the value out (a column missing from
 * a JSONEachRow object, a RowBinaryWithDefaults marker), so the insert can apply the column's DEFAULT.
 */
public interface RowReader {
    /** Marks a value the input did not give. */
    Object DEFAULT = new Object() {
        @Override
        public String toString() {
            return "DEFAULT";
        }
    };

    /**
     * Marks a value RowBinaryWithDefaults left to the column: its DEFAULT expression where it has one, else the column's
     * zero (ClickHouse's {@code IColumn::insertDefault}), not the type's default: for an Enum without 0 among its values
     * the two differ (code 0 against the first element).
     */
    Object DEFAULT_OR_ZERO = new Object() {
        @Override
        public String toString() {
            return "DEFAULT_OR_ZERO";
        }
    };

    /** The next row, or null at the end of the input. Throws a ChException for malformed input. */
    Object[] next() throws IOException;

    /**
     * Whether the input comes in blocks of its own that an insert keeps as they are (Native, as ClickHouse's
     * NativeInputFormat hands each block on): {@code max_insert_block_size} does not split them.
     */
    default boolean keepsInputBlocks() {
        return false;
    }

    /** Whether the row {@link #next} returned last ended a block of the input (only where {@link #keepsInputBlocks}). */
    default boolean atBlockEnd() {
        return false;
    }

    /**
     * Whether this reader fills columns itself ({@link #readInto}) and never leaves a value out: a binary reader with
     * every column in its input. It may read the input's header to know.
     */
    default boolean readsColumns() throws IOException {
        return false;
    }

    /**
     * Appends the next row to {@code columns} (one per column the reader was opened for), or returns false at the end;
     * only where {@link #readsColumns}. After a failure the columns may hold part of the row.
     */
    default boolean readInto(IColumn.Mutable[] columns) throws IOException {
        Object[] r = next();
        if (r == null) {
            return false;
        }
        for (int i = 0; i < r.length; i++) {
            columns[i].append(r[i]);
        }
        return true;
    }
}
