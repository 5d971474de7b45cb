package dev.chdedup.it.jmh;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the deduplication benchmarks with JMH and prints the figures the closing notes report: block hashing in
 * MB/s per core (narrow and wide blocks), and insert time with deduplication on against off, as a ratio from the
 * same run. Usage: {@code java -cp ... dev.chdedup.it.jmh.Main [regex]}.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String include = args.length > 0 ? args[0] : "dev.chdedup.it.jmh.*";
        Options opts = new OptionsBuilder().include(include).build();
        Collection<RunResult> results = new Runner(opts).run();
        double on = Double.NaN;
        double off = Double.NaN;
        System.out.println();
        System.out.println("==== chdedup deduplication benchmarks ====");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            double ms = r.getPrimaryResult().getScore();
            if (name.endsWith("hashBlock")) {
                String shape = r.getParams().getParam("shape");
                long bytes = BlockHashBench.sizeOf(BlockHashBench.blockColumns(shape), BlockHashBench.blockRows(shape, BlockHashBench.blockColumns(shape)));
                System.out.printf("block hash, %s block: %.2f ms per block of %.1f MB = %.0f MB/s (one thread)%n", shape, ms, bytes / 1e6,
                    bytes / 1e6 / (ms / 1000));
            } else if (name.endsWith("insertBlocks")) {
                String dedup = r.getParams().getParam("dedup");
                System.out.printf("insert of %d blocks with deduplication %s: %.2f ms%n", InsertDedupBench.BLOCKS, dedup, ms);
                if (dedup.equals("on")) {
                    on = ms;
                } else {
                    off = ms;
                }
            }
        }
        if (!Double.isNaN(on) && !Double.isNaN(off)) {
            System.out.printf("insert time ratio, deduplication on / off: %.3f%n", on / off);
        }
    }
}
