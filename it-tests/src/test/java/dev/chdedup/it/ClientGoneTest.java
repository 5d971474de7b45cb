package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.query.GenericRecord;
import com.clickhouse.client.api.query.QuerySettings;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A query whose client has gone, through client-v2 0.10.0: with {@code cancel_http_readonly_queries_on_client_close}
 * and a read-only query (readonly > 0, as GET implies) the stub cancels it once the connection closes, as ClickHouse's
 * HTTP handler does; without the setting it runs on, as there. sleepEachRow is bounded per block
 * ({@code function_sleep_max_microseconds_per_block}), so an endless sleep fails at once instead of running forever.
 */
class ClientGoneTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static Client client;
    /** A client that gives up after a second and drops its connection. */
    private static Client impatient;

    @BeforeAll
    static void connect() {
        client = STUB.clientBuilder().setSocketTimeout(30_000).build();
        impatient = STUB.clientBuilder().setSocketTimeout(1000).setMaxRetries(0).build();
    }

    @AfterAll
    static void close() {
        for (Client c : new Client[] {client, impatient}) {
            if (c != null) {
                c.close();
            }
        }
    }

    private static long running(String queryId) {
        return client.queryAll("SELECT count() AS n FROM system.processes WHERE query_id = '" + queryId + "'").get(0).getLong("n");
    }

    /** Starts an endless read-only query on the impatient client and waits until the client has given up on it. */
    private static void abandon(String queryId, boolean cancelOnClose) throws Exception {
        QuerySettings s = new QuerySettings().setQueryId(queryId).serverSetting("readonly", "2");
        if (cancelOnClose) {
            s.serverSetting("cancel_http_readonly_queries_on_client_close", "1");
        }
        Exception e = assertThrows(Exception.class, () -> impatient.query("SELECT count() FROM system.numbers", s).get(30, TimeUnit.SECONDS));
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof java.net.SocketTimeoutException)) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof java.net.SocketTimeoutException, "the client gave up on a socket timeout: " + e);
    }

    @Test
    void aReadOnlyQueryEndsWhenItsClientHasGone() throws Exception {
        abandon("gone-cancel", true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (running("gone-cancel") > 0) {
            assertTrue(System.nanoTime() < deadline, "the query still runs 10 s after its client went away");
            Thread.sleep(20);
        }
        client.queryAll("SYSTEM FLUSH LOGS");
        List<GenericRecord> log = client.queryAll("SELECT type, exception_code FROM system.query_log"
            + " WHERE query_id = 'gone-cancel' AND type != 'QueryStart'");
        assertEquals(1, log.size());
        assertEquals("ExceptionWhileProcessing", log.get(0).getString("type"));
        assertEquals(394, log.get(0).getInteger("exception_code")); // QUERY_WAS_CANCELLED
    }

    @Test
    void withoutTheSettingTheQueryRunsOnAsInClickHouse() throws Exception {
        abandon("gone-stays", false);
        Thread.sleep(500);
        assertEquals(1, running("gone-stays"), "ClickHouse keeps such a query running");
        client.queryAll("KILL QUERY WHERE query_id = 'gone-stays' SYNC");
        assertEquals(0, running("gone-stays"));
    }

    @Test
    void sleepEachRowIsBoundedPerBlock() {
        ServerException e = QueryParametersTest.serverError(() -> client.queryAll("SELECT sleepEachRow(1) FROM system.numbers"));
        assertEquals(160, e.getCode()); // TOO_SLOW, before any sleep
        assertTrue(e.getMessage().contains("Requested: 65409000000 microseconds per block (of size 65409)"), e.getMessage());
        assertEquals(2, client.queryAll("SELECT sleepEachRow(0.5) FROM system.numbers LIMIT 2").size());
        e = QueryParametersTest.serverError(() -> client.queryAll("SELECT sleepEachRow(0.1) FROM numbers(3)",
            new QuerySettings().serverSetting("function_sleep_max_microseconds_per_block", "200000")));
        assertEquals(160, e.getCode());
        assertEquals(3, client.queryAll("SELECT sleepEachRow(0.1) FROM numbers(3)", new QuerySettings()
            .serverSetting("function_sleep_max_microseconds_per_block", "200000").serverSetting("max_block_size", "2")).size());
    }
}
