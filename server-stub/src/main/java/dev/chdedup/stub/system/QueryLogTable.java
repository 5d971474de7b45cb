package dev.chdedup.stub.system;

import dev.chdedup.stub.exec.ClientInfo;
import dev.chdedup.stub.exec.QueryLog;
import dev.chdedup.stub.exec.ServerInfo;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.types.ByteStrings;
import java.time.Instant;

/**
 * {@code system.query_log} over the server's {@link QueryLog}, with all of ClickHouse 26.7's columns
 * ({@link SystemTableSchema}): the row's type and times, duration, query, query_kind, query_id, user, current
 * database, exception_code and exception, rows and bytes read and written, result rows, the client's interface,
 * HTTP method, address and port, User-Agent, Referer and X-Forwarded-For, quota key, log_comment and the changed
 * settings; the other columns (result_bytes, memory_usage, ProfileEvents, normalized_query_hash, the tables a query
 * used, ...) read their type's default. Mirrors ClickHouse's QueryLogElement::appendToBlock.
 */
final class QueryLogTable {
    private QueryLogTable() {
    }

    static TableSource of(QueryLog log) {
        SystemTable t = SystemTable.of("query_log");
        if (log != null) {
            String host = ServerInfo.hostName();
            for (QueryLog.Element e : log.snapshot()) {
                String user = ByteStrings.fromText(e.user());
                String id = ByteStrings.fromText(e.queryId());
                ClientInfo c = e.client();
                client(t.add(), c, true).set("hostname", host).set("type", e.type().code)
                    .set("event_date", Math.floorDiv(e.eventTime().getEpochSecond(), 86400L))
                    .set("event_time", e.eventTime().getEpochSecond()).set("event_time_microseconds", micros(e.eventTime()))
                    .set("query_start_time", e.queryStartTime().getEpochSecond())
                    .set("query_start_time_microseconds", micros(e.queryStartTime())).set("query_duration_ms", e.durationMs())
                    .set("read_rows", e.readRows()).set("read_bytes", e.readBytes()).set("written_rows", e.writtenRows())
                    .set("written_bytes", e.writtenBytes()).set("result_rows", e.resultRows())
                    .set("query", ByteStrings.fromText(e.query())).set("query_kind", e.queryKind())
                    .set("exception_code", (long) e.exceptionCode()).set("exception", ByteStrings.fromText(e.exception()))
                    .set("user", user).set("query_id", id).set("initial_user", user).set("initial_query_id", id)
                    .set("initial_query_start_time", e.queryStartTime().getEpochSecond())
                    .set("initial_query_start_time_microseconds", micros(e.queryStartTime())).set("authenticated_user", user)
                    .set("connection_address", c.addressBytes()).set("connection_port", c.port())
                    .set("log_comment", ByteStrings.fromText(c.logComment())).set("Settings", settings(c)).set("query_cache_usage", e.type() == QueryLog.Type.QueryStart ? "Unknown" : "None");
            }
        }
        return t.source();
    }

    /** Fills the columns query_log and processes share from a query's client: interface, address, HTTP headers, ... */
    static SystemTable.Row client(SystemTable.Row row, ClientInfo c, boolean queryLog) {
        row.set("is_initial_query", 1L).set("address", c.addressBytes()).set("port", c.port())
            .set("initial_address", c.addressBytes()).set("initial_port", c.port()).set("interface", (long) c.interfaceKind())
            .set("http_method", (long) c.httpMethod()).set("http_user_agent", ByteStrings.fromText(c.httpUserAgent()))
            .set("http_referer", ByteStrings.fromText(c.httpReferer())).set("forwarded_for", ByteStrings.fromText(c.forwardedFor()))
            .set("quota_key", ByteStrings.fromText(c.quotaKey()));
        if (!queryLog) {
            row.set("Settings", settings(c));
        } else {
            row.set("current_database", c.currentDatabase());
        }
        return row;
    }

    /** The changed settings as Map values: names as they are, values as byte strings. */
    private static java.util.Map<String, String> settings(ClientInfo c) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        c.settings().forEach((k, v) -> out.put(k, ByteStrings.fromText(v)));
        return out;
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }
}
