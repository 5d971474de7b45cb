package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.chdedup.stub.conformance.CaseFile;
import dev.chdedup.stub.conformance.CaseRunner;
import dev.chdedup.stub.conformance.ConformanceClient;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared multi-replica conformance cases (conformance/cases/replicated, copied under conformance/replicated in the jar) replayed by
 * the Java CaseRunner's CaseFile against a three-replica StubCluster, as run.py does with three --url options.
 */
class ReplicatedConformanceTest {
    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).build();

    static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    @TestFactory
    Stream<DynamicTest> replicatedCases() throws Exception {
        Map<String, CaseFile> cases = CaseRunner.replicatedCases();
        assertFalse(cases.isEmpty(), "no replicated cases");
        List<ConformanceClient> clients = replicas.cluster().httpUrls().stream().map(ConformanceClient::new).toList();
        return cases.entrySet().stream().map(c -> DynamicTest.dynamicTest(c.getKey(), () -> assertEquals(List.of(), c.getValue().run(clients))));
    }
}
