package dev.chdedup.stub.cluster;

import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.replicated.StorageReplicatedMergeTree;
import dev.chdedup.stub.server.StubServer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault handle of a {@link StubCluster}: every fault a chaos test applies to the cluster, done for real, and a log
 * of each one as it fires (also written to SLF4J). A killed replica stops with no cleanup (its ZooKeeper session is left
 * to expire); a session expiry is ZooKeeper's own (a second client takes over the replica's session and closes it, so
 * the server drops its ephemeral nodes and the replica's next request meets SESSION_EXPIRED); ZooKeeper stops as a
 * whole or, with an ensemble, one node at a time; failpoints are the stub's {@link FaultRule}s, armed on one replica
 * or on all. {@link #insertKeeperFaultProbability} is a value writers read to set ClickHouse's
 * {@code insert_keeper_fault_injection_probability} on their inserts. {@link #healAll} undoes whatever is still on.
 */
public final class ClusterFaults {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterFaults.class);

    /** One fault that fired: when (ms since the epoch), what, on what (r2, zk1, all, ...), and details. */
    public record Fired(long timeMillis, FaultType type, String target, String detail) {
        @Override
        public String toString() {
            return type + " on " + target + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    private final StubCluster cluster;
    private final List<Fired> log = new ArrayList<>();
    private volatile double keeperFaultProbability;

    ClusterFaults(StubCluster cluster) {
        this.cluster = cluster;
    }

    private void fired(FaultType type, String target, String detail) {
        Fired f = new Fired(System.currentTimeMillis(), type, target, detail);
        synchronized (log) {
            log.add(f);
        }
        LOG.info("Fault fired: {}", f);
    }

    /** Every fault fired so far, in order. */
    public List<Fired> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /** How many faults of each type fired. */
    public Map<FaultType, Integer> firedByType() {
        Map<FaultType, Integer> m = new EnumMap<>(FaultType.class);
        for (Fired f : log()) {
            m.merge(f.type(), 1, Integer::sum);
        }
        return m;
    }

    /** Stops replica {@code i} (1-based) abruptly; see {@link StubServer#kill}. */
    public void killReplica(int i) {
        killReplica(i, FaultType.KILL_REPLICA, "");
    }

    void killReplica(int i, FaultType as, String why) {
        cluster.replica(i).kill();
        fired(as, "r" + i, why);
    }

    /** Starts replica {@code i} again on its data directory and port (nothing happens when it runs). */
    public void restartReplica(int i) throws java.io.IOException {
        if (cluster.replica(i).state() != StubServer.State.STARTED) {
            cluster.restart(i);
            LOG.info("Replica r{} restarted", i);
        }
    }

    /**
     * Expires replica {@code i}'s ZooKeeper session on the server: a second client joins the session with its id and
     * password and closes it, as Curator's old {@code KillSession} did. The replica turns read-only and makes a new one.
     */
    public void expireSession(int i) throws Exception {
        org.apache.curator.framework.CuratorFramework curator = cluster.replica(i).replication().zookeeper().curator();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            // the replica's current session: after an earlier fault its client may still be making a new one
            if (!curator.getZookeeperClient().blockUntilConnectedOrTimedOut()) {
                continue;
            }
            ZooKeeper victim = curator.getZookeeperClient().getZooKeeper();
            long id = victim.getSessionId();
            ZooKeeper thief = new ZooKeeper(cluster.zookeeperConnectString(), 10_000, e -> { }, id, victim.getSessionPasswd());
            try {
                long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!thief.getState().isConnected() && thief.getState().isAlive() && System.nanoTime() < joinBy) {
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                if (thief.getState().isConnected()) {
                    thief.close(); // closing the joined session expires it for the replica too
                    fired(FaultType.EXPIRE_SESSION, "r" + i, "session 0x" + Long.toHexString(id));
                    return;
                }
                // refused as expired (the replica lost it meanwhile and makes a new one) or not taken in time: the
                // replica's next session is tried
                LOG.info("Could not join r{}'s session 0x{} (state {}); trying its current one", i, Long.toHexString(id), thief.getState());
            } finally {
                thief.close();
            }
        }
        throw new IllegalStateException("could not join any session of r" + i + " in 30 s");
    }

    /** Stops the embedded ZooKeeper (every node of an ensemble); the replicas' tables turn read-only. */
    public void stopZooKeeper() throws java.io.IOException {
        cluster.embeddedZooKeeper().stop();
        fired(FaultType.STOP_ZOOKEEPER, "zookeeper", cluster.embeddedZooKeeper().nodes() + " node(s)");
    }

    public void startZooKeeper() throws Exception {
        cluster.embeddedZooKeeper().restart();
        LOG.info("ZooKeeper started again");
    }

    /** Kills node {@code j} (1-based) of an embedded ensemble ({@link StubCluster.Builder#zookeeperEnsemble}). */
    public void killZooKeeperNode(int j) throws Exception {
        cluster.embeddedZooKeeper().killNode(j);
        fired(FaultType.KILL_ZOOKEEPER_NODE, "zk" + j, "");
    }

    public void restartZooKeeperNode(int j) throws Exception {
        cluster.embeddedZooKeeper().restartNode(j);
        LOG.info("ZooKeeper node zk{} restarted", j);
    }

    public int zooKeeperNodes() {
        return cluster.embeddedZooKeeper().nodes();
    }

    /** Arms {@code rule} on replica {@code i}'s failpoints (logged as {@code type}: what the rule does to a client). */
    public void arm(int i, FaultRule rule) {
        cluster.replica(i).faults().add(rule);
        fired(FaultType.of(rule.kind()), "r" + i, rule.kind().failpoint + (rule.times() > 0 ? " for " + rule.times() + " inserts" : ""));
    }

    /** Arms {@code rule} on every replica. */
    public void armAll(FaultRule rule) {
        for (StubServer s : cluster.replicas()) {
            s.faults().add(rule);
        }
        fired(FaultType.of(rule.kind()), "all", rule.kind().failpoint + (rule.times() > 0 ? " for " + rule.times() + " inserts" : ""));
    }

    public void disarm(int i) {
        cluster.replica(i).faults().clear();
    }

    public void disarmAll() {
        for (StubServer s : cluster.replicas()) {
            s.faults().clear();
        }
    }

    /** The probability writers should set as {@code insert_keeper_fault_injection_probability} (0: off). */
    public double insertKeeperFaultProbability() {
        return keeperFaultProbability;
    }

    public void insertKeeperFaultProbability(double p) {
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("a probability is within [0, 1]: " + p);
        }
        keeperFaultProbability = p;
        if (p > 0) {
            fired(FaultType.KEEPER_FAULT_INJECTION, "inserts", "insert_keeper_fault_injection_probability=" + p);
        }
    }

    /** The replica (1-based) that leads {@code database.table}'s replication, or 0 when no running replica does. */
    public int whoIsLeader(String database, String table) {
        for (int i = 1; i <= cluster.size(); i++) {
            StorageReplicatedMergeTree t = table(i, database, table);
            if (t != null && t.isLeader()) {
                return i;
            }
        }
        return 0;
    }

    /** Running replicas whose replication queue of {@code database.table} holds work (a quorum may wait on them). */
    public List<Integer> replicasWithQueuedWork(String database, String table) {
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i <= cluster.size(); i++) {
            StorageReplicatedMergeTree t = table(i, database, table);
            if (t != null && !t.queue().snapshot().isEmpty()) {
                out.add(i);
            }
        }
        return out;
    }

    private StorageReplicatedMergeTree table(int i, String database, String table) {
        StubServer s = cluster.replica(i);
        if (s.state() != StubServer.State.STARTED) {
            return null;
        }
        for (StorageReplicatedMergeTree t : s.replication().tables()) {
            if (t.database().equals(database) && t.name().equals(table)) {
                return t;
            }
        }
        return null;
    }

    /**
     * Cuts the link from server {@code from} to server {@code to} (1-based, as {@link #killReplica} counts them): every
     * connection {@code from} opens to {@code to} (a Distributed table's sends, a read of shards) is refused, while
     * {@code to} keeps serving everyone else. {@link #healLinks} (and {@link #healAll}) restore it.
     */
    public void cutLink(int from, int to) {
        StubServer target = cluster.replica(to);
        cluster.replica(from).clusters().cutLinkTo("127.0.0.1", target.port());
        cluster.replica(from).clusters().cutLinkTo("localhost", target.port());
        cluster.replica(from).clusters().cutLinkTo(target.host(), target.port());
        LOG.info("Link r{} -> r{} cut", from, to);
    }

    /** Restores every link {@link #cutLink} cut. */
    public void healLinks() {
        for (StubServer s : cluster.replicas()) {
            s.clusters().restoreLinks();
        }
    }

    /** Stops every replica of shard {@code shard} abruptly (the shard down); {@link #restartShard} brings it back. */
    public void killShard(int shard) {
        for (StubServer s : cluster.shard(shard)) {
            killReplica(cluster.replicas().indexOf(s) + 1, FaultType.KILL_REPLICA, "shard " + shard);
        }
    }

    /** Starts every replica of shard {@code shard} again. */
    public void restartShard(int shard) throws java.io.IOException {
        for (StubServer s : cluster.shard(shard)) {
            restartReplica(cluster.replicas().indexOf(s) + 1);
        }
    }

    /** Undoes every fault still on: ZooKeeper and its nodes up, replicas running, failpoints and keeper faults off. */
    public void healAll() throws Exception {
        keeperFaultProbability = 0;
        healLinks();
        if (cluster.hasEmbeddedZooKeeper()) {
            cluster.embeddedZooKeeper().restartStopped();
        }
        for (int i = 1; i <= cluster.size(); i++) {
            restartReplica(i);
        }
        disarmAll();
    }
}
