package dev.chdedup.it.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.it.TemporalRoundTrip;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.ZoneId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Date and time parameters through the driver into the stub playing a current server, 22.1 and 18.16 (which knows no
 * fromUnixTimestamp64Nano and no DateTime64): every value reads back as it was set ({@link TemporalRoundTrip}), and a
 * batch whose acknowledgement is lost is re-sent with the same bytes, so it lands once.
 */
class TemporalParametersTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static String http(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    @ParameterizedTest(name = "{0}, lost acknowledgement {1}")
    @CsvSource({"current, false", "current, true", "22.1, false", "22.1, true", "18.16, false", "18.16, true"})
    void everyDateAndTimeSetterReadsBackAsSet(String version, boolean lostAck) throws Exception {
        try (StubServer s = StubServer.builder().port(0).emulate(version).build().start()) {
            boolean dateTime64 = !version.equals("18.16");
            String t = "temporal_" + (lostAck ? "lost" : "plain");
            http(s, "CREATE TABLE " + t + " (" + TemporalRoundTrip.columns(dateTime64) + ") ENGINE = ReplicatedMergeTree('/clickhouse/tables/01/"
                + t + "', 'r1') ORDER BY row");
            if (lostAck) {
                s.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default." + t).times(1));
            }
            long retries = dev.chdedup.driver.DedupMetrics.INSTANCE.getAmbiguousRetries();
            TemporalRoundTrip.insert("jdbc:dedup:" + s.jdbcUrl().substring("jdbc:".length()) + "?" + RetryFixtures.FAST_RETRY, t, dateTime64);
            if (lostAck) {
                assertEquals(retries + 1, dev.chdedup.driver.DedupMetrics.INSTANCE.getAmbiguousRetries(), "the batch was re-sent once");
            }
            ZoneId zone = ZoneId.of(http(s, "SELECT timezone()").strip());
            assertEquals(TemporalRoundTrip.expected(zone, dateTime64), http(s, TemporalRoundTrip.select(t, dateTime64)));
        }
    }
}
