package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.ColumnConst;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.Values;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.LongBinaryOperator;

/**
 * Expressions over a columnar block's columns, as ClickHouse executes a function on a block: a bare column is the
 * block's own column, a constant a {@link ColumnConst}, a comparison or AND/OR of integer columns a loop over their
 * {@code long}s; any other expression is evaluated row by row into a column of its values. A filter's selection is
 * the rows whose condition column is true, applied to each column as a permutation.
 */
final class ColumnFunctions {
    private ColumnFunctions() {
    }

    /** An expression with a form over columns: row by row it is {@code rowwise}. */
    private abstract static class OverColumns implements Evaluator {
        private final Evaluator rowwise;

        OverColumns(Evaluator rowwise) {
            this.rowwise = rowwise;
        }

        @Override
        public DataType type() {
            return rowwise.type();
        }

        @Override
        public Object eval(Object[] row) {
            return rowwise.eval(row);
        }
    }

    /**
     * {@code e} for each row of {@code columns}: one reused row array, filled column by column, no row kept; the block
     * is the thread's {@link BlockContext} meanwhile, for the functions of a whole block.
     */
    static IColumn rowByRow(Evaluator e, IColumn[] columns, int rows) {
        Object[] row = new Object[columns.length];
        Object[] out = new Object[rows];
        BlockContext before = BlockContext.enter(columns, rows);
        BlockContext block = BlockContext.current();
        try {
            for (int i = 0; i < rows; i++) {
                for (int c = 0; c < row.length; c++) {
                    row[c] = columns[c].get(i);
                }
                block.row = i;
                out[i] = e.eval(row);
            }
        } finally {
            BlockContext.restore(before);
        }
        return Columns.ofValues(e.type(), out, rows);
    }

