package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The znodes a replicated table's CREATE writes, after ClickHouse's {@code StorageReplicatedMergeTree}
 * {@code createTableIfNotExists}, {@code createReplica}, {@code createNewZooKeeperNodes} and
 * {@code createTableSharedID}, as 26.7 writes them (clickhouse-observed/26.7-replicated-create-layout.txt, and the
 * creation order read from the engine's zxids): the table, its nodes and the first replica in one multi; a later
 * replica in a multi of its own that names it in {@code replicas}; then, at every start, the nodes newer releases added
 * ({@link ReplicatedPaths#NEW_TABLE_NODES_26_7}) where missing, so a table an older build made gets them, then
 * {@code table_shared_id} and {@code leader_election}. Pointers and insert times start empty, {@code is_lost} is 0 for
 * the first replica and 1 for a later one (ClickHouse then clones a live replica; the stub replays the log while it is
 * whole and clones otherwise, {@link CloneReplica#cloneReplicaIfNeeded}), {@code creator_info}
 * is the table's UUID and the server's, {@code host} is written on activation. A server emulating 18.16 writes that
 * release's layout instead ({@link ReplicatedPaths#TABLE_NODES}, {@link ReplicatedPaths#REPLICA_NODES}).
 */
final class ReplicatedTableNodes {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedTableNodes.class);
    /** The value of {@code pinned_part_uuids} while no part is pinned: ClickHouse's {@code PinnedPartUUIDs::toString}. */
    static final String NO_PINNED_PART_UUIDS = "{\"part_uuids\":\"[]\"}";

    private ReplicatedTableNodes() {
    }

    /** Creates the table's nodes unless its {@code metadata} exists (26.7: with this replica's, in the same multi). */
    static void createTableIfNotExists(StorageReplicatedMergeTree t) {
        ZooKeeperClient zk = t.zk();
        ReplicatedPaths paths = t.paths();
        String table = paths.table();
        try {
            if (zk.exists(paths.node("metadata")) != null) {
                return;
            }
            String parent = table.substring(0, table.lastIndexOf('/'));
            if (!parent.isEmpty() && zk.exists(parent) == null) {
                try {
                    zk.curator().create().creatingParentsIfNeeded().forPath(parent);
                } catch (KeeperException.NodeExistsException ignored) {
                    // another replica made it
                }
            }
            if (zk.exists("/clickhouse/task_queue/ddl") == null) {
                try {
                    zk.curator().create().creatingParentsIfNeeded().forPath("/clickhouse/task_queue/ddl");
                } catch (KeeperException.NodeExistsException ignored) {
                    // another server made it
                }
            }
            List<CuratorOp> ops = new ArrayList<>();
            ops.add(zk.op().create().forPath(table, new byte[0]));
            if (paths.legacyBlocksDirectory()) {
                for (String n : ReplicatedPaths.TABLE_NODES) {
                    String v = n.equals("metadata") ? t.metadataText() : n.equals("columns") ? t.columnsText() : "";
                    ops.add(zk.op().create().forPath(paths.node(n), ZooKeeperClient.bytes(v)));
                }
            } else {
                for (String n : ReplicatedPaths.TABLE_NODES_26_7) {
                    String v = switch (n) {
                        case "metadata" -> t.metadataText();
                        case "columns" -> t.columnsText();
                        case "replicas" -> "last added replica: " + t.replicaName();
                        default -> "";
                    };
                    ops.add(zk.op().create().forPath(paths.node(n), ZooKeeperClient.bytes(v)));
                }
                replicaOps(t, zk, "0", ops);
            }
            try {
                zk.multi(ops);
            } catch (KeeperException.NodeExistsException e) {
                LOG.debug("Table {} was created by another replica meanwhile", table);
            }
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("creating the table's nodes", e);
        }
    }

    /**
     * Creates this replica's nodes unless the replica exists (made with the table, or by an earlier run), naming it
     * in {@code replicas}; then clones a live replica if the log was trimmed before it ({@link CloneReplica}).
     */
    static void createReplicaIfNotExists(StorageReplicatedMergeTree t) {
        ZooKeeperClient zk = t.zk();
        ReplicatedPaths paths = t.paths();
        try {
            if (zk.exists(paths.replica()) != null) {
                return;
            }
            List<CuratorOp> ops = new ArrayList<>();
            if (paths.legacyBlocksDirectory()) {
                ops.add(zk.op().create().forPath(paths.replica(), new byte[0]));
                for (String n : ReplicatedPaths.REPLICA_NODES) {
                    String v = switch (n) {
                        case "columns" -> t.columnsText();
                        case "metadata" -> t.metadataText();
                        case "host" -> t.hostText();
                        case "is_lost", "log_pointer", "min_unprocessed_insert_time", "max_processed_insert_time" -> "0";
                        default -> "";
                    };
                    ops.add(zk.op().create().forPath(paths.replicaNode(n), ZooKeeperClient.bytes(v)));
                }
            } else {
                // not the first replica: it starts lost, to be brought in line at once
                replicaOps(t, zk, zk.children(paths.replicas()).isEmpty() ? "0" : "1", ops);
            }
            ops.add(zk.op().setData().forPath(paths.replicas(), ZooKeeperClient.bytes("last added replica: " + t.replicaName())));
            zk.multi(ops);
            CloneReplica.cloneReplicaIfNeeded(t, true);
        } catch (KeeperException.NodeExistsException e) {
            throw new ChException(ErrorCode.REPLICA_ALREADY_EXISTS, "Replica " + paths.replica() + " already exists");
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("creating the replica's nodes", e);
        }
    }

    /** The creates of a 26.7 replica: the replica node, then {@link ReplicatedPaths#REPLICA_NODES_26_7} in order. */
    private static void replicaOps(StorageReplicatedMergeTree t, ZooKeeperClient zk, String isLost, List<CuratorOp> ops) throws Exception {
        ReplicatedPaths paths = t.paths();
        ops.add(zk.op().create().forPath(paths.replica(), new byte[0]));
        for (String n : ReplicatedPaths.REPLICA_NODES_26_7) {
            String v = switch (n) {
                case "is_lost" -> isLost;
                case "metadata" -> t.metadataText();
                case "columns" -> t.columnsText();
                case "metadata_version" -> "0";
                case "creator_info" -> t.tableUuid() + "|" + t.context().serverUuid();
                default -> "";
            };
            ops.add(zk.op().create().forPath(paths.replicaNode(n), ZooKeeperClient.bytes(v)));
        }
    }

    /**
     * 26.7's start-up additions, each created unless it exists (another replica may make it at the same moment):
     * {@link ReplicatedPaths#NEW_TABLE_NODES_26_7}, then {@code table_shared_id} (the creating replica's table UUID:
     * every replica keeps the first one written) and {@code leader_election}. Nothing under 18.16.
     */
    static void createNewZooKeeperNodes(StorageReplicatedMergeTree t) {
        ReplicatedPaths paths = t.paths();
        if (paths.legacyBlocksDirectory()) {
            return;
        }
        ZooKeeperClient zk = t.zk();
        try {
            // what exists, read a directory at a time: a table that has every node costs four reads at each start
            java.util.Set<String> existing = new java.util.HashSet<>();
            for (String dir : List.of("", "quorum", "temp", "lightweight_updates")) {
                String parent = dir.isEmpty() ? paths.table() : paths.node(dir);
                if (dir.isEmpty() || existing.contains(dir)) {
                    for (String c : zk.children(parent)) {
                        existing.add(dir.isEmpty() ? c : dir + "/" + c);
                    }
                }
            }
            for (String n : ReplicatedPaths.NEW_TABLE_NODES_26_7) {
                if ((!n.startsWith("temp/") || existing.contains("temp")) && existing.add(n)) {
                    zk.tryCreate(paths.node(n), n.equals("pinned_part_uuids") ? NO_PINNED_PART_UUIDS : "");
                }
            }
            if (existing.add("table_shared_id")) {
                zk.tryCreate(paths.node("table_shared_id"), t.tableUuid().toString());
            }
            if (existing.add("leader_election")) {
                zk.tryCreate(paths.leaderElection(), "");
            }
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("creating the table's new nodes", e);
        }
    }
}
