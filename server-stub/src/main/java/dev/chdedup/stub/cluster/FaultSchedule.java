package dev.chdedup.stub.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A seeded random sequence of cluster faults, drawn by weight per {@link FaultType} (or from shuffled decks of every
 * type, {@link Builder#roundRobin}) with exponential gaps between them,
 * and a runner that applies it to a {@link ClusterFaults} one fault at a time: a fault is put on, held for its
 * duration, healed, then the next one waits its gap. The sequence (types, targets, variants, durations, gaps) is a
 * function of the seed and the cluster's shape alone, so a failing seed replays the same schedule; only which inserts
 * the faults meet depends on timing. {@link #plan} shows the steps without running them.
 */
public final class FaultSchedule {
    private static final Logger LOG = LoggerFactory.getLogger(FaultSchedule.class);

    /** One planned fault: wait {@code gapMillis}, put {@code type} on {@code target} (1-based) for {@code holdMillis}. */
    public record Step(long gapMillis, FaultType type, int target, boolean everywhere, int variant, int times, long holdMillis) {
    }

    private final long seed;
    private final Map<FaultType, Double> weights;
    private final long meanGapMillis;
    private final long heldResponseMillis;
    private final double keeperFaultProbability;
    private final boolean roundRobin;

    private FaultSchedule(Builder b) {
        this.roundRobin = b.roundRobin;
        this.seed = b.seed;
        this.weights = new EnumMap<>(b.weights);
        this.meanGapMillis = b.meanGap.toMillis();
        this.heldResponseMillis = b.heldResponse.toMillis();
        this.keeperFaultProbability = b.keeperFaultProbability;
    }

    public static Builder builder(long seed) {
        return new Builder(seed);
    }

    public long seed() {
        return seed;
    }

    /** The first {@code n} steps for a cluster of {@code replicas} replicas and {@code zookeeperNodes} ZooKeeper nodes. */
    public List<Step> plan(int n, int replicas, int zookeeperNodes) {
        Draw draw = new Draw();
        List<Step> steps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            steps.add(draw.next(replicas, zookeeperNodes));
        }
        return steps;
    }

    /** The seeded stream of steps; in round-robin mode types come from shuffled decks holding each weighted type. */
    private final class Draw {
        private final Random r = new Random(seed);
        private final java.util.ArrayDeque<FaultType> deck = new java.util.ArrayDeque<>();

        Step next(int replicas, int zkNodes) {
            FaultType type = roundRobin ? fromDeck(zkNodes) : byWeight(r, zkNodes);
            return step(r, type, replicas, zkNodes);
        }

        private FaultType fromDeck(int zkNodes) {
            if (deck.isEmpty()) {
                List<FaultType> cards = new ArrayList<>();
                for (Map.Entry<FaultType, Double> e : weights.entrySet()) {
                    if (e.getKey() != FaultType.KILL_ZOOKEEPER_NODE || zkNodes > 1) {
                        for (long k = Math.max(1, Math.round(e.getValue())); k > 0; k--) {
                            cards.add(e.getKey());
                        }
                    }
                }
                java.util.Collections.shuffle(cards, r);
                deck.addAll(cards);
            }
            return deck.poll();
        }
    }

    private FaultType byWeight(Random r, int zkNodes) {
        double total = 0;
        for (Map.Entry<FaultType, Double> e : weights.entrySet()) {
            if (e.getKey() != FaultType.KILL_ZOOKEEPER_NODE || zkNodes > 1) {
                total += e.getValue();
            }
        }
        double pick = r.nextDouble() * total;
        FaultType type = null;
        for (Map.Entry<FaultType, Double> e : weights.entrySet()) {
            if (e.getKey() == FaultType.KILL_ZOOKEEPER_NODE && zkNodes <= 1) {
                continue;
            }
            type = e.getKey();
            pick -= e.getValue();
            if (pick < 0) {
                break;
            }
        }
        return type;
    }

    private Step step(Random r, FaultType type, int replicas, int zkNodes) {
        long gap = (long) (-Math.log(1 - r.nextDouble()) * meanGapMillis);
        int target = 1 + r.nextInt(type == FaultType.KILL_ZOOKEEPER_NODE ? zkNodes : replicas);
        boolean everywhere = r.nextInt(3) == 0;
        int variant = r.nextInt(3);
        int times = 1 + r.nextInt(3);
        long hold = 1_000 + r.nextInt(2_500);
        return new Step(gap, type, target, everywhere, variant, times, hold);
    }

    /** Applies the schedule to {@code faults} in a background thread until the runner is closed. */
    public Runner start(ClusterFaults faults, int replicas, String database, String table) {
        int zk = faults.zooKeeperNodes();
        Runner runner = new Runner(faults, replicas, zk, database, table);
        runner.thread.start();
        return runner;
    }

    /** The thread applying a schedule; {@link #close} stops it and heals whatever fault is on. */
    public final class Runner implements AutoCloseable {
        private final Thread thread;
        private final FaultSteps steps;
        private final ClusterFaults faults;
        private volatile boolean stopping;
        private volatile Throwable failure;
        private int applied;

        private Runner(ClusterFaults faults, int replicas, int zkNodes, String database, String table) {
            this.faults = faults;
            this.steps = new FaultSteps(faults, database, table, heldResponseMillis, keeperFaultProbability, this::pause, () -> stopping);
            this.thread = new Thread(() -> run(replicas, zkNodes), "fault-schedule-" + seed);
            thread.setDaemon(true);
        }

        private void run(int replicas, int zkNodes) {
            Draw draw = new Draw();
            try {
                while (!stopping) {
                    Step s = draw.next(replicas, zkNodes);
                    if (!pause(s.gapMillis())) {
                        return;
                    }
                    LOG.info("Schedule {} step {}: {}", seed, applied + 1, s);
                    steps.apply(s);
                    synchronized (this) {
                        applied++;
                    }
                }
            } catch (Exception | AssertionError e) {
                failure = e;
                LOG.error("Fault schedule {} failed", seed, e);
            }
        }

        /** Waits {@code ms} unless the runner is closed meanwhile; false when it was. */
        private boolean pause(long ms) {
            long deadline = System.nanoTime() + ms * 1_000_000;
            synchronized (this) {
                while (!stopping) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        return true;
                    }
                    try {
                        wait(left);
                    } catch (InterruptedException e) {
                        return false;
                    }
                }
            }
            return false;
        }


        /** Faults applied so far. */
        public synchronized int applied() {
            return applied;
        }

        /** What stopped the runner early, if anything did. */
        public Throwable failure() {
            return failure;
        }

        /** Stops applying faults, waits for the step in progress to end, and heals the cluster. */
        @Override
        public void close() throws Exception {
            synchronized (this) {
                stopping = true;
                notifyAll();
            }
            thread.join(60_000);
            faults.healAll();
        }
    }

    /** The kinds to draw and their weights, the mean gap, the held response's length. */
    public static final class Builder {
        private final long seed;
        private final Map<FaultType, Double> weights = new EnumMap<>(FaultType.class);
        private Duration meanGap = Duration.ofSeconds(2);
        private Duration heldResponse = Duration.ofSeconds(3);
        private double keeperFaultProbability = 0.2;
        private boolean roundRobin;

        private Builder(long seed) {
            this.seed = seed;
        }

        /** Draws {@code type} with this relative weight (0 leaves it out). */
        public Builder weight(FaultType type, double weight) {
            if (weight < 0) {
                throw new IllegalArgumentException("a weight is not negative: " + weight);
            }
            weights.put(type, weight);
            return this;
        }

        /** Every type with weight 1. */
        public Builder allTypes() {
            for (FaultType t : FaultType.values()) {
                weights.put(t, 1.0);
            }
            return this;
        }

        /**
         * Draws types from shuffled decks instead of independently: each deck holds every weighted type (weight
         * rounded, at least once), so {@code k} decks' worth of steps fire every type at least {@code k} times.
         */
        public Builder roundRobin() {
            this.roundRobin = true;
            return this;
        }

        public Builder meanGap(Duration d) {
            this.meanGap = d;
            return this;
        }

        /** How long a held response waits (longer than the writers' socket timeout). */
        public Builder heldResponse(Duration d) {
            this.heldResponse = d;
            return this;
        }

        public Builder keeperFaultProbability(double p) {
            this.keeperFaultProbability = p;
            return this;
        }

        public FaultSchedule build() {
            weights.values().removeIf(w -> w == 0);
            if (weights.isEmpty()) {
                throw new IllegalStateException("a schedule needs at least one fault type with a weight above 0");
            }
            return new FaultSchedule(this);
        }
    }
}
