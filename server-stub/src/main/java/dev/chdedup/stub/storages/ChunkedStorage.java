package dev.chdedup.stub.storages;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.mergetree.TableColumn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * What the simple engines share: their columns, and the rows held in the heap as one immutable chunk per insert,
 * in insertion order. The chunk list is replaced, never changed in place, so a reader's snapshot is a plain
 * reference copy and sees every insert whole or not at all; writers hold the object's lock.
 */
abstract class ChunkedStorage implements Storage {
    private final String engine;
    private final String createSql;
    private final List<TableColumn> tableColumns;
    final List<Column> columns;
    /** The inserted chunks in order. */
    private volatile List<List<Object[]>> chunks = List.of();

    ChunkedStorage(String engine, List<TableColumn> tableColumns, String createSql) {
        this.engine = engine;
        this.createSql = createSql;
        this.tableColumns = List.copyOf(tableColumns);
        List<Column> cols = new ArrayList<>();
        for (TableColumn c : tableColumns) {
            cols.add(new Column(c.name(), c.type()));
        }
        this.columns = List.copyOf(cols);
    }

    @Override
    public String engine() {
        return engine;
    }

    @Override
    public String createSql() {
        return createSql;
    }

    @Override
    public List<TableColumn> tableColumns() {
        return tableColumns;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        List<Object[]> all = new ArrayList<>();
        for (List<Object[]> c : chunks) {
            all.addAll(c);
        }
        return BlockStreams.chunk(columns, all, maxBlockSize);
    }

    @Override
    public long totalRows() {
        long n = 0;
        for (List<Object[]> c : chunks) {
            n += c.size();
        }
        return n;
    }

    /** The inserted chunks in order: a snapshot. */
    final List<List<Object[]>> chunks() {
        return chunks;
    }

    /** Adds one insert's rows as a chunk; the caller holds the lock. */
    final void appendChunk(List<Object[]> rows) {
        List<List<Object[]>> next = new ArrayList<>(chunks);
        next.add(Collections.unmodifiableList(new ArrayList<>(rows)));
        chunks = Collections.unmodifiableList(next);
    }

    /** Replaces every chunk (load, truncate); the caller holds the lock. */
    final void setChunks(List<List<Object[]>> all) {
        chunks = Collections.unmodifiableList(new ArrayList<>(all));
    }
}
