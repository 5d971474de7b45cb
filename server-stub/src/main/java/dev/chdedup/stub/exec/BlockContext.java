package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.IColumn;
import java.util.List;

/**
 * The block a thread is evaluating an expression over, row by row, and the row it is at: what a function of the whole
 * block ({@link BlockFunction}: rowNumberInBlock, neighbor, runningDifference, ...) reads when it is asked for one
 * row, as ClickHouse executes every function on a block at once. The block is either columns or rows; the row loops
 * over a block ({@link ColumnFunctions#rowByRow}, {@link BlockStreams}) enter it and restore the one before.
 */
final class BlockContext {
    private static final ThreadLocal<BlockContext> CURRENT = new ThreadLocal<>();

    /** The block's columns, or null when it is {@link #rows}. */
    final IColumn[] columns;
    /** The block's rows, or null when it is {@link #columns}. */
    final List<Object[]> rows;
    final int size;
    /** The row being evaluated. */
    int row;

    private BlockContext(IColumn[] columns, List<Object[]> rows, int size) {
        this.columns = columns;
        this.rows = rows;
        this.size = size;
    }

    /** The block the thread evaluates, or null outside a block (a single row then stands for its block). */
    static BlockContext current() {
        return CURRENT.get();
    }

    /** Makes the block of {@code columns} the thread's; returns the one before, for {@link #restore}. */
    static BlockContext enter(IColumn[] columns, int size) {
        BlockContext before = CURRENT.get();
        CURRENT.set(new BlockContext(columns, null, size));
        return before;
    }

    /** Makes the block of {@code rows} the thread's; returns the one before, for {@link #restore}. */
    static BlockContext enter(List<Object[]> rows) {
        BlockContext before = CURRENT.get();
        CURRENT.set(new BlockContext(null, rows, rows.size()));
        return before;
    }

    static void restore(BlockContext before) {
        if (before == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(before);
        }
    }

    /** What identifies the block: its columns or its rows, by identity. */
    Object key() {
        return columns != null ? columns : rows;
    }
}
