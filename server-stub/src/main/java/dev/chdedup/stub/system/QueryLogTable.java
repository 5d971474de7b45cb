package dev.chdedup.stub.system;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.QueryLog;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code system.query_log} over the server's {@link QueryLog}: ClickHouse's columns that tests assert on (type, times,
 * duration, query, query_kind, query_id, user, exception_code, exception, rows and bytes read and written, result
 * rows); result_bytes and memory_usage read 0.
 * Mirrors ClickHouse's QueryLogElement::getColumnsDescription.
 */
final class QueryLogTable {
    private QueryLogTable() {
    }

    private static Column c(String n, String type) {
        return new Column(n, DataTypes.parse(type));
    }

    static TableSource of(QueryLog log) {
        List<Column> cols = List.of(
            c("type", "Enum8('QueryStart' = 1, 'QueryFinish' = 2, 'ExceptionBeforeStart' = 3, 'ExceptionWhileProcessing' = 4)"),
            c("event_date", "Date"), c("event_time", "DateTime"), c("event_time_microseconds", "DateTime64(6)"),
            c("query_start_time", "DateTime"), c("query_start_time_microseconds", "DateTime64(6)"),
            c("query_duration_ms", "UInt64"), c("read_rows", "UInt64"), c("read_bytes", "UInt64"), c("written_rows", "UInt64"),
            c("written_bytes", "UInt64"), c("result_rows", "UInt64"), c("result_bytes", "UInt64"), c("memory_usage", "UInt64"),
            c("query", "String"), c("query_kind", "LowCardinality(String)"), c("exception_code", "Int32"),
            c("exception", "String"), c("is_initial_query", "UInt8"), c("user", "String"), c("query_id", "String"),
            c("initial_user", "String"), c("initial_query_id", "String"), c("interface", "UInt8"), c("http_method", "UInt8"));
        List<Object[]> rows = new ArrayList<>();
        if (log != null) {
            for (QueryLog.Element e : log.snapshot()) {
                String user = ByteStrings.fromText(e.user());
                String id = ByteStrings.fromText(e.queryId());
                rows.add(new Object[] {e.type().code, Math.floorDiv(e.eventTime().getEpochSecond(), 86400L),
                    e.eventTime().getEpochSecond(), micros(e.eventTime()), e.queryStartTime().getEpochSecond(),
                    micros(e.queryStartTime()), e.durationMs(), e.readRows(), e.readBytes(), e.writtenRows(), e.writtenBytes(),
                    e.resultRows(), 0L, 0L,
                    ByteStrings.fromText(e.query()),
                    e.queryKind(), (long) e.exceptionCode(), ByteStrings.fromText(e.exception()), 1L, user, id, user, id, 2L, 2L});
            }
        }
        return SystemTables.snapshot(cols, rows);
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }
}
