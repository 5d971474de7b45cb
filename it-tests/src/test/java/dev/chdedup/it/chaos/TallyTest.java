package dev.chdedup.it.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's grouping of failures: two failures that differ only in tokens, query ids and numbers count as one reason. */
class TallyTest {
    @Test
    void failuresAreGroupedByTheirLastErrorWithoutIdsAndNumbers() {
        Tally t = new Tally();
        t.failed(false, "INSERT gave up after 15 attempt(s) with insert_deduplication_token 'a1b2c3d4-0000-4000-8000-000000000001'."
            + " Last error: Query request failed (attempt: 1, duration: 0ms, queryId: 5d8e2a90-1111-4111-8111-111111111111)");
        t.failed(false, "INSERT gave up after 3 attempt(s) with insert_deduplication_token 'ffffffff-0000-4000-8000-000000000002'."
            + " Last error: Query request failed (attempt: 1, duration: 12ms, queryId: 00000000-2222-4222-8222-222222222222)");
        t.failed(true, "no replica gave a connection");
        assertEquals(Map.of("nothing written, Query request failed (attempt: N, duration: Nms, queryId: <id>)", 2,
            "outcome unknown, no replica gave a connection", 1), t.reasons());
        assertEquals(3, t.failed());
        assertEquals(1, t.failedUnknown());
    }
}
