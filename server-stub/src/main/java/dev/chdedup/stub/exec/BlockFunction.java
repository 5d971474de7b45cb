package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.DataType;
import java.util.List;

/**
 * A function of a whole block, as ClickHouse executes one: its result for each row depends on the other rows of the
 * block (neighbor, runningDifference), on the block's size (blockSize) or on the blocks before (rowNumberInAllBlocks).
 * Over columns it computes its arguments over the block; asked for one row, it computes the block the thread is at
 * ({@link BlockContext}) once and answers that row's value; outside a block a row is a block of its own.
 */
abstract class BlockFunction implements Evaluator {
    private final DataType type;
    private final List<Evaluator> args;
    private Object cachedBlock;
    private Object[] cached;

    BlockFunction(DataType type, List<Evaluator> args) {
        this.type = type;
        this.args = args;
    }

    /** The results for a block of {@code size} rows whose argument values are {@code values[argument][row]}. */
    abstract Object[] block(Object[][] values, int size);

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public IColumn evalColumns(IColumn[] columns, int rows) {
        Object[][] values = new Object[args.size()][];
        for (int a = 0; a < values.length; a++) {
            IColumn c = args.get(a).evalColumns(columns, rows);
            values[a] = new Object[rows];
            for (int i = 0; i < rows; i++) {
                values[a][i] = c.get(i);
            }
        }
        return Columns.ofValues(type, block(values, rows), rows);
    }

    @Override
    public Object eval(Object[] row) {
        BlockContext ctx = BlockContext.current();
        if (ctx == null) {
            Object[][] values = new Object[args.size()][];
            for (int a = 0; a < values.length; a++) {
                values[a] = new Object[] {args.get(a).eval(row)};
            }
            return block(values, 1)[0];
        }
        if (cachedBlock != ctx.key()) {
            cached = valuesOf(ctx);
            cachedBlock = ctx.key();
        }
        return cached[ctx.row];
    }

    /** This function's results over the thread's block, its arguments computed row by row (or over its columns). */
    private Object[] valuesOf(BlockContext ctx) {
        if (ctx.columns != null) {
            IColumn c = evalColumns(ctx.columns, ctx.size);
            Object[] out = new Object[ctx.size];
            for (int i = 0; i < out.length; i++) {
                out[i] = c.get(i);
            }
            return out;
        }
        int at = ctx.row;
        Object[][] values = new Object[args.size()][ctx.size];
        try {
            for (int i = 0; i < ctx.size; i++) {
                ctx.row = i;
                for (int a = 0; a < values.length; a++) {
                    values[a][i] = args.get(a).eval(ctx.rows.get(i));
                }
            }
        } finally {
            ctx.row = at;
        }
        return block(values, ctx.size);
    }
}
