package dev.chdedup.it.chaos;

import dev.chdedup.stub.cluster.FaultType;
import dev.chdedup.stub.cluster.StubCluster;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The long chaos run (issue 10): a 3-replica stub cluster on a 3-node embedded ZooKeeper ensemble, the workload of
 * {@link Workload} under a seeded fault schedule, a progress line every 5 s and the report; the exit status is 0 when
 * the last line is {@code exactly-once: OK}. The same seed replays the same schedule and the same batches.
 * <pre>java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.chaos.ChaosRun --seed 1</pre>
 */
@Command(name = "ChaosRun", mixinStandardHelpOptions = true, description = "Exactly-once under cluster faults, through HikariCP and the dedup driver")
public final class ChaosRun implements Callable<Integer> {
    @Option(names = "--writers", description = "concurrent writers (default ${DEFAULT-VALUE})")
    int writers = 8;
    @Option(names = "--batches", description = "batches per writer (default ${DEFAULT-VALUE})")
    int batches = 500;
    @Option(names = "--seed", description = "seed of the batches and of the fault schedule (default ${DEFAULT-VALUE})")
    long seed = 1;
    @Option(names = "--duration", description = "spread each writer's batches over at least this many seconds (default ${DEFAULT-VALUE})")
    long durationSeconds = 180;
    @Option(names = "--mean-gap-ms", description = "mean pause between two faults (default ${DEFAULT-VALUE})")
    long meanGapMs = 2000;
    @Option(names = "--rate", split = ",", description = "fault weights, TYPE=W[,TYPE=W...] (types: ${COMPLETION-CANDIDATES}); default every type at 1")
    Map<FaultType, Double> rates = new EnumMap<>(FaultType.class);
    @Option(names = "--quorum-share", description = "share of batches written with insert_quorum=2 (default ${DEFAULT-VALUE})")
    double quorumShare = 0.5;
    @Option(names = "--large-every", description = "every n-th batch of a writer has 10,000 rows; 0: none (default ${DEFAULT-VALUE})")
    int largeEvery = 50;
    @Option(names = "--min-faults", description = "keep the schedule going after the writers until this many faults fired (default ${DEFAULT-VALUE})")
    int minFaults = 0;
    @Option(names = "--no-raw", description = "leave out the raw official driver's contrast")
    boolean noRaw;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ChaosRun()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Map<FaultType, Double> weights = rates.isEmpty() ? ChaosConfig.allWeights(1) : rates;
        ChaosConfig config = new ChaosConfig(writers, batches, seed, Duration.ofSeconds(durationSeconds), weights, Duration.ofMillis(meanGapMs),
            quorumShare, 3, 3, !noRaw, largeEvery, minFaults);
        ChaosReport report = run(config, System.out);
        System.out.println(report);
        return report.ok() ? 0 : 1;
    }

    /** Starts the cluster of {@code config}, runs the workload on it, closes it, and returns the report. */
    static ChaosReport run(ChaosConfig config, java.io.PrintStream out) throws Exception {
        try (StubCluster cluster = StubCluster.builder().replicas(config.replicas()).zookeeperEnsemble(config.zookeeperNodes()).build().start()) {
            out.printf("cluster ready: %s on ZooKeeper %s%n", cluster.httpUrls(), cluster.zookeeperConnectString());
            return new Workload(cluster, config, out).run();
        }
    }
}
