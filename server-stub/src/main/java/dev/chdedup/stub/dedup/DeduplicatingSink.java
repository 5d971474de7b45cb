package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.DataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.server.MergeTreeSink;
import dev.chdedup.stub.system.Events;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The insert sink with deduplication, after ClickHouse's {@code MergeTreeSink}: each block gets a token (the
 * user's token and the block's ordinal, or its data hash), each partition piece a block id; a piece whose id is
 * in the table's window is dropped (counted, logged, recorded in part_log), the others are written and their
 * ids recorded. Check, write and record happen under the log's lock, so concurrent retries cannot both land.
 * Blocks are then pushed to dependent materialized views with the source block's token.
 */
public class DeduplicatingSink extends MergeTreeSink {
    private static final Logger LOG = LoggerFactory.getLogger(DeduplicatingSink.class);

    private final DeduplicationService service;
    private final boolean enabled;
    private final String userToken;
    private final ViewPusher views;
    private int ordinal;
    /** Token of the block being written (user token + ordinal, or the hash of its data). */
    private String currentToken;

    /** Pushes a written (or deduplicated) source block through the table's dependent views. */
    public interface ViewPusher {
        void push(StorageMergeTree source, Block block, String sourceToken, boolean sourceDedup, QueryContext ctx);
    }

    public DeduplicatingSink(StorageMergeTree table, QueryContext ctx, Events events, DeduplicationService service,
                             boolean enabled, String userToken, ViewPusher views) {
        super(table, ctx, events);
        this.service = service;
        this.enabled = enabled;
        this.userToken = userToken == null || userToken.isEmpty() ? null : userToken;
        this.views = views;
    }

    private String forcedToken;

    /** Makes every block's token derive from {@code token}: a view's insert takes its source block's token. */
    public void useToken(String token) {
        this.forcedToken = token;
    }

    @Override
    public void write(Block block) {
        int n = ordinal++;
        if (forcedToken != null) {
            currentToken = forcedToken + "_" + n;
        } else if (userToken != null) {
            currentToken = userToken + "_" + n;
        } else {
            currentToken = null;
        }
        super.write(block);
        if (views != null) {
            String token = currentToken != null ? currentToken : BlockIds.hex(BlockIds.hashData(block.columns(), block.rows()));
            views.push(table, block, token, enabled, ctx);
        }
    }

    @Override
    protected void writePartition(String partitionId, List<Object[]> rows, Block block) {
        MergeTreeDeduplicationLog log = enabled ? service.log(table) : null;
        if (log == null) {
            super.writePartition(partitionId, rows, block);
            return;
        }
        table.sortByKey(rows);
        List<Column> cols = table.columns();
        long[] hash = currentToken != null ? BlockIds.hashToken(currentToken) : BlockIds.hashData(cols, rows);
        String blockId = BlockIds.blockId(partitionId, hash);
        synchronized (log) {
            String existing = log.partFor(blockId);
            if (existing != null) {
                LOG.info("Block with ID {} already exists locally as part {}; ignoring it.", blockId, existing);
                events.increment("DuplicatedInsertedBlocks");
                service.partLog().deduplicated(table, partitionId, rows.size(), blockId, ctx.queryId());
                return;
            }
            DataPart part = table.writePart(partitionId, new ArrayList<>(rows));
            log.add(blockId, part.name());
            writtenRows += rows.size();
            writtenBytes += part.bytesOnDisk();
            events.increment("InsertedRows", rows.size());
            events.increment("InsertedBytes", part.bytesOnDisk());
            service.partLog().newPart(table, part, blockId, ctx.queryId());
        }
    }
}
