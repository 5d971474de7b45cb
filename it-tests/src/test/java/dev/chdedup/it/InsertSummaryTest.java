package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.command.CommandResponse;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.data.ClickHouseFormat;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The X-ClickHouse-Summary of an INSERT as client-v2 reads it: the rows of the request's own data count as read (and
 * as written and the result), as a real ClickHouse reports them, with none to read from tables; an INSERT ... SELECT
 * reads its source's rows and has them to read.
 */
class InsertSummaryTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void anInsertsOwnRowsCountAsRead() throws Exception {
        STUB.scalar("CREATE TABLE summary_t (a UInt8, s String) ENGINE = MergeTree ORDER BY a");
        try (Client client = STUB.newClient()) {
            byte[] json = "{\"a\":1,\"s\":\"x\"}\n{\"a\":2,\"s\":\"y\"}\n{\"a\":3,\"s\":\"z\"}\n{\"a\":4,\"s\":\"w\"}\n{\"a\":5,\"s\":\"v\"}\n"
                .getBytes(StandardCharsets.UTF_8);
            try (InsertResponse r = client.insert("summary_t", new ByteArrayInputStream(json), ClickHouseFormat.JSONEachRow).get()) {
                assertEquals(5, r.getReadRows());
                assertEquals(5, r.getWrittenRows());
                assertEquals(5, r.getResultRows());
                assertTrue(r.getReadBytes() > 0 && r.getReadBytes() == r.getWrittenBytes(), r.getReadBytes() + " " + r.getWrittenBytes());
            }
            try (CommandResponse r = client.execute("INSERT INTO summary_t VALUES (6, 'u'), (7, 't')").get()) {
                assertEquals(2, r.getReadRows());
                assertEquals(2, r.getWrittenRows());
            }
            try (CommandResponse r = client.execute("INSERT INTO summary_t SELECT * FROM summary_t").get()) {
                assertEquals(7, r.getReadRows());
                assertEquals(7, r.getWrittenRows());
            }
        }
    }
}
