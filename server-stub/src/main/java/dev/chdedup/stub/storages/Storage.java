package dev.chdedup.stub.storages;

import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.TableColumn;
import java.io.IOException;
import java.util.List;

/**
 * A table of one of the simple engines (Memory, Null, Log, TinyLog, StripeLog): what a SELECT reads, what an INSERT
 * appends to. An insert is one {@link #write} of all its rows, which lands whole or not at all. These engines have
 * no parts, no sorting key and no deduplication, as in ClickHouse. Mirrors ClickHouse's IStorage for them.
 */
public interface Storage extends TableSource {
    /** The engine name as CREATE TABLE gave it: Memory, Null, Log, TinyLog or StripeLog. */
    String engine();

    /** The stored columns with their defaults, as the insert path completes rows with them. */
    List<TableColumn> tableColumns();

    /** Appends {@code rows} (full rows in column order) atomically. */
    void write(List<Object[]> rows) throws IOException;

    /** Removes every row. */
    void truncate() throws IOException;

    /** Removes the table's data for good (DROP TABLE). */
    void drop() throws IOException;

    /** The number of rows stored (system.tables total_rows). */
    long totalRows();

    /** The CREATE TABLE statement, for SHOW CREATE TABLE and system.tables. */
    String createSql();

    /** The server stops: background work ends (nothing is flushed that the engine does not flush). */
    default void shutdown() {
    }
}
