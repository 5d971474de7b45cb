package dev.chdedup.stub.storages;

import dev.chdedup.stub.mergetree.TableColumn;
import java.util.List;

/**
 * The Memory engine: rows kept in the server's heap, in insertion order, gone when the server stops (the table
 * itself stays, empty, as in ClickHouse); each insert lands whole or not at all. Also the Null engine when
 * {@code discard} is set: it accepts inserts and keeps nothing. Mirrors ClickHouse's StorageMemory and StorageNull.
 */
public final class StorageMemory extends ChunkedStorage {
    private final boolean discard;

    StorageMemory(String engine, List<TableColumn> tableColumns, boolean discard, String createSql) {
        super(engine, tableColumns, createSql);
        this.discard = discard;
    }

    @Override
    public synchronized void write(List<Object[]> rows) {
        if (!discard && !rows.isEmpty()) {
            appendChunk(rows);
        }
    }

    /** Each insert's rows as one block, whatever max_block_size: ClickHouse's Memory engine reads the blocks it stored. */
    @Override
    public java.util.Iterator<dev.chdedup.stub.data.Block> read(int maxBlockSize, boolean withVirtuals) {
        List<dev.chdedup.stub.data.Block> blocks = new java.util.ArrayList<>();
        for (List<Object[]> c : chunks()) {
            blocks.add(new dev.chdedup.stub.data.Block(columns(), c));
        }
        return blocks.iterator();
    }

    @Override
    public synchronized void truncate() {
        setChunks(List.of());
    }

    @Override
    public void drop() {
        truncate();
    }
}
