package dev.chdedup.stub.dedup;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeSink;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The insert sink with deduplication, after ClickHouse's {@code MergeTreeSink}. Each block carries its
 * {@link DeduplicationInfo} (the insert gives each block read one; a block without one gets the next ordinal and the
 * user's token); its data hash is computed over the rows as sent, then the block is split by partition and each
 * piece gets the ids of the block's tokens in that partition ({@link DeduplicationInfo#blockId}). A piece whose ids
 * are all in the table's window is dropped (counted, logged, recorded in part_log), the others are written and their
 * ids recorded; check, write and record happen under the log's lock, so concurrent retries cannot both land. The
 * dependent materialized views run on the block once it is written, one after another (an error in a view fails the
 * insert, and what was written before it stays, as in ClickHouse 26.x), each output block with the view's id and
 * number added to the tokens; as in ClickHouse 26.x the views get every block, a duplicate too, and their targets
 * deduplicate it by their own windows (with {@code deduplicate_blocks_in_dependent_materialized_views=0} they do not).
 * Under an older release's emulation (18.16, 22.1) a piece's id is the hash of its sorted rows and a duplicate goes
 * to the views only with {@code deduplicate_blocks_in_dependent_materialized_views=1}, as those releases did.
 */
public class DeduplicatingSink extends MergeTreeSink {
    private static final Logger LOG = LoggerFactory.getLogger(DeduplicatingSink.class);

    private final DeduplicationService service;
    private final boolean enabled;
    private final String userToken;
    private final ViewPusher views;
    /** The ordinal of the next block that comes without a deduplication info. */
    private int ordinal;
    /** Whether the views downstream must turn each block into at most one block (async inserts). */
    private boolean oneBlockOut;

    /** Pushes a source block through the table's dependent views. */
    public interface ViewPusher {
        /**
         * Returns what runs {@code block} through each view of {@code source} and writes its output into the view's
         * table, view after view, to run once the source block is committed. The
         * output's deduplication info derives from {@code info} (null: not deduplicated); {@code sourceDedup} says
         * whether the source insert deduplicates. With {@code oneBlockOut} a view that makes more than one block of
         * it fails with NOT_IMPLEMENTED.
         */
        Runnable prepare(StorageMergeTree source, Block block, DeduplicationInfo info, boolean sourceDedup, boolean oneBlockOut,
                         QueryContext ctx);
    }

    public DeduplicatingSink(StorageMergeTree table, QueryContext ctx, Events events, DeduplicationService service,
                             boolean enabled, String userToken, ViewPusher views) {
        super(table, ctx, events);
        this.service = service;
        this.enabled = enabled;
        this.userToken = userToken == null || userToken.isEmpty() ? null : userToken;
        this.views = views;
    }

    /** Makes the views downstream of this sink keep "one block in, one block out". */
    public void requireOneBlockOut() {
        this.oneBlockOut = true;
    }

    @Override
    public void write(Block block) {
        prepareWrite(block).run();
    }

    /** Whether block ids are made as releases before 26.x made them: under the 18.16 or 22.1 emulation. */
    public static boolean legacyIds(QueryContext ctx) {
        return ctx.compat() != dev.chdedup.stub.compat.CompatibilityProfile.CURRENT;
    }

    /**
     * Sorts each partition's piece by the key and, where optimize_on_insert is on (a setting 18.16 does not have: its
     * emulation writes the rows as sent), merges it as its part alone would merge ({@link StorageMergeTree#mergeOnInsert});
     * the part and, under an older release's emulation, its hash are of the merged rows, as ClickHouse writes them.
     */
    public static void sortAndMerge(StorageMergeTree table, Map<String, List<Object[]>> pieces, QueryContext ctx) {
        boolean merge = ctx.compat().knowsSetting("optimize_on_insert") && ctx.settings().getBool("optimize_on_insert");
        for (Map.Entry<String, List<Object[]>> p : pieces.entrySet()) {
            table.sortByKey(p.getValue());
            if (merge) {
                p.setValue(table.mergeOnInsert(p.getValue()));
            }
        }
    }

    /** The block's deduplication info, or that of block {@code ordinal} of an insert with this sink's token. */
    public static DeduplicationInfo infoOf(Block block, String userToken, int ordinal) {
        return block.info() instanceof DeduplicationInfo ? (DeduplicationInfo) block.info()
            : DeduplicationInfo.forInsertBlock(userToken, block.rowCount(), ordinal);
    }

    /**
     * The ids of each partition's piece of {@code block}: every token's id in that partition (the tokens of a
     * source-level block with several tokens only where they have rows), or under a legacy emulation the hash of the
     * sorted piece. {@code pieces} must be sorted by the key already.
     */
    public static Map<String, List<String>> pieceIds(StorageMergeTree table, Block block, DeduplicationInfo info,
                                              Map<String, List<Object[]>> pieces, boolean legacy) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        if (legacy) {
            for (Map.Entry<String, List<Object[]>> p : pieces.entrySet()) {
                ids.put(p.getKey(), List.of(BlockIds.pieceId(p.getKey(), table.columns(), p.getValue())));
            }
            return ids;
        }
        String[] rowPartition = null;
        if (info.count() > 1 && !info.isViewLevel() && pieces.size() > 1) {
            rowPartition = new String[block.rowCount()];
            for (int r = 0; r < rowPartition.length; r++) {
                rowPartition[r] = table.definition().partitionKey().partitionId(block.rows().get(r));
            }
        }
        for (String partitionId : pieces.keySet()) {
            List<String> pieceIds = new ArrayList<>(info.count());
            for (int t = 0; t < info.count(); t++) {
                if (rowPartition == null || hasRowIn(rowPartition, info.begin(t), info.end(t), partitionId)) {
                    pieceIds.add(info.blockId(t, partitionId));
                }
            }
            ids.put(partitionId, pieceIds);
        }
        return ids;
    }

    private static boolean hasRowIn(String[] rowPartition, int from, int to, String partitionId) {
        for (int r = from; r < to; r++) {
            if (rowPartition[r].equals(partitionId)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes the block's info, computes its data hash, splits it by partition and computes the pieces' ids (what can
     * fail before a part is written); returns the write of the block, then the run of its views.
     */
    public Runnable prepareWrite(Block block) {
        DeduplicationInfo info = infoOf(block, userToken, ordinal++);
        boolean legacy = legacyIds(ctx);
        Map<String, List<Object[]>> pieces = table.splitByPartition(block.rows(),
            ctx.settings().getLong("max_partitions_per_insert_block"), ctx.settings().getBool("throw_on_max_partitions_per_insert_block"));
        for (String partitionId : pieces.keySet()) {
            table.checkTooManyParts(partitionId);
        }
        MergeTreeDeduplicationLog log = enabled && !info.disabled() ? service.log(table) : null;
        boolean keeper = enabled && !info.disabled() && DeduplicationService.inKeeper(table);
        // the views' tables deduplicate only when this insert does: without it nobody reads the hash
        if (!legacy && !info.isViewLevel() && enabled && !info.disabled() && (log != null || keeper || views != null)) {
            info.computeDataHashes(table.columns(), block.rows()); // over the rows as sent; the views' copies carry it
        }
        sortAndMerge(table, pieces, ctx);
        Map<String, List<String>> ids = log != null || keeper ? pieceIds(table, block, info, pieces, legacy) : Map.of();
        Runnable viewWrites = views == null ? null : views.prepare(table, block, info, enabled, oneBlockOut, ctx);
        DeduplicationInfo.Retry retry = info.isViewLevel() ? info.retry() : null;
        return () -> {
            int dropped = 0;
            for (Map.Entry<String, List<Object[]>> p : pieces.entrySet()) {
                if (!writePiece(p.getKey(), p.getValue(), ids.get(p.getKey()), log, keeper, retry)) {
                    dropped++;
                }
            }
            boolean duplicate = !pieces.isEmpty() && dropped == pieces.size();
            if (viewWrites != null && (!legacy || !duplicate || ctx.settings().getBool("deduplicate_blocks_in_dependent_materialized_views"))) {
                viewWrites.run();
            }
        };
    }

    /**
     * Writes one partition's sorted piece as a part unless every token's id is in the window or repeats an earlier
     * token's; returns whether it was written.
     */
    private boolean writePiece(String partitionId, List<Object[]> rows, List<String> blockIds, MergeTreeDeduplicationLog log,
                               boolean keeper, DeduplicationInfo.Retry retry) {
        if (log == null && keeper && blockIds != null) {
            IMergeTreeDataPart part = service.commitKeeperPart(table, partitionId, rows, blockIds, ctx.queryId());
            if (part == null) {
                LOG.info("Block with ID {} already exists in ZooKeeper; ignoring it.", blockIds.get(0));
                events.increment("DuplicatedInsertedBlocks");
                service.partLog().deduplicated(table, partitionId, rows.size(), blockIds.get(0), ctx.queryId());
                return false;
            }
            accountWritten(part, rows.size());
            return true;
        }
        if (log == null) {
            accountWritten(service.commitPart(table, partitionId, rows, List.of(), null, ctx.queryId()), rows.size());
            return true;
        }
        String blockId = blockIds.get(0);
        synchronized (log) {
            List<Integer> kept = keptTokens(blockIds, log);
            if (kept.isEmpty()) {
                LOG.info("Block with ID {} already exists locally as part {}; ignoring it.", blockId, log.partFor(blockId));
                events.increment("DuplicatedInsertedBlocks");
                service.partLog().deduplicated(table, partitionId, rows.size(), blockId, ctx.queryId());
                return false;
            }
            List<String> keptIds = new ArrayList<>(kept.size());
            kept.forEach(t -> keptIds.add(blockIds.get(t)));
            if (kept.size() < blockIds.size() && retry != null) {
                // some of a view output's tokens are duplicates here: its rows are made again of the others' source rows
                LOG.info("{} of {} blocks of a view's output are duplicates in {}; writing the others", blockIds.size() - kept.size(),
                    blockIds.size(), table.name());
                Map<String, List<Object[]>> again = new LinkedHashMap<>();
                again.put(partitionId, table.splitByPartition(retry.recompute(kept).rows(), 0, false).getOrDefault(partitionId, new ArrayList<>()));
                sortAndMerge(table, again, ctx);
                rows = again.get(partitionId);
                if (rows.isEmpty()) {
                    return false;
                }
            }
            accountWritten(service.commitPart(table, partitionId, rows, keptIds, log, ctx.queryId()), rows.size());
            return true;
        }
    }

    /**
     * The tokens of a piece to write: those whose id is neither in the window nor the id of an earlier token (one
     * block id per token, in token order).
     */
    private static List<Integer> keptTokens(List<String> blockIds, MergeTreeDeduplicationLog log) {
        List<Integer> kept = new ArrayList<>(blockIds.size());
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int t = 0; t < blockIds.size(); t++) {
            String id = blockIds.get(t);
            if (seen.add(id) && !log.contains(id)) {
                kept.add(t);
            }
        }
        return kept;
    }

    private void accountWritten(IMergeTreeDataPart part, int rows) {
        writtenRows += rows;
        writtenBytes += part.bytesOnDisk();
        events.increment("InsertedRows", rows);
        events.increment("InsertedBytes", part.bytesOnDisk());
    }
}
