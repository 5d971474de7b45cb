package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.ConformanceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A cluster extension built with {@code emulate("18.16")}: every replica plays that release, not only the first. */
class StubClusterExtensionEmulateTest {
    @RegisterExtension
    static StubClusterExtension old = StubClusterExtension.builder().replicas(2).emulate("18.16").build();

    @Test
    void everyReplicaPlaysTheRelease() {
        for (String url : old.httpUrls()) {
            ConformanceClient c = new ConformanceClient(url);
            assertEquals("18.16.1\n", c.query("SELECT version()"), url);
            // 18.16 has no insert_deduplication_token: Code 115, in its own error format
            String body = c.send("SELECT 1", java.util.Map.of("insert_deduplication_token", "t")).body();
            assertTrue(body.startsWith("Code: 115, e.displayText() = DB::Exception: Unknown setting insert_deduplication_token"), url + ": " + body);
        }
    }
}
