package dev.chdedup.stub.dedup;

import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The rows of {@code system.part_log} the stub records: a {@code NewPart} event for each written part and for
 * each deduplicated block (with error 389, INSERT_WAS_DEDUPLICATED), each with its block id. Keeps the last
 * {@link #CAPACITY} events in memory.
 */
public final class PartLog {
    public static final int CAPACITY = 100_000;
    public static final int INSERT_WAS_DEDUPLICATED = 389;

    /** One event, in system.part_log's column order. */
    public record Entry(String queryId, String eventType, long eventTime, long eventTimeMicros, String database, String table,
                        String partName, String partitionId, long rows, long sizeInBytes, String blockId, int error,
                        String exception) {
    }

    private final Deque<Entry> entries = new ArrayDeque<>();

    synchronized void add(Entry e) {
        if (entries.size() >= CAPACITY) {
            entries.removeFirst();
        }
        entries.addLast(e);
    }

    public void newPart(StorageMergeTree t, IMergeTreeDataPart p, String blockId, String queryId) {
        long micros = nowMicros();
        add(new Entry(queryId, "NewPart", micros / 1_000_000, micros, t.database(), t.name(), p.name(), p.info().partitionId(),
            p.rowCount(), p.bytesOnDisk(), blockId, 0, ""));
    }

    public void deduplicated(StorageMergeTree t, String partitionId, long rows, String blockId, String queryId) {
        long micros = nowMicros();
        add(new Entry(queryId, "NewPart", micros / 1_000_000, micros, t.database(), t.name(), "", partitionId, rows, 0, blockId,
            INSERT_WAS_DEDUPLICATED, "Code: 389. DB::Exception: Block with ID " + blockId
            + " already exists; ignoring it. (INSERT_WAS_DEDUPLICATED)"));
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    public synchronized List<Entry> snapshot() {
        return new ArrayList<>(entries);
    }
}
