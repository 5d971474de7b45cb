package dev.chdedup.stub.replicated;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.dedup.BlockIds;
import dev.chdedup.stub.dedup.DeduplicatingSink;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.DataPart;
import dev.chdedup.stub.server.MergeTreeSink;
import dev.chdedup.stub.system.Events;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The insert sink of a replicated table, after ClickHouse's {@code ReplicatedMergeTreeSink}: each block is split by
 * partition and sorted, each piece gets its block id (the hash of its rows, or of the user's
 * {@code insert_deduplication_token} and the block's ordinal; none with {@code insert_deduplicate=0}) and is committed
 * through {@link StorageReplicatedMergeTree#commitPart}. A duplicate is success with nothing written, counted in
 * DuplicatedInsertedBlocks. The table's materialized views get each block as DeduplicatingSink gives it them (run before
 * the commit, written after it, skipped for a duplicate unless deduplicate_blocks_in_dependent_materialized_views).
 * With {@code insert_quorum} ({@link ReplicatedMergeTreeQuorum}) each block first checks the quorum's precondition
 * (TOO_FEW_LIVE_REPLICAS, UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE: nothing written), and each commit waits for its part's
 * quorum, a duplicate for the quorum of the part that has the block. Each block's ZooKeeper requests are retried as
 * {@code insert_keeper_max_retries} and its backoffs say ({@link ZooKeeperRetriesControl}).
 */
public final class ReplicatedMergeTreeSink extends MergeTreeSink {
    private final StorageReplicatedMergeTree replicated;
    private final boolean deduplicate;
    private final String userToken;
    private int ordinal;
    private final KeeperFaultInjection faults;
    /** Pushes each block through the table's materialized views (null: none to feed). */
    private final DeduplicatingSink.ViewPusher views;

    public ReplicatedMergeTreeSink(StorageReplicatedMergeTree table, QueryContext ctx, Events events, boolean deduplicate, String userToken,
                                   DeduplicatingSink.ViewPusher views) {
        super(table, ctx, events);
        this.views = views;
        this.replicated = table;
        this.deduplicate = deduplicate;
        this.userToken = userToken == null || userToken.isEmpty() ? null : userToken;
        double p = Double.parseDouble(ctx.settings().get("insert_keeper_fault_injection_probability"));
        this.faults = p <= 0 ? KeeperFaultInjection.NONE : new KeeperFaultInjection(p, ctx.settings().getLong("insert_keeper_fault_injection_seed"));
    }

    @Override
    public void write(Block block) {
        ReplicatedMergeTreeQuorum.Insert quorum = ReplicatedMergeTreeQuorum.fromSettings(ctx.settings(), replicated, ctx.compat());
        if (quorum != null) {
            quorum = ReplicatedMergeTreeQuorum.checkPrecondition(replicated, quorum);
        }
        Map<String, List<Object[]>> parts = table.splitByPartition(block.rows(),
            ctx.settings().getLong("max_partitions_per_insert_block"), ctx.settings().getBool("throw_on_max_partitions_per_insert_block"));
        for (String partitionId : parts.keySet()) {
            table.checkTooManyParts(partitionId);
        }
        String token = userToken == null ? null : BlockIds.userBlockToken(userToken, ordinal++);
        Map<String, String> ids = new LinkedHashMap<>();
        for (Map.Entry<String, List<Object[]>> e : parts.entrySet()) {
            table.sortByKey(e.getValue());
            ids.put(e.getKey(), BlockIds.pieceId(e.getKey(), token, table.columns(), e.getValue()));
        }
        // the dependent views run first, so an error in one fails the insert with nothing written
        Runnable viewWrites = views == null ? null : views.prepare(table, block,
            List.of(token != null ? token : BlockIds.viewToken(null, ids.values())), deduplicate, false, ctx);
        int dropped = 0;
        for (Map.Entry<String, List<Object[]>> e : parts.entrySet()) {
            if (!writePartition(e.getKey(), e.getValue(), deduplicate ? ids.get(e.getKey()) : null, quorum)) {
                dropped++;
            }
        }
        boolean duplicate = !parts.isEmpty() && dropped == parts.size();
        if (viewWrites != null && (!duplicate || ctx.settings().getBool("deduplicate_blocks_in_dependent_materialized_views"))) {
            viewWrites.run();
        }
    }

    /** Commits one partition's sorted rows; returns false for a duplicate (nothing written). */
    private boolean writePartition(String partitionId, List<Object[]> rows, String blockId, ReplicatedMergeTreeQuorum.Insert quorum) {
        DataPart part = replicated.commitPart(partitionId, rows, blockId, faults, quorum, ZooKeeperRetriesControl.fromSettings(ctx.settings(), ctx.compat()));
        if (part == null) {
            events.increment("DuplicatedInsertedBlocks");
            return false;
        }
        writtenRows += rows.size();
        writtenBytes += part.bytesOnDisk();
        events.increment("InsertedRows", rows.size());
        events.increment("InsertedBytes", part.bytesOnDisk());
        return true;
    }
}
