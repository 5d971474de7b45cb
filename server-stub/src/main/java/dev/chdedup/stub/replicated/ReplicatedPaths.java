package dev.chdedup.stub.replicated;

/**
 * The znode names of one replicated table, in one place (clickhouse-observed/02a-create.txt, 02b-zk-layout.txt):
 * the table's nodes under {@code zookeeper_path} and this replica's under {@code replicas/<name>}. Block ids live in
 * {@code deduplication_hashes}, the unified directory of current ClickHouse releases; a server that emulates 18.16
 * keeps them in {@code blocks}, as that release did ({@link #blocks}).
 */
public record ReplicatedPaths(String table, String replicaName, boolean legacyBlocksDirectory) {
    public static final String DEDUPLICATION_HASHES = "deduplication_hashes";
    public static final String BLOCKS = "blocks";

    /** The table-level nodes a CREATE makes when the table is new, in order. */
    public static final String[] TABLE_NODES = {"block_numbers", BLOCKS, "columns", "leader_election", "log", "metadata", "mutations",
        "nonincrement_block_numbers", "quorum", "quorum/failed_parts", "quorum/last_part", "replicas", "temp"};

    /** The nodes of a replica, created with it (is_active is ephemeral and made on activation). */
    public static final String[] REPLICA_NODES = {"columns", "flags", "host", "is_lost", "log_pointer", "max_processed_insert_time",
        "metadata", "min_unprocessed_insert_time", "mutation_pointer", "parts", "queue"};

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
