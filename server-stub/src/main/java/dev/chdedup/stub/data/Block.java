package dev.chdedup.stub.data;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch of rows with a header: the unit the insert pipeline splits, squashes, hashes and writes as a part, and the
 * unit queries stream. Mirrors ClickHouse's {@code Block}. A block is columnar (one {@link IColumn} per header entry,
 * {@link #data()}) when an input format, a part reader or a squash made it so, and its {@link #rows()} are then a view
 * made of the columns; a block built of rows keeps them as {@code Object[]} in header order.
 */
public final class Block {
    private final List<Column> columns;
    private final List<Object[]> rows;
    /** The columns of a columnar block, or null for a block of rows. */
    private final IColumn[] data;
    /** What the insert pipeline attached to these rows (their deduplication info), or null. */
    private final ChunkInfo info;

    public Block(List<Column> columns, List<Object[]> rows) {
        this(columns, rows, null);
    }

    /** A block of {@code rows}; a {@link ColumnRows} view makes it the columnar block of its columns. */
    public Block(List<Column> columns, List<Object[]> rows, ChunkInfo info) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
        this.data = rows instanceof ColumnRows ? ((ColumnRows) rows).columns() : null;
        this.info = info;
    }

    /** A columnar block of {@code rows} rows (the columns' size; {@code rows} for a block without columns). */
    public static Block ofColumns(List<Column> header, IColumn[] data, int rows, ChunkInfo info) {
        return new Block(header, new ColumnRows(data, rows), info);
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

    /** The columns of a columnar block, which the caller does not change, or null for a block of rows. */
    public IColumn[] data() {
        return data;
    }

    public int rowCount() {
        return rows.size();
    }

    /** Approximate bytes of the block's values, as ClickHouse's {@code Block::bytes} estimates. */
    public long bytes() {
        long b = 0;
        if (data != null) {
            for (IColumn c : data) {
                b += c.byteSize();
            }
            return b;
        }
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
