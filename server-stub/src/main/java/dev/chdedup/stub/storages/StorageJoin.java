package dev.chdedup.stub.storages;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.exec.JoinTable;
import dev.chdedup.stub.mergetree.TableColumn;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The Join engine, Join(strictness, kind, key, ...): the right side of a join kept in memory, in insertion order, for
 * joinGet to look keys up in (the first row of a key under ANY). Mirrors ClickHouse's StorageJoin, without its hash
 * table: a reader builds its own index.
 */
public final class StorageJoin extends ChunkedStorage implements JoinTable {
    private final List<String> keys;

    StorageJoin(List<TableColumn> tableColumns, List<String> keys, String createSql) {
        super("Join", tableColumns, createSql);
        this.keys = List.copyOf(keys);
    }

    @Override
    public List<String> joinKeys() {
        return keys;
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        List<Block> blocks = new ArrayList<>();
        for (List<Object[]> c : chunks()) {
            blocks.add(new Block(columns(), c));
        }
        return blocks.iterator();
    }

    @Override
    public synchronized void write(List<Object[]> rows) {
        if (!rows.isEmpty()) {
            appendChunk(rows);
        }
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
