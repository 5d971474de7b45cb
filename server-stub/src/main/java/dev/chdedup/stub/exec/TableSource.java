package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import java.util.Iterator;
import java.util.List;

/**
 * Something a SELECT can read FROM: a MergeTree table, a system table or a table function. It streams blocks
 * of at most {@code maxBlockSize} rows; with {@code withVirtuals} each row also carries the virtual columns.
 */
public interface TableSource {
    List<Column> columns();

    /** A table of {@code rows} held in memory, read in blocks of at most the block size: a snapshot, a view's input. */
    static TableSource of(List<Column> columns, List<Object[]> rows) {
        return new TableSource() {
            @Override
            public List<Column> columns() {
                return columns;
            }

            @Override
            public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
                return BlockStreams.chunk(columns, rows, maxBlockSize);
            }
        };
    }

    /** Virtual columns ({@code _part}, {@code _partition_id}), appended after {@link #columns()} when asked for. */
    default List<Column> virtualColumns() {
        return List.of();
    }

    Iterator<Block> read(int maxBlockSize, boolean withVirtuals);

    /**
     * {@link #read(int, boolean)} for a query that looks only at the columns {@code needed} marks (by index into
     * {@link #columns()}; null: all): a source that stores columns apart may leave the others unread, at their defaults.
     */
    default Iterator<Block> read(int maxBlockSize, boolean withVirtuals, boolean[] needed) {
        return read(maxBlockSize, withVirtuals);
    }

    /**
     * {@link #read(int, boolean, boolean[])} for a query that keeps only the rows {@code filter} (its WHERE, over this
     * source's columns; null: none) accepts: a source with an index may leave out rows the filter refuses (a MergeTree
     * its granules by the primary key), never one it accepts; the query filters what it reads.
     */
    default Iterator<Block> read(int maxBlockSize, boolean withVirtuals, boolean[] needed, dev.chdedup.stub.sql.Expr filter) {
        return read(maxBlockSize, withVirtuals, needed);
    }

    /**
     * How many rows the table holds, when it knows without reading them (as ClickHouse's {@code IStorage::totalRows} does for MergeTree): what a
     * trivial {@code SELECT count()} answers. Empty: the rows must be counted.
     */
    default java.util.OptionalLong rowCountFromMetadata() {
        return java.util.OptionalLong.empty();
    }

    /** {@code FROM t FINAL}: the rows as a merge would leave them; a table without merges reads them as they are. */
    default Iterator<Block> readFinal(int maxBlockSize, boolean withVirtuals) {
        return read(maxBlockSize, withVirtuals);
    }

    /**
     * A read under {@code select_sequential_consistency}: a replicated table reads only the parts that reached their
     * quorum; any other table reads all.
     */
    default Iterator<Block> readSequentiallyConsistent(int maxBlockSize, boolean withVirtuals) {
        return read(maxBlockSize, withVirtuals);
    }

    /**
     * The columns {@code SELECT *} shows: all of {@link #columns()} unless some are MATERIALIZED, which a query reads
     * only by name (as ClickHouse leaves them out of the asterisk).
     */
    default List<Column> starColumns() {
        return columns();
    }

    /**
     * The text indexes of the table: each indexed expression (as its definition writes it) with its tokenizer
     * ({@code splitByNonAlpha}, {@code ngrams(3)}, ...), which hasAllTokens and hasAnyTokens take over that expression.
     */
    default java.util.Map<String, String> textIndexTokenizers() {
        return java.util.Map.of();
    }

    /** ALIAS columns: names a query may use, each standing for an expression over the stored columns. */
    default java.util.Map<String, dev.chdedup.stub.sql.Expr> aliasColumns() {
        return java.util.Map.of();
    }
}
