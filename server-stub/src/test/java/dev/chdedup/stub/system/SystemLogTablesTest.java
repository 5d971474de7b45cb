package dev.chdedup.stub.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.Test;

/**
 * The server's log tables in system.tables as ClickHouse makes them (SystemLog's default: a MergeTree partitioned by
 * toYYYYMM(event_date), ordered by (event_date, event_time)), so the official JDBC driver's getPrimaryKeys finds
 * their keys, as the jdbc-v2 suite's DatabaseMetaDataTest.testGetPrimaryKeys expects of system.query_log.
 */
class SystemLogTablesTest {
    @Test
    void queryLogAndPartLogHaveSystemLogsKeys() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            ConformanceClient client = new ConformanceClient(s.httpUrl());
            assertEquals("part_log\tMergeTree\ttoYYYYMM(event_date)\tevent_date, event_time\tevent_date, event_time\n"
                    + "query_log\tMergeTree\ttoYYYYMM(event_date)\tevent_date, event_time\tevent_date, event_time\n",
                client.query("SELECT name, engine, partition_key, sorting_key, primary_key FROM system.tables WHERE database = 'system' "
                    + "AND name IN ('query_log', 'part_log') ORDER BY name"));
            // the driver's getPrimaryKeys(null, "system", "query_log")
            assertEquals("query_log\tevent_date\t1\nquery_log\tevent_time\t2\n", client.query("SELECT system.tables.name AS TABLE_NAME, "
                + "trim(c.1) AS COLUMN_NAME, CAST(c.2 AS Int16) AS KEY_SEQ FROM system.tables ARRAY JOIN arrayZip(splitByChar(',', primary_key), "
                + "arrayEnumerate(splitByChar(',', primary_key))) as c WHERE system.tables.primary_key <> '' AND system.tables.database ILIKE "
                + "'system' AND system.tables.name ILIKE 'query_log' ORDER BY COLUMN_NAME"));
        }
    }
}
