package dev.chdedup.it.jmh;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.dedup.BlockIds;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the block data hash that gives a block its id (SipHash-128 over the values, column by column),
 * on a narrow block (one UInt64 column) and a wide one (twelve columns of mixed types). {@link Main} turns the
 * time per block into bytes per second of the block's RowBinary size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BlockHashBench {
    @Param({"narrow", "wide"})
    public String shape;

    List<Column> columns;
    List<Object[]> rows;
    /** The block's size in RowBinary, the "bytes" of bytes per second. */
    public long bytes;

    @Setup(Level.Trial)
    public void setup() {
        columns = blockColumns(shape);
        rows = blockRows(shape, columns);
        bytes = sizeOf(columns, rows);
    }

    static List<Column> blockColumns(String shape) {
        if (shape.equals("narrow")) {
            return List.of(new Column("id", DataTypes.UINT64));
        }
        return List.of(new Column("id", DataTypes.UINT64), new Column("ts", DataTypes.DATETIME), new Column("user", DataTypes.STRING),
            new Column("event", DataTypes.parse("LowCardinality(String)")), new Column("value", DataTypes.FLOAT64),
            new Column("count", DataTypes.UINT32), new Column("flag", DataTypes.UINT8), new Column("day", DataTypes.DATE),
            new Column("amount", DataTypes.parse("Decimal(18, 4)")), new Column("ref", DataTypes.INT64),
            new Column("note", DataTypes.parse("Nullable(String)")), new Column("tags", DataTypes.parse("Array(String)")));
    }

    static List<Object[]> blockRows(String shape, List<Column> columns) {
        int n = shape.equals("narrow") ? 1_000_000 : 100_000;
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (shape.equals("narrow")) {
                rows.add(new Object[] {(long) i * 7919});
            } else {
                rows.add(new Object[] {(long) i, 1_700_000_000L + i, "user-" + (i % 5000), i % 3 == 0 ? "click" : "view", i * 0.5,
                    (long) (i % 1000), (long) (i & 1), 19_700L + i % 30, java.math.BigDecimal.valueOf(i, 4), (long) -i,
                    i % 4 == 0 ? null : "note " + i, List.of("a", "b" + (i % 7))});
            }
        }
        return rows;
    }

    static long sizeOf(List<Column> columns, List<Object[]> rows) {
        BinaryOut out = new BinaryOut(1 << 20);
        long total = 0;
        for (Object[] r : rows) {
            for (int c = 0; c < columns.size(); c++) {
                columns.get(c).type().writeBinary(r[c], out);
            }
            if (out.size() > (1 << 20)) {
                total += out.size();
                out.reset();
            }
        }
        return total + out.size();
    }

    @Benchmark
    public long[] hashBlock() {
        return BlockIds.hashData(columns, rows);
    }
}
