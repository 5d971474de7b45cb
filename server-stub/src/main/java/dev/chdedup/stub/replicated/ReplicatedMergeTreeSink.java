package dev.chdedup.stub.replicated;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.dedup.DeduplicatingSink;
import dev.chdedup.stub.dedup.DeduplicationInfo;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeSink;
import java.util.List;
import java.util.Map;

/**
 * The insert sink of a replicated table, after ClickHouse's {@code ReplicatedMergeTreeSink}: each block is split by
 * partition and sorted, each piece gets its block id from the block's {@link DeduplicationInfo} (as DeduplicatingSink
 * computes it: ClickHouse 26.x's ids, or the sorted piece's hash under a legacy emulation; none with
 * {@code insert_deduplicate=0}) and is committed
 * through {@link StorageReplicatedMergeTree#commitPart}. A duplicate is success with nothing written, counted in
 * DuplicatedInsertedBlocks. The table's materialized views get each block as DeduplicatingSink gives it them (run before
 * the commit, written after it).
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
        DeduplicationInfo info = DeduplicatingSink.infoOf(block, userToken, ordinal++);
        boolean legacy = DeduplicatingSink.legacyIds(ctx);
        boolean dedup = deduplicate && !info.disabled();
        if (!legacy && !info.isViewLevel() && dedup) { // also what the views' tables need: they deduplicate only when this insert does
            info.computeDataHashes(table.columns(), block.rows()); // over the rows as sent; the views' copies carry it
        }
        DeduplicatingSink.sortAndMerge(table, parts, ctx);
        Map<String, List<String>> ids = dedup ? DeduplicatingSink.pieceIds(table, block, info, parts, legacy) : Map.of();
        // the dependent views run after the commits, view after view
        Runnable viewWrites = views == null ? null : views.prepare(table, block, info, deduplicate, false, ctx);
        int dropped = 0;
        for (Map.Entry<String, List<Object[]>> e : parts.entrySet()) {
            List<String> pieceIds = ids.get(e.getKey());
            if (!writePartition(e.getKey(), e.getValue(), pieceIds == null || pieceIds.isEmpty() ? null : pieceIds.get(0), quorum)) {
                dropped++;
            }
        }
        boolean duplicate = !parts.isEmpty() && dropped == parts.size();
        if (viewWrites != null && (!legacy || !duplicate || ctx.settings().getBool("deduplicate_blocks_in_dependent_materialized_views"))) {
            viewWrites.run();
        }
    }

    /** Commits one partition's sorted rows; returns false for a duplicate (nothing written). */
    private boolean writePartition(String partitionId, List<Object[]> rows, String blockId, ReplicatedMergeTreeQuorum.Insert quorum) {
        IMergeTreeDataPart part = replicated.commitPart(partitionId, rows, blockId, faults, quorum, ZooKeeperRetriesControl.fromSettings(ctx.settings(), ctx.compat()));
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
