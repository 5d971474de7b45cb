package dev.chdedup.stub.system;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.replicated.ReplicatedMergeTreeLogEntry;
import dev.chdedup.stub.replicated.ReplicatedMergeTreeQueue;
import dev.chdedup.stub.replicated.ReplicationContext;
import dev.chdedup.stub.replicated.StorageReplicatedMergeTree;
import dev.chdedup.stub.replicated.ZooKeeperClient;
import dev.chdedup.stub.types.DataTypes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.zookeeper.data.Stat;

/**
 * The system tables of replication: {@code system.replicas} (one row per replicated table of this server),
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
        return List.of("replicas", "replication_queue", "zookeeper");
    }

    private static Column c(String n, String type) {
        return new Column(n, DataTypes.parse(type));
    }

    @Override
    public TableSource table(String name, QueryContext ctx) {
        switch (name) {
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

    private TableSource replicas() {
        List<Column> cols = List.of(c("database", "String"), c("table", "String"), c("engine", "String"), c("is_leader", "UInt8"),
            c("is_readonly", "UInt8"), c("is_session_expired", "UInt8"), c("zookeeper_path", "String"), c("replica_name", "String"),
            c("replica_path", "String"), c("total_replicas", "UInt8"), c("active_replicas", "UInt8"), c("queue_size", "UInt32"),
            c("inserts_in_queue", "UInt32"), c("merges_in_queue", "UInt32"), c("log_pointer", "UInt64"), c("queue_oldest_time", "DateTime"),
            c("absolute_delay", "UInt64"));
        List<Object[]> rows = new ArrayList<>();
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
            rows.add(new Object[] {t.database(), t.name(), t.definition().engine(), !ro && t.isLeader() ? 1L : 0L, ro ? 1L : 0L, ro ? 1L : 0L,
                t.zookeeperPath(), t.replicaName(), t.replicaPath(), total, active,
                (long) q.size(), inserts, merges, t.queue().logPointer(), oldest, delay});
        }
        return SystemTables.snapshot(cols, rows);
    }

    private TableSource queue() {
        List<Column> cols = List.of(c("database", "String"), c("table", "String"), c("replica_name", "String"), c("position", "UInt32"),
            c("node_name", "String"), c("type", "String"), c("create_time", "DateTime"), c("required_quorum", "UInt32"),
            c("source_replica", "String"), c("new_part_name", "String"), c("parts_to_merge", "Array(String)"), c("is_detach", "UInt8"),
            c("is_currently_executing", "UInt8"), c("num_tries", "UInt32"), c("last_exception", "String"), c("last_attempt_time", "DateTime"),
            c("num_postponed", "UInt32"), c("postpone_reason", "String"), c("last_postpone_time", "DateTime"));
        List<Object[]> rows = new ArrayList<>();
        for (StorageReplicatedMergeTree t : tables()) {
            long pos = 0;
            for (ReplicatedMergeTreeQueue.Entry e : t.queue().snapshot()) {
                rows.add(new Object[] {t.database(), t.name(), t.replicaName(), pos++, e.node, e.log.type().name(), e.log.createTime(),
                    (long) e.log.quorum(), e.log.sourceReplica(), e.log.newPartName(), e.log.partsToMerge(), 0L,
                    e.currentlyExecuting ? 1L : 0L, (long) e.numTries, e.lastException, e.lastAttemptTime / 1000, (long) e.numPostponed,
                    e.postponeReason, e.lastPostponeTime / 1000});
            }
        }
        return SystemTables.snapshot(cols, rows);
    }

    private TableSource zookeeper() {
        List<Column> cols = List.of(c("name", "String"), c("value", "String"), c("czxid", "Int64"), c("mzxid", "Int64"), c("ctime", "DateTime"),
            c("mtime", "DateTime"), c("version", "Int32"), c("cversion", "Int32"), c("aversion", "Int32"), c("ephemeralOwner", "Int64"),
            c("dataLength", "Int32"), c("numChildren", "Int32"), c("pzxid", "Int64"), c("path", "String"));
        List<Object[]> rows = new ArrayList<>();
        if (context.started()) {
            ZooKeeperClient zk = context.zookeeper();
            Deque<String> todo = new ArrayDeque<>(List.of("/clickhouse"));
            try {
                while (!todo.isEmpty() && rows.size() < MAX_ZOOKEEPER_NODES) {
                    String parent = todo.poll();
                    for (String child : zk.children(parent)) {
                        String p = (parent.equals("/") ? "" : parent) + "/" + child;
                        Stat st = new Stat();
                        byte[] v = zk.get(p, st);
                        if (v == null) {
                            continue;
                        }
                        rows.add(new Object[] {child, new String(v, StandardCharsets.UTF_8), st.getCzxid(), st.getMzxid(), st.getCtime() / 1000,
                            st.getMtime() / 1000, (long) st.getVersion(), (long) st.getCversion(), (long) st.getAversion(), st.getEphemeralOwner(),
                            (long) st.getDataLength(), (long) st.getNumChildren(), st.getPzxid(), parent});
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
        return SystemTables.snapshot(cols, rows);
    }
}
