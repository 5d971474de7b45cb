package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** The {@code numbers(...)} table function and {@code system.numbers}: UInt64 values generated block by block. */
public final class NumbersSource {
    private NumbersSource() {
    }

    /** {@code count} of -1 is endless (system.numbers; the query's LIMIT ends it). */
    public static Iterator<Block> blocks(long start, long count, long step, int maxBlock, List<Column> cols) {
        return new Iterator<>() {
            long produced;

            @Override
            public boolean hasNext() {
                return count < 0 || produced < count;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                long n = count < 0 ? maxBlock : Math.min(maxBlock, count - produced);
                List<Object[]> rows = new ArrayList<>((int) n);
                for (long i = 0; i < n; i++) {
                    rows.add(new Object[] {start + (produced + i) * step});
                }
                produced += n;
                return new Block(cols, rows);
            }
        };
    }
}