    /**
     * A function that is NULL where an argument is and {@code fn} of the arguments' values elsewhere, over columns: its
     * arguments are computed over the block's columns (no row made), then {@code fn} row by row.
     */
    static Evaluator strict(Evaluator rowwise, List<Evaluator> args, Function<Object[], Object> fn) {
        return new OverColumns(rowwise) {
            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                IColumn[] a = new IColumn[args.size()];
                for (int j = 0; j < a.length; j++) {
                    a[j] = args.get(j).evalColumns(columns, rows);
                }
                return strictOver(type(), a, rows, fn);
            }
        };
    }

    /** {@code fn} of each row of the argument columns {@code a}, NULL where one is, as a column of type {@code t}. */
    private static IColumn strictOver(DataType t, IColumn[] a, int rows, Function<Object[], Object> fn) {
        if (DataTypes.fixedLongWidth(t) > 0) {
            // a result held in longs: the type is not Nullable, so no argument is NULL
            long[] out = new long[rows];
            int i = 0;
            for (; i < rows; i++) {
                Object[] v = values(a, i);
                Object r = v == null ? null : fn.apply(v);
                if (!(r instanceof Long)) {
                    break; // not a long after all: the values as they are
                }
                out[i] = (Long) r;
            }
            if (i == rows) {
                return ColumnVector.of(t, out, rows);
            }
        }
        Object[] out = new Object[rows];
        for (int i = 0; i < rows; i++) {
            Object[] v = values(a, i);
            out[i] = v == null ? null : fn.apply(v);
        }
        return Columns.ofValues(t, out, rows);
    }

    /**
     * A strict function of two integer arguments that has a {@code long} form {@code op} besides its row-by-row one:
     * over two columns of {@code long}s (or one and a constant), when the result is held in {@code long}s too, it is
     * one loop of {@code op} with nothing boxed, as ClickHouse's binary arithmetic runs over two vectors. {@code op}
     * must give what {@code fn} gives for two {@code Long}s, errors included.
     */
    static Evaluator strictLongs(Evaluator rowwise, List<Evaluator> args, Function<Object[], Object> fn, LongBinaryOperator op) {
        return new OverColumns(rowwise) {
            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                IColumn x = args.get(0).evalColumns(columns, rows);
                IColumn y = args.get(1).evalColumns(columns, rows);
                LongGetter gx = longs(x);
                LongGetter gy = longs(y);
                if (gx == null || gy == null || DataTypes.fixedLongWidth(type()) <= 0) {
                    return strictOver(type(), new IColumn[] {x, y}, rows, fn);
                }
                long[] out = new long[rows];
                if (x instanceof ColumnVector && y instanceof ColumnConst) {
                    ColumnVector v = (ColumnVector) x;
                    long c = gy.get(0);
                    for (int i = 0; i < rows; i++) {
                        out[i] = op.applyAsLong(v.getLong(i), c);
                    }
                } else {
                    for (int i = 0; i < rows; i++) {
                        out[i] = op.applyAsLong(gx.get(i), gy.get(i));
                    }
                }
                return ColumnVector.of(type(), out, rows);
            }
        };
    }

    /** Row {@code i}'s values of {@code columns}, or null when one is NULL. */
    private static Object[] values(IColumn[] columns, int i) {
        Object[] v = new Object[columns.length];
        for (int j = 0; j < v.length; j++) {
            if ((v[j] = columns[j].get(i)) == null) {
                return null;
            }
        }
        return v;
    }

    /** The rows whose value in {@code condition} is true (not NULL, not zero), or null when all of them are. */
    static int[] selection(IColumn condition) {
        int n = condition.size();
        if (n == 0) {
            return null;
        }
        if (condition instanceof ColumnConst) {
            Object x = condition.get(0);
            return x != null && Values.isTrue(x) ? null : new int[0];
        }
        int[] sel = new int[n];
        int k = 0;
        if (condition instanceof ColumnVector) {
            ColumnVector v = (ColumnVector) condition;
            for (int i = 0; i < n; i++) {
                if (v.getLong(i) != 0) {
                    sel[k++] = i;
                }
            }
        } else {
            for (int i = 0; i < n; i++) {
                Object x = condition.get(i);
                if (x != null && Values.isTrue(x)) {
                    sel[k++] = i;
                }
            }
        }
        return k == n ? null : java.util.Arrays.copyOf(sel, k);
    }

    /** The rows {@code sel} of each column ({@code sel} null: all of them). */
    static IColumn[] filter(IColumn[] columns, int[] sel) {
        if (sel == null) {
            return columns;
        }
        IColumn[] out = new IColumn[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c].permute(sel);
        }
        return out;
    }

    /** A {@code long} column's values, or a constant's repeated, or null when the column holds neither. */
    private static LongGetter longs(IColumn c) {
        if (c instanceof ColumnVector) {
            ColumnVector v = (ColumnVector) c;
            return v::getLong;
        }
        if (c instanceof ColumnConst && c.size() > 0 && c.get(0) instanceof Long) {
            long x = (Long) c.get(0);
            return i -> x;
        }
        return null;
    }

    private interface LongGetter {
        long get(int row);
    }

    /**
     * A comparison of two expressions whose values are integers on one scale ({@code long}s; a UInt64 one, flagged,
     * compares as unsigned): computed over their columns where both are columns of {@code long}s, and row by row as
     * {@code rowwise} otherwise.
     */
    static Evaluator compareLongs(Evaluator rowwise, Evaluator a, Evaluator b, IntPredicate p, boolean aUInt64, boolean bUInt64) {
        return new OverColumns(rowwise) {
            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                IColumn x = a.evalColumns(columns, rows);
                IColumn y = b.evalColumns(columns, rows);
                LongGetter gx = longs(x);
                LongGetter gy = longs(y);
                if (gx == null || gy == null || !(x instanceof ColumnVector || y instanceof ColumnVector)) {
                    return rowByRow(this, columns, rows);
                }
                long[] out = new long[rows];
                if (x instanceof ColumnVector && y instanceof ColumnConst) {
                    // the usual shape, a column against a constant, in a loop of its own
                    ColumnVector v = (ColumnVector) x;
                    long c = gy.get(0);
                    for (int i = 0; i < rows; i++) {
                        out[i] = p.test(compare(v.getLong(i), c, aUInt64, bUInt64)) ? 1 : 0;
                    }
                } else {
                    for (int i = 0; i < rows; i++) {
                        out[i] = p.test(compare(gx.get(i), gy.get(i), aUInt64, bUInt64)) ? 1 : 0;
                    }
                }
                return ColumnVector.of(type(), out, rows);
            }
        };
    }

    /** Compares two integers held in {@code long}s, a UInt64 one (flagged) as unsigned. */
    static int compare(long x, long y, boolean xUInt64, boolean yUInt64) {
        if (xUInt64 == yUInt64) {
            return xUInt64 ? Long.compareUnsigned(x, y) : Long.compare(x, y);
        }
        if (xUInt64) {
            return x < 0 ? 1 : Long.compare(x, y); // x at or above 2^63 exceeds every signed value
        }
        return y < 0 ? -1 : Long.compare(x, y);
    }

    /** AND / OR over conditions that are computed over their columns where all are non-NULL integer columns. */
    static Evaluator logical(Evaluator rowwise, List<Evaluator> args, boolean and) {
        return new OverColumns(rowwise) {
            @Override
            public IColumn evalColumns(IColumn[] columns, int rows) {
                if (type().isNullable()) {
                    return rowByRow(this, columns, rows);
                }
                LongGetter[] gs = new LongGetter[args.size()];
                for (int k = 0; k < gs.length; k++) {
                    try {
                        gs[k] = longs(args.get(k).evalColumns(columns, rows));
                    } catch (ChException e) {
                        gs[k] = null; // an argument that fails on a row AND / OR would not evaluate it for (x != 0 AND 1 / x ...)
                    }
                    if (gs[k] == null) {
                        return rowByRow(this, columns, rows);
                    }
                }
                long[] out = new long[rows];
                java.util.Arrays.fill(out, and ? 1 : 0);
                for (LongGetter g : gs) {
                    for (int i = 0; i < rows; i++) {
                        boolean t = g.get(i) != 0;
                        if (and ? !t : t) {
                            out[i] = and ? 0 : 1;
                        }
                    }
                }
                return ColumnVector.of(type(), out, rows);
            }
        };
    }
}
