package dev.chdedup.stub.dedup;

import dev.chdedup.stub.fault.CrashPoint;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Owns the deduplication logs of the server's non-replicated tables: opens a table's log when its
 * {@code non_replicated_deduplication_window} is positive (loading what is on disk), applies window changes at
 * once, and forgets block ids of dropped parts, partitions and truncated tables.
 */
public final class DeduplicationService {
    private final Map<StorageMergeTree, MergeTreeDeduplicationLog> logs = new ConcurrentHashMap<>();
    private final PartLog partLog = new PartLog();

    public PartLog partLog() {
        return partLog;
    }

    /** The table's log, or null when its window is 0 (the table deduplicates nothing). */
    public MergeTreeDeduplicationLog log(StorageMergeTree t) {
        long window = windowOf(t);
        MergeTreeDeduplicationLog log = logs.get(t);
        if (log == null) {
            if (window == 0) {
                return null;
            }
            log = logs.computeIfAbsent(t, k -> open(k, window));
        }
        synchronized (log) {
            if (log.window() != window) {
                log.setWindow(window);
            }
        }
        return window == 0 ? null : log;
    }

    private static MergeTreeDeduplicationLog open(StorageMergeTree t, long window) {
        try {
            MergeTreeDeduplicationLog log = new MergeTreeDeduplicationLog(t.directory(), window, t.setting("fsync_after_insert") != 0);
            log.recoverFromParts(t.activeParts());
            return log;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The table's window: {@code non_replicated_deduplication_window} for MergeTree; 0 for ReplicatedMergeTree,
     * whose block ids live in ZooKeeper (dev.chdedup.stub.replicated), not in a local log.
     */
    static long windowOf(StorageMergeTree t) {
        return t.definition().engine().startsWith("Replicated") ? 0 : t.setting("non_replicated_deduplication_window");
    }

    /** Opens logs found on disk at start, so a table created with a window keeps its ids across restarts. */
    public void attach(StorageMergeTree t) {
        log(t);
    }

    public void settingsChanged(StorageMergeTree t) {
        MergeTreeDeduplicationLog log = logs.get(t);
        if (log != null) {
            synchronized (log) {
                log.setWindow(windowOf(t));
            }
        } else {
            log(t);
        }
    }

    /**
     * The insert commit step every sink shares: writes one partition's sorted rows as a part (its block ids stored
     * in it), then records the ids in {@code log} (the caller holds its lock, and has checked them against it) and in
     * part_log. A crash between the part's rename and the log's record loses nothing: no merge or mutation takes
     * the part before its ids are recorded, and {@link #open} takes the ids of parts newer than the log back into it.
     */
    public IMergeTreeDataPart commitPart(StorageMergeTree t, String partitionId, List<Object[]> sortedRows, List<String> blockIds,
                               MergeTreeDeduplicationLog log, String queryId) {
        IMergeTreeDataPart part = t.writePart(partitionId, sortedRows, log == null && !inKeeper(t) ? List.of() : blockIds, written -> {
            CrashPoint.AFTER_PART_RENAME.reached();
            if (log != null) {
                for (String id : blockIds) {
                    log.add(id, written.name());
                }
            }
        });
        if (part == null) {
            return null; // a replicated table found one of the ids in ZooKeeper: nothing written
        }
        CrashPoint.AFTER_INSERT_COMMIT.reached();
        partLog.newPart(t, part, log == null && !inKeeper(t) || blockIds.isEmpty() ? "" : blockIds.get(0), queryId);
        return part;
    }

    /** Whether the table's block ids live in ZooKeeper (ReplicatedMergeTree), where {@link #commitPart} checks them. */
    public static boolean inKeeper(StorageMergeTree t) {
        return t.definition().engine().startsWith("Replicated");
    }

    /**
     * A piece for a table whose ids live in ZooKeeper: committed with those of {@code blockIds} ZooKeeper does not
     * have yet (a piece is a duplicate only when it has them all, as in the local log); null when it has them all.
     * A commit that meets an id another insert stored meanwhile is retried without it.
     */
    public IMergeTreeDataPart commitKeeperPart(StorageMergeTree t, String partitionId, List<Object[]> sortedRows, List<String> blockIds, String queryId) {
        List<String> ids = new java.util.ArrayList<>(blockIds);
        while (true) {
            ids.removeAll(t.existingBlockIds(ids));
            if (ids.isEmpty() && !blockIds.isEmpty()) {
                return null;
            }
            IMergeTreeDataPart part = commitPart(t, partitionId, sortedRows, ids, null, queryId);
            if (part != null || ids.isEmpty()) {
                return part;
            }
        }
    }

    public void partsDropped(StorageMergeTree t, List<IMergeTreeDataPart> parts) {
        MergeTreeDeduplicationLog log = logs.get(t);
        if (log == null) {
            return;
        }
        synchronized (log) {
            for (IMergeTreeDataPart p : parts) {
                log.dropPart(p.info());
            }
        }
    }

    public void tableDropped(StorageMergeTree t) {
        MergeTreeDeduplicationLog log = logs.remove(t);
        if (log != null) {
            synchronized (log) {
                log.close();
            }
        }
    }

    public void closeAll() {
        for (MergeTreeDeduplicationLog log : logs.values()) {
            synchronized (log) {
                log.close();
            }
        }
        logs.clear();
    }
}
