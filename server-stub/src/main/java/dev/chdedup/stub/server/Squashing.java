package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.data.ChunkInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Squashes parsed blocks to at least {@code min_insert_block_size_rows} rows or {@code _bytes} bytes (a zero
 * threshold is off; both zero means no squashing), as ClickHouse's {@code SquashingTransform}: a block already
 * big enough passes alone, small ones are concatenated until the accumulation is big enough, their infos merged.
 */
final class Squashing {
    private final long minRows;
    private final long minBytes;
    /** The blocks accumulated, not big enough yet, and their merged info. */
    private final List<Block> acc = new ArrayList<>();
    private ChunkInfo accInfo;
    private long accRows;
    private long accBytes;

    Squashing(long minRows, long minBytes) {
        this.minRows = minRows;
        this.minBytes = minBytes;
    }

    private boolean enough(long rows, long bytes) {
        return (minRows == 0 && minBytes == 0) || (minRows != 0 && rows >= minRows) || (minBytes != 0 && bytes >= minBytes);
    }

    /** Returns the blocks ready to write after adding {@code b}. */
    List<Block> add(Block b) {
        List<Block> out = new ArrayList<>(2);
        if (b.rowCount() == 0) {
            return out;
        }
        long bytes = minBytes == 0 ? 0 : b.bytes();
        if (enough(b.rowCount(), bytes)) {
            out.addAll(flush());
            out.add(b);
            return out;
        }
        acc.add(b);
        accInfo = acc.size() == 1 ? b.info() : merge(accInfo, b.info());
        accRows += b.rowCount();
        accBytes += bytes;
        if (enough(accRows, accBytes)) {
            out.addAll(flush());
        }
        return out;
    }

    /** The info of two squashed blocks: their merge ({@code DeduplicationInfo} extends or concatenates its tokens). */
    private static ChunkInfo merge(ChunkInfo left, ChunkInfo right) {
        return left == null ? right : right == null ? left : left.merge(right);
    }

    List<Block> flush() {
        List<Block> out = new ArrayList<>(1);
        if (accRows > 0) {
            out.add(concat(acc, accInfo));
        }
        acc.clear();
        accInfo = null;
        accRows = 0;
        accBytes = 0;
        return out;
    }

    /** The blocks' rows one after another, with {@code info}: columnar if they all are. */
    static Block concat(List<Block> blocks, ChunkInfo info) {
        Block first = blocks.get(0);
        if (blocks.size() == 1) {
            return first.withInfo(info);
        }
        int rows = 0;
        boolean columnar = true;
        for (Block b : blocks) {
            rows += b.rowCount();
            columnar &= b.data() != null;
        }
        if (!columnar) {
            List<Object[]> all = new ArrayList<>(rows);
            for (Block b : blocks) {
                all.addAll(b.rows());
            }
            return new Block(first.columns(), all, info);
        }
        List<IColumn[]> parts = new ArrayList<>(blocks.size());
        for (Block b : blocks) {
            parts.add(b.data());
        }
        return Block.ofColumns(first.columns(), Columns.concat(parts, rows), rows, info);
    }
}
