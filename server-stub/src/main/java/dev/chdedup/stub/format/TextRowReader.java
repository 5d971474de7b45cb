package dev.chdedup.stub.format;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A text input format's reader (TabSeparated, CSV, TSKV, JSONEachRow, Values). Its {@link ByteInput} reads without
 * checked exceptions, passing an I/O failure of the stream up as an {@link UncheckedIOException}; {@link #next}
 * gives it back to the caller as the {@code IOException} it was, so a dropped connection is not a parse error.
 */
abstract class TextRowReader implements RowReader {
    @Override
    public final Object[] next() throws IOException {
        try {
            return readRow();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The next row, or null at the end of the input; a ChException for malformed input. */
    abstract Object[] readRow();
}
