package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.ColumnConst;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.DataType;

/**
 * A compiled expression: its result type, fixed at compile time as ClickHouse types expressions, and how to
 * compute it for one input row. {@link #constant()} marks values known at compile time (literals and functions
 * of literals), which the compiler folds. {@link #evalColumns} computes it for every row of a columnar block at once.
 */
public interface Evaluator {
    DataType type();

    Object eval(Object[] row);

    default boolean constant() {
        return false;
    }

    /**
     * This expression for rows {@code [0, rows)} of {@code columns} (a columnar block's, in input order): row by row
     * unless the expression has a form over columns ({@link ColumnFunctions}).
     */
    default IColumn evalColumns(IColumn[] columns, int rows) {
        return ColumnFunctions.rowByRow(this, columns, rows);
    }

    /** The input column this expression is (a bare column reference), or -1. */
    default int columnIndex() {
        return -1;
    }

    static Evaluator constant(DataType type, Object value) {
        return new Evaluator() {
            @Override
            public DataType type() {
                return type;
            }

            @Override
            public Object eval(Object[] row) {
                return value;
            }

            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                return new ColumnConst(type, value, rows);
            }

            @Override
            public boolean constant() {
                return true;
            }
        };
    }

    static Evaluator column(DataType type, int index) {
        return new Evaluator() {
            @Override
            public DataType type() {
                return type;
            }

            @Override
            public Object eval(Object[] row) {
                return row[index];
            }

            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                return columns[index];
            }

            @Override
            public int columnIndex() {
                return index;
            }
        };
    }

    /** A row function with a fixed result type. */
    interface RowFn {
        Object apply(Object[] row);
    }

    static Evaluator of(DataType type, RowFn fn) {
        return new Evaluator() {
            @Override
            public DataType type() {
                return type;
            }

            @Override
            public Object eval(Object[] row) {
                return fn.apply(row);
            }
        };
    }
}
