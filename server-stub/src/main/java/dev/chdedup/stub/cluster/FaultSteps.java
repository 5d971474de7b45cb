package dev.chdedup.stub.cluster;

import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * What each {@link FaultType} of a {@link FaultSchedule} step does to the cluster through {@link ClusterFaults}: put
 * the fault on (a failpoint armed on the step's replica or on all, a replica killed, ZooKeeper or one of its nodes
 * stopped, keeper faults switched on), hold it for the step's duration, heal it. A kill of the leader or of a replica
 * with queued work picks its victim when the step runs.
 */
final class FaultSteps {
    private final ClusterFaults faults;
    private final String database;
    private final String table;
    private final long heldResponseMillis;
    private final double keeperFaultProbability;
    private final LongConsumer pause;
    private final BooleanSupplier stopping;

    FaultSteps(ClusterFaults faults, String database, String table, long heldResponseMillis, double keeperFaultProbability, LongConsumer pause,
               BooleanSupplier stopping) {
        this.faults = faults;
        this.database = database;
        this.table = table;
        this.heldResponseMillis = heldResponseMillis;
        this.keeperFaultProbability = keeperFaultProbability;
        this.pause = pause;
        this.stopping = stopping;
    }

    void apply(FaultSchedule.Step s) throws Exception {
        switch (s.type()) {
            case LOST_ACK:
                failpoint(s, s.variant() == 0 ? FaultRule.of(FaultKind.DROP_AFTER_COMMIT)
                    : s.variant() == 1 ? FaultRule.of(FaultKind.CLOSE_AFTER_COMMIT) : FaultRule.errorAfterCommit(319));
                break;
            case CUT_REQUEST:
                failpoint(s, s.variant() == 0 ? FaultRule.of(FaultKind.HTTP_503) : FaultRule.of(FaultKind.DROP_BEFORE_BODY));
                break;
            case COMMITTED_PREFIX:
                failpoint(s, FaultRule.of(s.variant() == 0 ? FaultKind.COMMIT_CUT_BODY_200 : FaultKind.COMMIT_CUT_BODY));
                break;
            case HOLD_RESPONSE:
                failpoint(s, FaultRule.delay(heldResponseMillis));
                break;
            case KILL_REPLICA:
                down(s.target(), s, FaultType.KILL_REPLICA, "");
                break;
            case KILL_LEADER: {
                int leader = faults.whoIsLeader(database, table);
                down(leader == 0 ? s.target() : leader, s, FaultType.KILL_LEADER, leader == 0 ? "no leader: r" + s.target() : "leader");
                break;
            }
            case KILL_QUORUM_REPLICA: {
                // queues drain fast: watch them for a moment for a replica a quorum insert may be waiting on
                List<Integer> busy = faults.replicasWithQueuedWork(database, table);
                for (long until = System.nanoTime() + 1_500_000_000L; busy.isEmpty() && System.nanoTime() < until && !stopping.getAsBoolean(); ) {
                    java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
                    busy = faults.replicasWithQueuedWork(database, table);
                }
                int victim = busy.isEmpty() ? s.target() : busy.get(s.variant() % busy.size());
                down(victim, s, FaultType.KILL_QUORUM_REPLICA, busy.isEmpty() ? "no queued work" : "queue busy on " + busy);
                break;
            }
            case EXPIRE_SESSION:
                faults.expireSession(s.target());
                break;
            case STOP_ZOOKEEPER:
                faults.stopZooKeeper();
                pause.accept(s.holdMillis());
                faults.startZooKeeper();
                break;
            case KILL_ZOOKEEPER_NODE:
                faults.killZooKeeperNode(s.target());
                pause.accept(s.holdMillis());
                faults.restartZooKeeperNode(s.target());
                break;
            case KEEPER_FAULT_INJECTION:
                faults.insertKeeperFaultProbability(keeperFaultProbability);
                pause.accept(s.holdMillis());
                faults.insertKeeperFaultProbability(0);
                break;
            default:
                throw new IllegalStateException(s.type().toString());
        }
    }

    private void failpoint(FaultSchedule.Step s, FaultRule rule) {
        FaultRule r = rule.times(s.times());
        if (s.everywhere()) {
            faults.armAll(r);
        } else {
            faults.arm(s.target(), r);
        }
        pause.accept(s.holdMillis());
        faults.disarmAll();
    }

    private void down(int replica, FaultSchedule.Step s, FaultType as, String why) throws Exception {
        faults.killReplica(replica, as, why);
        pause.accept(s.holdMillis());
        faults.restartReplica(replica);
    }
}
