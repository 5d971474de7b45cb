package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Lazy transformations of block streams the SELECT pipeline is built from: filtering and projecting block by
 * block (keeping the source's block boundaries), OFFSET/LIMIT that stop reading early, and cutting a row list
 * into blocks of {@code max_block_size}.
 */
public final class BlockStreams {
    private BlockStreams() {
    }

    /** {@code in} with {@code f} applied to each block as it is read. */
    private static Iterator<Block> map(Iterator<Block> in, java.util.function.UnaryOperator<Block> f) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return in.hasNext();
            }

            @Override
            public Block next() {
                return f.apply(in.next());
            }
        };
    }

    /** {@code in}, counting its non-empty blocks into {@code count[0]} as they are read. */
    static Iterator<Block> counting(Iterator<Block> in, int[] count) {
        return map(in, b -> {
            if (b.rowCount() > 0) {
                count[0]++;
            }
            return b;
        });
    }

    static Iterator<Block> filter(Iterator<Block> in, Evaluator where) {
        return map(in, b -> {
            if (b.data() != null) {
                // a columnar block stays columnar: the condition over its columns, the rows it selects from each
                int[] sel = ColumnFunctions.selection(where.evalColumns(b.data(), b.rowCount()));
                return sel == null ? b : Block.ofColumns(b.columns(), ColumnFunctions.filter(b.data(), sel), sel.length, null);
            }
            List<Object[]> kept = new ArrayList<>();
            List<Object[]> rows = b.rows();
            BlockContext before = BlockContext.enter(rows);
            BlockContext block = BlockContext.current();
            try {
                for (int i = 0; i < rows.size(); i++) {
                    block.row = i;
                    if (Values.isTrue(where.eval(rows.get(i)))) {
                        kept.add(rows.get(i));
                    }
                }
            } finally {
                BlockContext.restore(before);
            }
            return new Block(b.columns(), kept);
        });
    }

    static Iterator<Block> mapBlocks(Iterator<Block> in, List<Evaluator> proj) {
        return map(in, b -> {
            if (b.data() != null) {
                // a projection over a columnar block: each expression over its columns (a bare column is the block's)
                IColumn[] cols = new IColumn[proj.size()];
                for (int i = 0; i < cols.length; i++) {
                    cols[i] = proj.get(i).evalColumns(b.data(), b.rowCount());
                }
                return Block.ofColumns(List.of(), cols, b.rowCount(), null);
            }
            List<Object[]> out = new ArrayList<>(b.rowCount());
            List<Object[]> rows = b.rows();
            BlockContext before = BlockContext.enter(rows);
            BlockContext block = BlockContext.current();
            try {
                for (int r = 0; r < rows.size(); r++) {
                    block.row = r;
                    Object[] o = new Object[proj.size()];
                    for (int i = 0; i < o.length; i++) {
                        o[i] = proj.get(i).eval(rows.get(r));
                    }
                    out.add(o);
                }
            } finally {
                BlockContext.restore(before);
            }
            return new Block(List.of(), out);
        });
    }

    static Iterator<Block> limitBlocks(Iterator<Block> in, List<Column> header, long offset, long limit) {
        return new Iterator<>() {
            long skipped;
            long emitted;
            Block pending;

            @Override
            public boolean hasNext() {
                while (pending == null && emitted < limit && in.hasNext()) {
                    Block b = in.next();
                    int n = b.rowCount();
                    int from = 0;
                    if (skipped < offset) {
                        int skip = (int) Math.min(n, offset - skipped);
                        skipped += skip;
                        from = skip;
                    }
                    int to = (int) Math.min(n, from + (limit - emitted));
                    if (to > from) {
                        emitted += to - from;
                        pending = from == 0 && to == n ? new Block(header, b.rows(), null) : cut(b, header, from, to - from);
                    }
                }
                return pending != null;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block b = pending;
                pending = null;
                return b;
            }
        };
    }

    /** Rows {@code [from, from + length)} of {@code b}: cut columns for a columnar block. */
    static Block cut(Block b, List<Column> header, int from, int length) {
        if (b.data() == null) {
            return new Block(header, new ArrayList<>(b.rows().subList(from, from + length)));
        }
        IColumn[] cols = new IColumn[b.data().length];
        for (int c = 0; c < cols.length; c++) {
            cols[c] = b.data()[c].cut(from, length);
        }
        return Block.ofColumns(header, cols, length, null);
    }

    interface RowMap {
        Object[] apply(Object[] r);
    }

    static Iterator<Object[]> flatten(Iterator<Block> in, RowMap f) {
        List<Object[]> all = new ArrayList<>();
        while (in.hasNext()) {
            List<Object[]> rows = in.next().rows();
            BlockContext before = BlockContext.enter(rows);
            BlockContext block = BlockContext.current();
            try {
                for (int i = 0; i < rows.size(); i++) {
                    block.row = i;
                    all.add(f.apply(rows.get(i)));
                }
            } finally {
                BlockContext.restore(before);
            }
        }
        return all.iterator();
    }

    public static Iterator<Block> chunk(List<Column> header, List<Object[]> rows, int maxBlock) {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < rows.size(); i += maxBlock) {
            blocks.add(new Block(header, rows.subList(i, Math.min(rows.size(), i + maxBlock))));
        }
        return blocks.iterator();
    }

    /** Checks for KILL QUERY before each block is read. */
    static Iterator<Block> cancellable(Iterator<Block> in, QueryContext ctx) {
        return cancellable(in, ctx, false);
    }

    /** Checks for KILL QUERY before each block is read; counts the block as read from storage when {@code counted}. */
    static Iterator<Block> cancellable(Iterator<Block> in, QueryContext ctx, boolean counted) {
        return observed(in, ctx::checkCancelled, counted ? ctx::addRead : b -> { });
    }

    /** Counts the rows of each block {@code in} yields as rows that reached a LIMIT. */
    static Iterator<Block> countedBeforeLimit(Iterator<Block> in, QueryContext ctx) {
        return observed(in, () -> { }, b -> ctx.addRowsBeforeLimit(b.rowCount()));
    }

    /** {@code in}, running {@code before} ahead of reading each block and handing each block read to {@code after}. */
    private static Iterator<Block> observed(Iterator<Block> in, Runnable before, java.util.function.Consumer<Block> after) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return in.hasNext();
            }

            @Override
            public Block next() {
                before.run();
                Block b = in.next();
                after.accept(b);
                return b;
            }
        };
    }
}
