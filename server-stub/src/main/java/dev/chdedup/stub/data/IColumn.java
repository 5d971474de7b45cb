package dev.chdedup.stub.data;

import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;

/**
 * One column of a {@link Block}: the values of one header entry for every row, as ClickHouse's {@code IColumn}. An
 * immutable column never changes; a {@link Mutable} one is filled row by row (by an input format, a part reader, a
 * squash) and then {@link Mutable#finish finished}. Numbers, dates and times are kept in a primitive array
 * ({@link ColumnVector}), strings as bytes and offsets ({@link ColumnString}), other types as their values
 * ({@link ColumnObject}); {@link #get} gives any row's value as the column's type holds it, for the stages that
 * work on rows.
 */
public interface IColumn {
    DataType type();

    int size();

    /** The value of row {@code row}, as {@link DataType} represents it (a {@code Long}, a byte string, ...). */
    Object get(int row);

    /** Appends row {@code row}'s RowBinary form. */
    default void writeBinary(int row, BinaryOut out) {
        type().writeBinary(get(row), out);
    }

    /** Rows {@code [from, from + length)} in RowBinary, one after another: what a column file of a part holds. */
    default void writeBinary(int from, int length, BinaryOut out) {
        for (int r = from; r < from + length; r++) {
            writeBinary(r, out);
        }
    }

    /** The rows in the order {@code perm} gives: row i of the result is row {@code perm[i]} of this one. */
    IColumn permute(int[] perm);

    /** Rows {@code [from, from + length)}. */
    IColumn cut(int from, int length);

    /** The bytes the values take, as ClickHouse's {@code IColumn::byteSize} estimates them. */
    long byteSize();

    /** A column being filled. */
    interface Mutable {
        DataType type();

        int size();

        /** The heap the values filled so far take, roughly (for the memory limit). */
        default long bytes() {
            return 8L * size();
        }

        /** Appends a value as the type holds it. */
        void append(Object v);

        /** Appends one value read in the type's RowBinary form. */
        void readBinary(BinaryIn in) throws IOException;

        /** Appends {@code n} values read one after another in the type's RowBinary form. */
        default void readBinary(BinaryIn in, int n) throws IOException {
            for (int i = 0; i < n; i++) {
                readBinary(in);
            }
        }

        /** Appends rows {@code [from, from + length)} of {@code src}, a column of the same type. */
        default void appendRange(IColumn src, int from, int length) {
            for (int i = from; i < from + length; i++) {
                append(src.get(i));
            }
        }

        /** The column as filled; this builder is not used again. */
        IColumn finish();
    }
}
