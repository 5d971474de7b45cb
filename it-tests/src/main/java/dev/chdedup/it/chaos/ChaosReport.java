package dev.chdedup.it.chaos;

import dev.chdedup.stub.cluster.ExactlyOnceChecker;
import dev.chdedup.stub.cluster.FaultType;
import dev.chdedup.stub.fault.FaultKind;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of a chaos run as it is printed: the workload, what each driver's writers saw, the faults fired by type
 * and the failpoints that hit an insert, the checker's findings per replica for our driver and for the raw one, and a
 * last line {@code exactly-once: OK ...} or {@code exactly-once: VIOLATED ...} about our driver.
 */
record ChaosReport(ChaosConfig config, long writeMillis, Tally ours, Tally raw, Map<FaultType, Integer> faults,
                   Map<FaultKind, Integer> failpointHits, Throwable scheduleFailure, ExactlyOnceChecker.Result oursResult,
                   ExactlyOnceChecker.Result rawResult) {

    /** Every acknowledged batch exactly once on every replica, replicas converged, and the schedule ran to the end. */
    boolean ok() {
        return oursResult.ok() && scheduleFailure == null;
    }

    /** The fault types of the run's weights that never fired. */
    Set<FaultType> typesNotFired() {
        Set<FaultType> missing = EnumSet.noneOf(FaultType.class);
        config.weights().forEach((t, w) -> {
            if (w > 0 && !faults.containsKey(t) && (t != FaultType.KILL_ZOOKEEPER_NODE || config.zookeeperNodes() > 1)) {
                missing.add(t);
            }
        });
        return missing;
    }

    String lastLine() {
        String figures = String.format("seed=%d writers=%d batches=%d acked=%d failed=%d lost_rows=%d duplicated_rows=%d faults=%d",
            config.seed(), config.writers(), config.batches(), ours.acknowledged(), ours.failed(), oursResult.lostRows(),
            oursResult.duplicatedRows(), faults.values().stream().mapToInt(Integer::intValue).sum());
        if (ok()) {
            return "exactly-once: OK " + figures;
        }
        String why = scheduleFailure != null ? " schedule failed: " + scheduleFailure : oursResult.converged() ? "" : " replicas not converged";
        return "exactly-once: VIOLATED " + figures + why;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("chaos run: %d writers x %d batches, seed %d, %d replicas, %d ZooKeeper node(s), insert_quorum=2 on %.0f%% of batches%n",
            config.writers(), config.batches(), config.seed(), config.replicas(), config.zookeeperNodes(), config.quorumShare() * 100));
        sb.append(String.format("writing took %.1f s%n", writeMillis / 1000.0));
        sb.append("faults fired by type: ").append(faults).append('\n');
        sb.append("failpoints that hit an insert: ").append(failpointHits).append('\n');
        sb.append("our driver: ").append(ours).append('\n');
        ours.firstErrors().stream().limit(2).forEach(e -> sb.append("  failed: ").append(e).append('\n'));
        ours.reasons().entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue())
            .forEach(e -> sb.append("  failed ").append(e.getValue()).append(" x: ").append(e.getKey()).append('\n'));
        sb.append(indent(oursResult.toString())).append('\n');
        if (rawResult != null) {
            sb.append("raw official driver (contrast, application retries up to 3 times): ").append(raw).append('\n');
            sb.append(indent(rawResult.toString())).append('\n');
            sb.append(String.format("raw driver: %d rows lost, %d rows duplicated over all replicas%n", rawResult.lostRows(), rawResult.duplicatedRows()));
        }
        sb.append(String.format("convergence after the faults healed: %d ms%n", oursResult.convergenceMillis()));
        if (!typesNotFired().isEmpty()) {
            sb.append("fault types that never fired: ").append(typesNotFired()).append('\n');
        }
        sb.append(lastLine());
        return sb.toString();
    }

    private static String indent(String s) {
        return "  " + s.replace("\n", "\n  ");
    }
}
