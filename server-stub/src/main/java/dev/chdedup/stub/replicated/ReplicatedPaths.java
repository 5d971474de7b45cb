package dev.chdedup.stub.replicated;

/**
 * The znode names of one replicated table, in one place: the table's nodes under {@code zookeeper_path} and this
 * replica's under {@code replicas/<name>}, as 26.7 creates them ({@link ReplicatedTableNodes}) and as 18.16 did
 * (clickhouse-observed/02a-create.txt, 02b-zk-layout.txt). Block ids live in {@code deduplication_hashes}, the unified
 * directory of current ClickHouse releases; a server that emulates 18.16 ({@code legacyBlocksDirectory}, which also
 * selects that release's layout) keeps them in {@code blocks}, as that release did ({@link #blocks}).
 */
public record ReplicatedPaths(String table, String replicaName, boolean legacyBlocksDirectory) {
    public static final String DEDUPLICATION_HASHES = "deduplication_hashes";
    public static final String BLOCKS = "blocks";

    /** The table-level nodes an 18.16 CREATE makes when the table is new, in order. */
    public static final String[] TABLE_NODES = {"block_numbers", BLOCKS, "columns", "leader_election", "log", "metadata", "mutations",
        "nonincrement_block_numbers", "quorum", "quorum/failed_parts", "quorum/last_part", "replicas", "temp"};

    /** The nodes of an 18.16 replica, created with it (is_active is ephemeral and made on activation). */
    public static final String[] REPLICA_NODES = {"columns", "flags", "host", "is_lost", "log_pointer", "max_processed_insert_time",
        "metadata", "min_unprocessed_insert_time", "mutation_pointer", "parts", "queue"};

    /**
     * The table-level nodes 26.7's {@code createTableIfNotExists} makes in its multi, in its order, between the table
     * node and {@code replicas} (whose value names the first replica) and the first replica's nodes.
     */
    static final String[] TABLE_NODES_26_7 = {"metadata", "columns", "log", BLOCKS, "async_blocks", DEDUPLICATION_HASHES, "block_numbers",
        "nonincrement_block_numbers", "temp", "temp/abandonable_lock-insert", "temp/abandonable_lock-other", "replicas", "quorum",
        "quorum/last_part", "quorum/failed_parts", "mutations"};

    /** The nodes of a 26.7 replica, in the order its {@code createReplica} makes them (is_active comes on activation). */
    static final String[] REPLICA_NODES_26_7 = {"host", "log_pointer", "queue", "parts", "flags", "is_lost", "metadata", "columns",
        "metadata_version", "min_unprocessed_insert_time", "max_processed_insert_time", "mutation_pointer", "creator_info"};

    /**
     * The table-level nodes 26.7's {@code createNewZooKeeperNodes} makes at every start when missing (each release
     * adds its new nodes here, so a table an older release created gets them), in its order; the {@code temp/}
     * ones only where {@code temp} exists.
     */
    static final String[] NEW_TABLE_NODES_26_7 = {"quorum", "quorum/last_part", "quorum/failed_parts", "mutations", "quorum/parallel",
        "part_moves_shard", "pinned_part_uuids", "alter_partition_version", "async_blocks", DEDUPLICATION_HASHES, "lost_part_count",
        "temp/abandonable_lock-insert", "temp/abandonable_lock-other", "lightweight_updates", "lightweight_updates/in_progress"};

    public String node(String name) {
        return table + "/" + name;
    }

    /** Where block ids are kept: {@code deduplication_hashes}, or {@code blocks} for 18.16. */
    public String blocks() {
        return node(legacyBlocksDirectory ? BLOCKS : DEDUPLICATION_HASHES);
    }

    public String blockId(String id) {
        return blocks() + "/" + id;
    }

    public String log() {
        return node("log");
    }

    public String blockNumbers(String partitionId) {
        return node("block_numbers/" + partitionId);
    }

    public String leaderElection() {
        return node("leader_election");
    }

    public String replicas() {
        return node("replicas");
    }

    public String replica() {
        return replica(replicaName);
    }

    public String replica(String name) {
        return table + "/replicas/" + name;
    }

    public String replicaNode(String name) {
        return replica() + "/" + name;
    }

    public String part(String replica, String part) {
        return replica(replica) + "/parts/" + part;
    }

    /** The node of the one non-parallel quorum insert in progress. */
    public String quorumStatus() {
        return node("quorum/status");
    }

    /** The node of a parallel quorum insert of {@code part} ({@code quorum/parallel/<part>}). */
    public String quorumParallel(String part) {
        return node("quorum/parallel/" + part);
    }

    /** The last part of each partition that reached its (non-parallel) quorum. */
    public String quorumLastPart() {
        return node("quorum/last_part");
    }

    /** The marker of a quorum part that was lost before reaching its quorum. */
    public String quorumFailedPart(String part) {
        return node("quorum/failed_parts/" + part);
    }

    public String queue() {
        return replicaNode("queue");
    }
}
