package dev.chdedup.stub.async;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.dedup.BlockIds;
import dev.chdedup.stub.dedup.DeduplicationInfo;
import dev.chdedup.stub.dedup.DeduplicationPolicy;
import dev.chdedup.stub.dedup.DeduplicationService;
import dev.chdedup.stub.dedup.MergeTreeDeduplicationLog;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mv.ViewRegistry;
import dev.chdedup.stub.storages.StorageCatalog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one flushed batch of async inserts: one part per partition, with deduplication per query, as ClickHouse's
 * {@code MergeTreeSink} does for an async insert block. The batch is one block whose {@link DeduplicationInfo} has one
 * token per query (its user token, or the hash of its rows as sent, and block number 0); each query's rows in a
 * partition are a piece with that token's id in the partition, exactly the id a one-block synchronous insert of that
 * query gets, so sync and async attempts deduplicate each other. In each partition, under the deduplication log's
 * lock, a piece whose id is in the window is removed ({@code DuplicatedAsyncInserts}), a piece whose id an earlier
 * query of the batch already has is removed ({@code SelfDuplicatedAsyncInserts}), the rest are written as one part
 * and all their ids recorded with it. For a replicated table the window is ZooKeeper's: the pieces whose ids it holds
 * are removed the same way, and the part commits with every remaining id (a query stored meanwhile by another replica
 * is removed and the commit retried). The whole batch then goes to the dependent views as one block ("one block
 * in, one block out"), whose targets deduplicate each query's output by its token. Any error fails the whole batch.
 */
public final class AsyncInsertSink {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncInsertSink.class);

    private final StorageCatalog catalog;
    private final DeduplicationService dedup;
    private final ViewRegistry views;
    private final Events events;

    public AsyncInsertSink(StorageCatalog catalog, DeduplicationService dedup, ViewRegistry views, Events events) {
        this.catalog = catalog;
        this.dedup = dedup;
        this.views = views;
        this.events = events;
    }

    /** One query's rows in one partition, sorted by the table's key, with the piece's block id. */
    private record Piece(AsyncInsertEntry entry, String partitionId, List<Object[]> rows, String blockId) {
    }

    /** Writes {@code entries} (in arrival order) into {@code table}; fills in what each entry wrote. */
    void write(StorageMergeTree table, List<AsyncInsertEntry> entries) {
        if (catalog.find(table.database(), table.name()) != table) {
            throw StorageCatalog.unknownTable(table.database(), table.name());
        }
        QueryContext ctx = entries.get(0).ctx;
        Settings s = ctx.settings();
        boolean enabled = DeduplicationPolicy.forInsert(s, true);
        MergeTreeDeduplicationLog log = enabled ? dedup.log(table) : null;
        boolean keeper = enabled && DeduplicationService.inKeeper(table);
        long maxPartitions = s.getLong("max_partitions_per_insert_block");
        boolean throwOnMax = s.getBool("throw_on_max_partitions_per_insert_block");
        List<Column> cols = table.columns();
        boolean withViews = !views.dependents(table.database(), table.name()).isEmpty();
        boolean legacy = dev.chdedup.stub.dedup.DeduplicatingSink.legacyIds(ctx);
        List<Object[]> all = new ArrayList<>();
        List<String> userTokens = new ArrayList<>(entries.size());
        List<Integer> counts = new ArrayList<>(entries.size());
        List<int[]> sent = new ArrayList<>(entries.size());
        for (AsyncInsertEntry e : entries) {
            all.addAll(e.rows);
            userTokens.add(e.userToken);
            counts.add(e.rows.size());
            sent.add(e.sentColumns);
        }
        DeduplicationInfo info = DeduplicationInfo.forAsyncBatch(userTokens, counts, sent);
        boolean ids = log != null || keeper;
        if (!legacy && enabled && (ids || withViews)) {
            info.computeDataHashes(cols, all); // each query's rows as sent
        }
        Map<String, List<Piece>> byPartition = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            AsyncInsertEntry e = entries.get(i);
            Map<String, List<Object[]>> split = table.splitByPartition(e.rows, maxPartitions, throwOnMax);
            for (Map.Entry<String, List<Object[]>> p : split.entrySet()) {
                List<Object[]> rows = p.getValue();
                table.sortByKey(rows);
                String id = !ids ? null : legacy ? BlockIds.pieceId(p.getKey(), cols, rows) : info.blockId(i, p.getKey());
                byPartition.computeIfAbsent(p.getKey(), k -> new ArrayList<>()).add(new Piece(e, p.getKey(), rows, id));
            }
        }
        if (maxPartitions > 0 && byPartition.size() > maxPartitions) {
            table.splitByPartition(all, maxPartitions, throwOnMax); // the batch is one block: refused as a whole
        }
        for (String partitionId : byPartition.keySet()) {
            table.checkTooManyParts(partitionId);
        }
        Block block = new Block(cols, all, info);
        if (log == null) {
            flushUnlocked(table, byPartition, null, keeper, enabled, block, ctx).run();
            return;
        }
        Runnable viewWrites;
        synchronized (log) {
            viewWrites = flushUnlocked(table, byPartition, log, false, enabled, block, ctx);
        }
        viewWrites.run();
    }

    /**
     * Removes duplicates, runs the views on what is left (so their errors come before anything is written), writes
     * one part per partition and records the ids; returns the writes of the views' output. With a log, the caller
     * holds its lock.
     */
    private Runnable flushUnlocked(StorageMergeTree table, Map<String, List<Piece>> byPartition, MergeTreeDeduplicationLog log,
                                   boolean keeper, boolean enabled, Block block, QueryContext ctx) {
        Map<String, List<Piece>> kept = new LinkedHashMap<>();
        List<Piece> duplicates = new ArrayList<>();
        List<Piece> selfDuplicates = new ArrayList<>();
        Map<AsyncInsertEntry, List<Piece>> written = new LinkedHashMap<>();
        for (Map.Entry<String, List<Piece>> p : byPartition.entrySet()) {
            List<Piece> keep = p.getValue();
            if (log != null || keeper) {
                keep = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                Set<String> inKeeper = keeper ? table.existingBlockIds(p.getValue().stream().map(Piece::blockId).toList()) : Set.of();
                for (Piece piece : p.getValue()) {
                    if (log != null ? log.contains(piece.blockId) : inKeeper.contains(piece.blockId)) {
                        duplicates.add(piece);
                    } else if (!seen.add(piece.blockId)) {
                        selfDuplicates.add(piece);
                    } else {
                        keep.add(piece);
                    }
                }
            }
            if (!keep.isEmpty()) {
                kept.put(p.getKey(), keep);
            }
            for (Piece piece : keep) {
                written.computeIfAbsent(piece.entry, k -> new ArrayList<>()).add(piece);
            }
        }
        // as in a synchronous insert, the views get the whole batch, duplicates too: their targets deduplicate by their windows
        Runnable viewWrites = views.prepare(table, block, (DeduplicationInfo) block.info(), enabled, true, ctx);
        for (Map.Entry<String, List<Piece>> p : kept.entrySet()) {
            duplicates.addAll(commit(table, p.getKey(), p.getValue(), log, keeper));
        }
        for (Piece piece : duplicates) {
            LOG.info("Block with ID {} already exists {}; ignoring it.", piece.blockId, log != null ? "locally as part "
                + log.partFor(piece.blockId) : "in ZooKeeper");
            events.increment("DuplicatedAsyncInserts");
            dedup.partLog().deduplicated(table, piece.partitionId, piece.rows.size(), piece.blockId, piece.entry.queryId());
        }
        for (Piece piece : selfDuplicates) {
            LOG.info("Block with ID {} appears twice in one async insert batch; ignoring the second.", piece.blockId);
            events.increment("SelfDuplicatedAsyncInserts");
            dedup.partLog().deduplicated(table, piece.partitionId, piece.rows.size(), piece.blockId, piece.entry.queryId());
        }
        return viewWrites;
    }

    /**
     * Writes the kept pieces of one partition as one part and records their ids with it. For a table whose ids live in
     * ZooKeeper, a commit that meets an id another insert stored meanwhile is retried without that piece; returns the
     * pieces dropped so.
     */
    private List<Piece> commit(StorageMergeTree table, String partitionId, List<Piece> kept, MergeTreeDeduplicationLog log, boolean keeper) {
        List<Piece> dropped = new ArrayList<>();
        while (!kept.isEmpty()) {
            IMergeTreeDataPart part = commitOnce(table, partitionId, kept, log);
            if (part != null || !keeper) {
                return dropped;
            }
            Set<String> taken = table.existingBlockIds(kept.stream().map(Piece::blockId).toList());
            List<Piece> rest = new ArrayList<>();
            for (Piece piece : kept) {
                (taken.contains(piece.blockId) ? dropped : rest).add(piece);
            }
            kept = rest;
        }
        return dropped;
    }

    private IMergeTreeDataPart commitOnce(StorageMergeTree table, String partitionId, List<Piece> kept, MergeTreeDeduplicationLog log) {
        List<Object[]> rows = new ArrayList<>();
        for (Piece piece : kept) {
            rows.addAll(piece.rows);
        }
        table.sortByKey(rows);
        List<String> ids = new ArrayList<>();
        for (Piece piece : kept) {
            if (piece.blockId != null) {
                ids.add(piece.blockId);
            }
        }
        IMergeTreeDataPart part = dedup.commitPart(table, partitionId, rows, ids, log, kept.get(0).entry.queryId());
        if (part == null) {
            return null;
        }
        for (Piece piece : kept) {
            piece.entry.writtenRows += piece.rows.size();
            piece.entry.writtenBytes += part.bytesOnDisk() * piece.rows.size() / Math.max(1, rows.size());
        }
        events.increment("InsertedRows", rows.size());
        events.increment("InsertedBytes", part.bytesOnDisk());
        return part;
    }
}
