package dev.chdedup.stub.system;

import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.replicated.ReplicatedMergeTreeLogEntry;
import dev.chdedup.stub.replicated.ReplicatedMergeTreeQueue;
import dev.chdedup.stub.replicated.ReplicationContext;
import dev.chdedup.stub.replicated.StorageReplicatedMergeTree;
import dev.chdedup.stub.replicated.ZooKeeperClient;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.zookeeper.data.Stat;

/**
 * The system tables of replication: {@code system.macros} (the macros replicated paths and ON CLUSTER substitute),
 * {@code system.replicas} (one row per replicated table of this server),
 * {@code system.replication_queue} (the entries of each table's queue with their tries, errors and postponements) and
 * {@code system.zookeeper} (every node under {@code /clickhouse} with its stat, for {@code WHERE path = '...'}; the
 * stub lists the whole subtree and lets the WHERE filter, where ClickHouse requires the path and reads only it).
 */
public final class ReplicationSystemTables implements SystemTables.Extra {
    /** How many nodes system.zookeeper reads at most. */
    private static final int MAX_ZOOKEEPER_NODES = 200_000;

    private final SystemCatalog catalog;
    private final ReplicationContext context;

    public ReplicationSystemTables(SystemCatalog catalog, ReplicationContext context) {
        this.catalog = catalog;
        this.context = context;
    }

    @Override
    public List<String> names() {
        return List.of("macros", "replicas", "replication_queue", "zookeeper");
    }

    @Override
    public TableSource table(String name, QueryContext ctx) {
        switch (name) {
            case "macros": return macros();
            case "replicas": return replicas();
            case "replication_queue": return queue();
            case "zookeeper": return zookeeper();
            default: return null;
        }
    }

    private List<StorageReplicatedMergeTree> tables() {
        List<StorageReplicatedMergeTree> out = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (!catalog.databaseExists(db) || SystemCatalog.SYSTEM.equals(db) || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Object o : catalog.tables(db).values()) {
                if (o instanceof StorageReplicatedMergeTree) {
                    out.add((StorageReplicatedMergeTree) o);
                }
            }
        }
        return out;
    }

    /** {@code system.macros}: the server's macros by name ({shard} and {replica} with their defaults, {cluster} when set). */
    private TableSource macros() {
        SystemTable out = SystemTable.of("macros");
        new java.util.TreeMap<>(context.macros()).forEach((k, v) -> out.add().set("macro", k).set("substitution", v));
        return out.source();
    }

    private TableSource replicas() {
        SystemTable out = SystemTable.of("replicas");
        for (StorageReplicatedMergeTree t : tables()) {
            boolean ro = t.isReadonly();
            long total = 0;
            long active = 0;
            if (!ro) {
                try {
                    total = t.totalReplicas();
                    active = t.activeReplicas();
                } catch (RuntimeException e) {
                    ro = true;
                    total = 0;
                    active = 0;
                }
            }
            List<ReplicatedMergeTreeQueue.Entry> q = t.queue().snapshot();
            long inserts = q.stream().filter(e -> e.log.type() == ReplicatedMergeTreeLogEntry.Type.GET_PART).count();
            long merges = q.stream().filter(e -> e.log.type() == ReplicatedMergeTreeLogEntry.Type.MERGE_PARTS).count();
            long oldest = q.stream().mapToLong(e -> e.log.createTime()).min().orElse(0);
            long delay = oldest == 0 ? 0 : Math.max(0, System.currentTimeMillis() / 1000 - oldest);
            out.add().set("database", t.database()).set("table", t.name()).set("engine", t.definition().engine())
                .set("is_leader", !ro && t.isLeader()).set("can_become_leader", !ro).set("is_readonly", ro).set("is_session_expired", ro)
                .set("zookeeper_name", "default").set("zookeeper_path", t.zookeeperPath()).set("replica_name", t.replicaName())
                .set("replica_path", t.replicaPath()).set("queue_size", (long) q.size()).set("inserts_in_queue", inserts)
                .set("merges_in_queue", merges).set("queue_oldest_time", oldest).set("log_pointer", t.queue().logPointer())
                .set("absolute_delay", delay).set("total_replicas", total).set("active_replicas", active);
        }
        return out.source();
    }

    private TableSource queue() {
        SystemTable out = SystemTable.of("replication_queue");
        for (StorageReplicatedMergeTree t : tables()) {
            long pos = 0;
            for (ReplicatedMergeTreeQueue.Entry e : t.queue().snapshot()) {
                out.add().set("database", t.database()).set("table", t.name()).set("replica_name", t.replicaName()).set("position", pos++)
                    .set("node_name", e.node).set("type", e.log.type().name()).set("create_time", e.log.createTime())
                    .set("required_quorum", (long) e.log.quorum()).set("source_replica", e.log.sourceReplica())
                    .set("new_part_name", e.log.newPartName()).set("parts_to_merge", e.log.partsToMerge())
                    .set("is_currently_executing", e.currentlyExecuting).set("num_tries", (long) e.numTries)
                    .set("last_exception", e.lastException).set("last_attempt_time", e.lastAttemptTime / 1000)
                    .set("num_postponed", (long) e.numPostponed).set("postpone_reason", e.postponeReason)
                    .set("last_postpone_time", e.lastPostponeTime / 1000);
            }
        }
        return out.source();
    }

    private TableSource zookeeper() {
        SystemTable out = SystemTable.of("zookeeper");
        if (context.started()) {
            ZooKeeperClient zk = context.zookeeper();
            Deque<String> todo = new ArrayDeque<>(List.of("/clickhouse"));
            try {
                int nodes = 0;
                while (!todo.isEmpty() && nodes < MAX_ZOOKEEPER_NODES) {
                    String parent = todo.poll();
                    for (String child : zk.children(parent)) {
                        String p = (parent.equals("/") ? "" : parent) + "/" + child;
                        Stat st = new Stat();
                        byte[] v = zk.get(p, st);
                        if (v == null) {
                            continue;
                        }
                        nodes++;
                        out.add().set("name", child).set("value", dev.chdedup.stub.types.ByteStrings.of(v)).set("czxid", st.getCzxid())
                            .set("mzxid", st.getMzxid()).set("ctime", st.getCtime() / 1000).set("mtime", st.getMtime() / 1000)
                            .set("version", (long) st.getVersion()).set("cversion", (long) st.getCversion())
                            .set("aversion", (long) st.getAversion()).set("ephemeralOwner", st.getEphemeralOwner())
                            .set("dataLength", (long) st.getDataLength()).set("numChildren", (long) st.getNumChildren())
                            .set("pzxid", st.getPzxid()).set("path", parent).set("zookeeperName", "default");
                        if (st.getNumChildren() > 0) {
                            todo.add(p);
                        }
                    }
                }
            } catch (Exception e) {
                throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.UNEXPECTED_ZOOKEEPER_ERROR,
                    "Reading system.zookeeper: " + e.getMessage(), e);
            }
        }
        return out.source();
    }
}
