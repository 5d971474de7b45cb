package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.DataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.server.MergeTreeSink;
import dev.chdedup.stub.system.Events;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The insert sink with deduplication, after ClickHouse's {@code MergeTreeSink}: each block gets a token (the
 * user's token and the block's ordinal, or none) and is split by partition; each piece gets a block id
 * ({@link BlockIds#pieceId}). A piece whose id is in the table's window is dropped (counted, logged, recorded in
 * part_log), the others are written and their ids recorded; check, write and record happen under the log's lock,
 * so concurrent retries cannot both land. A block a view made of an async insert batch carries one token per
 * query of the batch, so each piece has one id per token: it is dropped when all of them are in the window, else
 * written with all of them recorded (a later synchronous retry of any one query then matches). The dependent materialized views run on the block before it is written
 * (an error in a view fails the insert with nothing of the block written), and their output is written after it,
 * with tokens derived from the source block's ({@link BlockIds#viewToken}). With
 * {@code deduplicate_blocks_in_dependent_materialized_views=1} a block dropped as a duplicate still goes to the
 * views, so a view that missed it gets it and one that has it drops it; with 0 it does not.
 */
public class DeduplicatingSink extends MergeTreeSink {
    private static final Logger LOG = LoggerFactory.getLogger(DeduplicatingSink.class);

    private final DeduplicationService service;
    private final boolean enabled;
    private final String userToken;
    private final ViewPusher views;
    private int ordinal;
    /** When set, a block's tokens are {@code <forced token>_<ordinal>}: a view's insert takes its source's tokens. */
    private List<String> forcedTokens;
    /** Whether the views downstream must turn each block into at most one block (async inserts). */
    private boolean oneBlockOut;

    /** Pushes a source block through the table's dependent views. */
    public interface ViewPusher {
        /**
         * Runs {@code block} through each view of {@code source} now, so errors surface before anything is written,
         * and returns what writes their output into their targets, to run once the source block is committed. With
         * {@code oneBlockOut} a view that makes more than one block of it fails with NOT_IMPLEMENTED.
         */
        Runnable prepare(StorageMergeTree source, Block block, List<String> sourceTokens, boolean sourceDedup, boolean oneBlockOut,
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

    /** Makes every block's tokens derive from {@code tokens}: a view's insert takes its source block's tokens. */
    public void useTokens(List<String> tokens) {
        this.forcedTokens = List.copyOf(tokens);
    }

    /** Makes the views downstream of this sink keep "one block in, one block out". */
    public void requireOneBlockOut() {
        this.oneBlockOut = true;
    }

    @Override
    public void write(Block block) {
        prepareWrite(block).run();
    }

    /**
     * Takes the block's ordinal, splits it by partition, computes its ids and runs it through the dependent views
     * (everything that can fail before a part is written); returns the write of the block, then of the views' output.
     */
    public Runnable prepareWrite(Block block) {
        int n = ordinal++;
        List<String> tokens = new ArrayList<>(1);
        if (forcedTokens != null) {
            for (String t : forcedTokens) {
                tokens.add(BlockIds.userBlockToken(t, n));
            }
        } else if (userToken != null) {
            tokens.add(BlockIds.userBlockToken(userToken, n));
        }
        Map<String, List<Object[]>> pieces = table.splitByPartition(block.rows(),
            ctx.settings().getLong("max_partitions_per_insert_block"), ctx.settings().getBool("throw_on_max_partitions_per_insert_block"));
        for (String partitionId : pieces.keySet()) {
            table.checkTooManyParts(partitionId);
        }
        MergeTreeDeduplicationLog log = enabled ? service.log(table) : null;
        Map<String, List<String>> ids = new LinkedHashMap<>();
        List<String> firstIds = new ArrayList<>();
        for (Map.Entry<String, List<Object[]>> p : pieces.entrySet()) {
            table.sortByKey(p.getValue());
            if (log != null || enabled && DeduplicationService.inKeeper(table) || views != null && tokens.isEmpty()) {
                List<String> pieceIds = new ArrayList<>(Math.max(1, tokens.size()));
                if (tokens.isEmpty()) {
                    pieceIds.add(BlockIds.pieceId(p.getKey(), null, table.columns(), p.getValue()));
                }
                for (String t : tokens) {
                    pieceIds.add(BlockIds.pieceId(p.getKey(), t, table.columns(), p.getValue()));
                }
                ids.put(p.getKey(), pieceIds);
                firstIds.add(pieceIds.get(0));
            }
        }
        Runnable viewWrites = views == null ? null : views.prepare(table, block,
            tokens.isEmpty() ? List.of(BlockIds.viewToken(null, firstIds)) : tokens, enabled, oneBlockOut, ctx);
        return () -> {
            int dropped = 0;
            for (Map.Entry<String, List<Object[]>> p : pieces.entrySet()) {
                if (!writePiece(p.getKey(), p.getValue(), ids.get(p.getKey()), log)) {
                    dropped++;
                }
            }
            boolean duplicate = !pieces.isEmpty() && dropped == pieces.size();
            if (viewWrites != null && (!duplicate || ctx.settings().getBool("deduplicate_blocks_in_dependent_materialized_views"))) {
                viewWrites.run();
            }
        };
    }

    /** Writes one partition's sorted piece as a part unless its ids are in the window; returns whether it was written. */
    private boolean writePiece(String partitionId, List<Object[]> rows, List<String> blockIds, MergeTreeDeduplicationLog log) {
        if (log == null && enabled && blockIds != null && DeduplicationService.inKeeper(table)) {
            DataPart part = service.commitKeeperPart(table, partitionId, rows, blockIds, ctx.queryId());
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
            if (blockIds.stream().allMatch(log::contains)) {
                LOG.info("Block with ID {} already exists locally as part {}; ignoring it.", blockId, log.partFor(blockId));
                events.increment("DuplicatedInsertedBlocks");
                service.partLog().deduplicated(table, partitionId, rows.size(), blockId, ctx.queryId());
                return false;
            }
            accountWritten(service.commitPart(table, partitionId, rows, blockIds, log, ctx.queryId()), rows.size());
            return true;
        }
    }

    private void accountWritten(DataPart part, int rows) {
        writtenRows += rows;
        writtenBytes += part.bytesOnDisk();
        events.increment("InsertedRows", rows);
        events.increment("InsertedBytes", part.bytesOnDisk());
    }
}
