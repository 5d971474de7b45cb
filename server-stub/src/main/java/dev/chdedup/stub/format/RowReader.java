package dev.chdedup.stub.format;

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

    /** The next row, or null at the end of the input. Throws a ChException for malformed input. */
    Object[] next() throws IOException;
}
