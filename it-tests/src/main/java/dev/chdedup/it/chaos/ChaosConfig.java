package dev.chdedup.it.chaos;

import dev.chdedup.stub.cluster.FaultSchedule;
import dev.chdedup.stub.cluster.FaultType;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The shape of one chaos run: how many writers write how many batches (spread over at least {@code duration}), the
 * seed of the batches and of the fault schedule, the fault types' weights and mean gap, the share of batches written
 * with {@code insert_quorum=2}, the cluster (3 replicas on a 3-node embedded ensemble), and whether the same batches
 * also go through the raw official driver as the contrast; the schedule applies at least {@code minFaults} faults.
 */
public record ChaosConfig(int writers, int batches, long seed, Duration duration, Map<FaultType, Double> weights, Duration meanGap,
                          double quorumShare, int replicas, int zookeeperNodes, boolean rawContrast, int largeBatchEvery, int minFaults) {

    /** Issue 10's workload: 8 writers x 500 batches, every fault type at weight 1, about every 2 s. */
    public static ChaosConfig standard(long seed) {
        return new ChaosConfig(8, 500, seed, Duration.ofMinutes(3), allWeights(1), Duration.ofSeconds(2), 0.5, 3, 3, true, 50, 0);
    }

    /** How long the replicas may take to converge once every fault is healed. */
    public Duration convergenceDeadline() {
        return Duration.ofSeconds(45);
    }

    public static Map<FaultType, Double> allWeights(double w) {
        Map<FaultType, Double> m = new EnumMap<>(FaultType.class);
        for (FaultType t : FaultType.values()) {
            m.put(t, w);
        }
        return m;
    }

    public ChaosConfig withSize(int w, int b, Duration d) {
        return new ChaosConfig(w, b, seed, d, weights, meanGap, quorumShare, replicas, zookeeperNodes, rawContrast, largeBatchEvery, minFaults);
    }

    public ChaosConfig withFaults(Map<FaultType, Double> w, Duration gap) {
        return new ChaosConfig(writers, batches, seed, duration, w, gap, quorumShare, replicas, zookeeperNodes, rawContrast, largeBatchEvery, minFaults);
    }

    public ChaosConfig withLargeBatchEvery(int n) {
        return new ChaosConfig(writers, batches, seed, duration, weights, meanGap, quorumShare, replicas, zookeeperNodes, rawContrast, n, minFaults);
    }

    /** Keeps the schedule running after the writers are done until it has applied {@code n} faults. */
    public ChaosConfig withMinFaults(int n) {
        return new ChaosConfig(writers, batches, seed, duration, weights, meanGap, quorumShare, replicas, zookeeperNodes, rawContrast, largeBatchEvery, n);
    }

    /** The schedule of this run: the weights, the mean gap, responses held past the writers' socket timeout. */
    public FaultSchedule schedule() {
        FaultSchedule.Builder b = FaultSchedule.builder(seed).meanGap(meanGap).heldResponse(Duration.ofMillis(Workload.SOCKET_TIMEOUT_MS + 1500))
            .keeperFaultProbability(Workload.KEEPER_FAULT_PROBABILITY).roundRobin();
        weights.forEach(b::weight);
        return b.build();
    }
}
