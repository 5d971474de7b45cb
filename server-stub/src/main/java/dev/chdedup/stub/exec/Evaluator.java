package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.DataType;

/**
 * A compiled expression: its result type, fixed at compile time as ClickHouse types expressions, and how to
 * compute it for one input row. {@link #constant()} marks values known at compile time (literals and functions
 * of literals), which the compiler folds.
 */
public interface Evaluator {
    DataType type();

    Object eval(Object[] row);

    default boolean constant() {
        return false;
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
