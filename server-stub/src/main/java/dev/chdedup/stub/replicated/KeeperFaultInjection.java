package dev.chdedup.stub.replicated;

import java.util.Random;
import org.apache.zookeeper.KeeperException;

/**
 * ZooKeeper faults injected into a replicated insert, after ClickHouse's {@code ZooKeeperWithFaultInjection} and its
 * {@code insert_keeper_fault_injection_probability} setting: before each of the insert's ZooKeeper requests a fault
 * fires with that probability, as a lost connection. On the check-and-lock multi it fires before the request is
 * sent (nothing happened: the insert fails with UNEXPECTED_ZOOKEEPER_ERROR); on the commit multi it fires either
 * before sending or after the request was applied and its answer lost (UNKNOWN_STATUS_OF_INSERT), so a client's
 * retry meets both outcomes.
 */
public final class KeeperFaultInjection {
    public static final KeeperFaultInjection NONE = new KeeperFaultInjection(0, 0);

    private final double probability;
    private final Random random;

    public KeeperFaultInjection(double probability, long seed) {
        this.probability = probability;
        this.random = seed == 0 ? new Random() : new Random(seed);
    }

    private boolean fires() {
        return probability > 0 && random.nextDouble() < probability;
    }

    /** Fires before a request: nothing was sent. */
    void beforeRequest(String path) throws KeeperException {
        if (fires()) {
            throw new KeeperException.ConnectionLossException();
        }
    }

    /** Whether a fault fires after the commit request was applied (its answer is lost); decided before it is sent. */
    boolean afterRequest() {
        return fires() && random.nextBoolean();
    }
}
