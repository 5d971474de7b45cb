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
 * The Memory engine: rows kept in the server's heap, in insertion order, gone when the server stops (the table
 * itself stays, empty, as in ClickHouse). Each insert is appended as one immutable chunk under a lock, so a reader
 * sees every insert whole or not at all. Also the Null engine when {@code discard} is set: it accepts inserts and
 * keeps nothing. Mirrors ClickHouse's StorageMemory and StorageNull.
 */
public final class StorageMemory implements Storage {
    private final String engine;
    private final String createSql;
    private final List<TableColumn> tableColumns;
    private final List<Column> columns;
    private final boolean discard;
    /** The inserted chunks in order; replaced, never changed in place, so a snapshot is a plain reference copy. */
    private volatile List<List<Object[]>> chunks = List.of();

    StorageMemory(String engine, List<TableColumn> tableColumns, boolean discard, String createSql) {
        this.engine = engine;
        this.createSql = createSql;
        this.tableColumns = List.copyOf(tableColumns);
        List<Column> cols = new ArrayList<>();
        for (TableColumn c : tableColumns) {
            cols.add(new Column(c.name(), c.type()));
        }
        this.columns = List.copyOf(cols);
        this.discard = discard;
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
    public synchronized void write(List<Object[]> rows) {
        if (discard || rows.isEmpty()) {
            return;
        }
        List<List<Object[]>> next = new ArrayList<>(chunks);
        next.add(Collections.unmodifiableList(new ArrayList<>(rows)));
        chunks = Collections.unmodifiableList(next);
    }

    @Override
    public synchronized void truncate() {
        chunks = List.of();
    }

    @Override
    public void drop() {
        truncate();
    }

    @Override
    public long totalRows() {
        long n = 0;
        for (List<Object[]> c : chunks) {
            n += c.size();
        }
        return n;
    }
}
