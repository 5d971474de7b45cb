package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import com.clickhouse.data.value.ClickHouseBitmap;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * groupBitmap states through client-v2, which reads an AggregateFunction(groupBitmap, T) from RowBinary as its
 * ClickHouseBitmap (with RoaringBitmap): small sets and roaring bitmaps, 32 and 64 bits wide, as a server writes them.
 */
class GroupBitmapClientTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void theClientReadsBitmapStates() throws Exception {
        try (Client client = STUB.newClient()) {
            List<GenericRecord> rows = client.queryAll("SELECT groupBitmapState(toUInt32(number * 7)) AS big32,"
                + " groupBitmapState(number * 100000) AS big64, groupBitmap(number) AS n FROM numbers(40)");
            GenericRecord r = rows.get(0);
            assertEquals(40, r.getLong("n"));
            ClickHouseBitmap big32 = (ClickHouseBitmap) r.getObject("big32");
            assertEquals(40, big32.getCardinality());
            ClickHouseBitmap big64 = (ClickHouseBitmap) r.getObject("big64");
            assertEquals(40, big64.getCardinality());
        }
        try (Client client = STUB.newClient()) {
            GenericRecord r = client.queryAll("SELECT groupBitmapState(toUInt32(number)) AS s FROM numbers(5)").get(0);
            ClickHouseBitmap small = (ClickHouseBitmap) r.getObject("s");
            assertEquals(5, small.getCardinality());
        }
    }
}
