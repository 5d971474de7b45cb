package dev.chdedup.stub.format;

import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.IColumn;
import java.io.IOException;

/** Writes a result in an output format: a prefix (header), rows, then a suffix (footer, statistics). */
public interface RowWriter {
    void writeRow(Object[] row) throws IOException;

    /** Writes {@code rows} rows of a columnar block; formats that can, straight from the columns. */
    default void writeColumns(IColumn[] columns, int rows) throws IOException {
        for (Object[] r : new ColumnRows(columns, rows)) {
            writeRow(r);
        }
    }

    /** Writes one block of rows; formats with blocks of their own (Native) keep it one block. */
    default void writeRowBlock(java.util.List<Object[]> rows) throws IOException {
        for (Object[] r : rows) {
            writeRow(r);
        }
    }

    /** Writes what follows the rows and flushes; the underlying stream stays open. */
    void finish() throws IOException;

    /**
     * The query statistics a format with a footer reports ({@code "statistics"} of JSON and JSONCompact): call
     * before {@link #finish()}. Formats without statistics ignore it.
     */
    default void setStatistics(double elapsedSeconds, long rowsRead, long bytesRead) {
    }

    /** The row count before LIMIT ({@code "rows_before_limit_at_least"} of the JSON formats); others ignore it. */
    default void setRowsBeforeLimit(long rowsBeforeLimit) {
    }
}
