package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import com.clickhouse.client.api.query.QuerySettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A query's system.query_log rows through the official clients (client-v2 and jdbc-v2 0.10.0), as ClickHouse's HTTP
 * handler writes them: the client's User-Agent (its client name first, then clickhouse-java-v2/VERSION; the driver's
 * jdbc-v2/VERSION before that), an empty client_name (HTTP carries none, only the native protocol does), interface 2,
 * the POST method's code 2, and the log_comment setting the query ran with, after SYSTEM FLUSH LOGS.
 */
class QueryLogClientInfoTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void clientV2() throws Exception {
        try (Client client = STUB.clientBuilder().setClientName("query-log-it").build()) {
            QuerySettings s = new QuerySettings().serverSetting("log_comment", "client-v2 comment");
            client.query("SELECT 1", s).get(30, TimeUnit.SECONDS).close();
            client.query("SYSTEM FLUSH LOGS").get(30, TimeUnit.SECONDS).close();
            List<GenericRecord> rows = client.queryAll("SELECT toString(type) AS t, http_user_agent, client_name, log_comment, interface, "
                + "http_method FROM system.query_log WHERE log_comment = 'client-v2 comment' ORDER BY event_time_microseconds, type");
            assertEquals(2, rows.size(), "QueryStart and QueryFinish");
            assertEquals("QueryStart", rows.get(0).getString("t"));
            assertEquals("QueryFinish", rows.get(1).getString("t"));
            for (GenericRecord r : rows) {
                String agent = r.getString("http_user_agent");
                assertTrue(agent.startsWith("query-log-it ") && agent.contains("clickhouse-java-v2/"), agent);
                assertEquals("", r.getString("client_name"), "no client name over HTTP");
                assertEquals("client-v2 comment", r.getString("log_comment"));
                assertEquals(2, r.getInteger("interface"), "HTTP");
                assertEquals(2, r.getInteger("http_method"), "POST");
            }
        }
    }

    @Test
    void jdbcV2() throws Exception {
        try (Connection c = STUB.connect("clickhouse_setting_log_comment", "jdbc comment"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
            st.execute("SYSTEM FLUSH LOGS");
            try (ResultSet rs = st.executeQuery("SELECT toString(type), http_user_agent, client_name, log_comment, interface FROM system.query_log "
                + "WHERE log_comment = 'jdbc comment' AND query = 'SELECT 1' ORDER BY event_time_microseconds, type")) {
                for (String type : new String[] {"QueryStart", "QueryFinish"}) {
                    assertTrue(rs.next(), type);
                    assertEquals(type, rs.getString(1));
                    assertTrue(rs.getString(2).contains("jdbc-v2/") && rs.getString(2).contains("clickhouse-java-v2/"), rs.getString(2));
                    assertEquals("", rs.getString(3), "no client name over HTTP");
                    assertEquals("jdbc comment", rs.getString(4));
                    assertEquals(2, rs.getInt(5));
                }
            }
        }
    }
}
