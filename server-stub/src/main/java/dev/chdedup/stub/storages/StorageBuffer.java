package dev.chdedup.stub.storages;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.exec.MemoryTracker;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.TableColumn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * The Buffer engine: {@code Buffer(db, table, num_layers, min_time, max_time, min_rows, max_rows, min_bytes, max_bytes
 * [, flush_time, flush_rows, flush_bytes])} keeps inserted rows in memory and writes them to the destination table as
 * one insert when every min_* threshold is reached or any max_* (or flush_*) one is, checked on each insert and every
 * 100 ms in the background, and on OPTIMIZE, DROP and server shutdown. An insert larger than max_rows or max_bytes
 * goes straight to the destination. A SELECT reads the destination (the columns of the same names) and then the
 * buffered rows. Rows are lost on a crash, as in ClickHouse. One layer stands for num_layers. Mirrors ClickHouse's
 * StorageBuffer.
 */
public final class StorageBuffer extends ChunkedStorage {
    /** Writes flushed rows (in this table's columns) into the destination table as one insert. */
    public interface Flusher {
        void write(String database, String table, List<Column> columns, List<Object[]> rows);
    }

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "StorageBuffer flush");
        t.setDaemon(true);
        return t;
    });

    private final String destinationDb;
    private final String destinationTable;
    /** min_time, max_time, min_rows, max_rows, min_bytes, max_bytes, flush_time, flush_rows, flush_bytes (0: none). */
    private final double[] thresholds;
    private volatile BiFunction<String, String, Object> resolver = (db, t) -> null;
    private volatile Flusher flusher;
    /** When the oldest buffered row came (System.nanoTime), and the bytes buffered; guarded by this. */
    private long firstRowNanos;
    private long bytes;
    private final ScheduledFuture<?> timer;

    StorageBuffer(List<TableColumn> tableColumns, String createSql, String destinationDb, String destinationTable, double[] thresholds) {
        super("Buffer", tableColumns, createSql);
        this.destinationDb = destinationDb;
        this.destinationTable = destinationTable;
        this.thresholds = thresholds.clone();
        this.timer = TIMER.scheduleWithFixedDelay(this::flushIfDue, 100, 100, TimeUnit.MILLISECONDS);
    }

    /** How a read finds the destination table (db, table -> object or null). */
    public void resolveWith(BiFunction<String, String, Object> r) {
        this.resolver = r;
    }

    /** How flushed rows reach the destination. */
    public void flushWith(Flusher f) {
        this.flusher = f;
    }

    @Override
    public void write(List<Object[]> rows) {
        if (rows.isEmpty()) {
            return;
        }
        long size = 0;
        for (Object[] r : rows) {
            size += MemoryTracker.rowBytes(columns, r);
        }
        if (over(thresholds[3], rows.size()) || over(thresholds[5], size)) {
            writeToDestination(rows); // a block larger than max_rows or max_bytes is not buffered
            return;
        }
        synchronized (this) {
            if (totalRows() == 0) {
                firstRowNanos = System.nanoTime();
            }
            appendChunk(rows);
            bytes += size;
        }
        flushIfDue();
    }

    private static boolean over(double limit, double value) {
        return limit > 0 && value > limit;
    }

    private void flushIfDue() {
        try {
            synchronized (this) {
                long rows = totalRows();
                if (rows == 0) {
                    return;
                }
                double seconds = (System.nanoTime() - firstRowNanos) / 1e9;
                boolean allMin = seconds >= thresholds[0] && rows >= thresholds[2] && bytes >= thresholds[4];
                boolean anyMax = reached(thresholds[1], seconds) || reached(thresholds[3], rows) || reached(thresholds[5], bytes)
                    || reached(thresholds[6], seconds) || reached(thresholds[7], rows) || reached(thresholds[8], bytes);
                if (allMin || anyMax) {
                    flush();
                }
            }
        } catch (RuntimeException e) {
            // the destination refused the rows (dropped, bad data): they stay buffered and the next check retries
        }
    }

    private static boolean reached(double limit, double value) {
        return limit > 0 && value >= limit;
    }

    /** Writes every buffered row to the destination now (OPTIMIZE TABLE, DROP, shutdown); on error they stay buffered. */
    public synchronized void flush() {
        List<Object[]> rows = new ArrayList<>();
        for (Iterator<Block> it = super.read(Integer.MAX_VALUE, false); it.hasNext(); ) {
            rows.addAll(it.next().rows());
        }
        if (rows.isEmpty()) {
            return;
        }
        writeToDestination(rows);
        setChunks(List.of());
        bytes = 0;
    }

    private void writeToDestination(List<Object[]> rows) {
        if (destinationTable.isEmpty()) {
            return; // Buffer(db, '', ...): flushed rows are discarded
        }
        Flusher f = flusher;
        if (f == null || resolver.apply(destinationDb, destinationTable) == null) {
            throw new ChException(ErrorCode.UNKNOWN_TABLE, "Table " + destinationDb + "." + destinationTable
                + " (the destination of a Buffer table) does not exist");
        }
        f.write(destinationDb, destinationTable, columns, rows);
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        List<Object[]> all = new ArrayList<>();
        Object dest = destinationTable.isEmpty() ? null : resolver.apply(destinationDb, destinationTable);
        List<Object[]> buffered = new ArrayList<>();
        synchronized (this) { // a flush moves rows from the buffer to the destination: read both under its lock
            if (dest instanceof TableSource) {
                TableSource d = (TableSource) dest;
                Map<String, Integer> at = new HashMap<>();
                for (int i = 0; i < d.columns().size(); i++) {
                    at.put(d.columns().get(i).name(), i);
                }
                for (Iterator<Block> it = d.read(maxBlockSize, false); it.hasNext(); ) {
                    for (Object[] r : it.next().rows()) {
                        Object[] out = new Object[columns.size()];
                        for (int i = 0; i < columns.size(); i++) {
                            Integer k = at.get(columns.get(i).name());
                            out[i] = k == null ? columns.get(i).type().defaultValue() : r[k];
                        }
                        all.add(out);
                    }
                }
            }
            for (Iterator<Block> it = super.read(Integer.MAX_VALUE, false); it.hasNext(); ) {
                buffered.addAll(it.next().rows());
            }
        }
        all.addAll(buffered);
        return BlockStreams.chunk(columns, all, maxBlockSize);
    }

    @Override
    public synchronized void truncate() {
        setChunks(List.of());
        bytes = 0;
    }

    /** DROP TABLE: the buffered rows are flushed first (kept when that fails), then the timer stops. */
    @Override
    public void drop() {
        flush();
        timer.cancel(false);
    }

    /** Server shutdown: flushes what it can and stops the timer. */
    public void close() {
        try {
            flush();
        } catch (RuntimeException e) {
            // the destination is gone: the rows are lost, as a Buffer's are when ClickHouse stops without it
        }
        timer.cancel(false);
    }
}
