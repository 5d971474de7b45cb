package dev.chdedup.stub.data;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch of rows with a header: the unit the insert pipeline splits, squashes, hashes and writes as a part,
 * and the unit queries stream. Rows are {@code Object[]} in header order, values as the column types hold
 * them. Mirrors ClickHouse's {@code Block}, row-oriented for simplicity.
 */
public final class Block {
    private final List<Column> columns;
    private final List<Object[]> rows;
    /** What the insert pipeline attached to these rows (their deduplication info), or null. */
    private final ChunkInfo info;

    public Block(List<Column> columns, List<Object[]> rows) {
        this(columns, rows, null);
    }

    public Block(List<Column> columns, List<Object[]> rows, ChunkInfo info) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
        this.info = info;
    }

    /** This block's rows with {@code info} attached. */
    public Block withInfo(ChunkInfo info) {
        return new Block(columns, rows, info);
    }

    public ChunkInfo info() {
        return info;
    }

    public Block(List<Column> columns) {
        this(columns, new ArrayList<>());
    }

    public List<Column> columns() {
        return columns;
    }

    public List<Object[]> rows() {
        return rows;
    }

    public int rowCount() {
        return rows.size();
    }

    /** Approximate bytes of the block's values, as ClickHouse's {@code Block::bytes} estimates. */
    public long bytes() {
        long b = 0;
        for (Object[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                b += columns.get(i).type().byteSize(r[i] == null ? columns.get(i).type().defaultValue() : r[i]);
            }
        }
        return b;
    }

    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
