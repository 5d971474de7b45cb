package dev.chdedup.stub.exec;

import dev.chdedup.stub.exec.SelectExecutor;

/** What executing a statement gives the protocol layer: rows to send in a format, or a write summary. */
public sealed interface QueryResult {
    /** A result set; {@code format} is the statement's own FORMAT clause or null. */
    record Rows(SelectExecutor.Stream stream, String format) implements QueryResult {
    }

    /** A statement without a result; {@code writtenRows}/{@code writtenBytes} count what an INSERT wrote. */
    record Done(long writtenRows, long writtenBytes) implements QueryResult {
        public static final Done NOTHING = new Done(0, 0);
    }
}
