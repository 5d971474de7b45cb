package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Block;
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
    private Block acc;
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
            if (acc != null) {
                out.add(acc);
                acc = null;
                accBytes = 0;
            }
            out.add(b);
            return out;
        }
        if (acc == null) {
            acc = new Block(b.columns(), new ArrayList<>(b.rows()), b.info());
        } else {
            acc.rows().addAll(b.rows());
            acc = new Block(acc.columns(), acc.rows(), merge(acc.info(), b.info()));
        }
        accBytes += bytes;
        if (enough(acc.rowCount(), accBytes)) {
            out.add(acc);
            acc = null;
            accBytes = 0;
        }
        return out;
    }

    /** The info of two squashed blocks: their merge ({@code DeduplicationInfo} extends or concatenates its tokens). */
    private static ChunkInfo merge(ChunkInfo left, ChunkInfo right) {
        return left == null ? right : right == null ? left : left.merge(right);
    }

    List<Block> flush() {
        List<Block> out = new ArrayList<>(1);
        if (acc != null && acc.rowCount() > 0) {
            out.add(acc);
        }
        acc = null;
        accBytes = 0;
        return out;
    }
}
