package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.chdedup.stub.conformance.CaseFile;
import dev.chdedup.stub.conformance.ConformanceClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared multi-replica conformance cases (conformance/cases/replicated, copied under test resources) replayed by
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
        Path dir = Path.of(ReplicatedConformanceTest.class.getResource("/conformance/replicated").toURI());
        List<Path> cases;
        try (Stream<Path> s = Files.list(dir)) {
            cases = s.filter(p -> p.toString().endsWith(".case")).sorted().toList();
        }
        assertFalse(cases.isEmpty(), "no cases under " + dir);
        List<ConformanceClient> clients = replicas.cluster().httpUrls().stream().map(ConformanceClient::new).toList();
        return cases.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () ->
            assertEquals(List.of(), CaseFile.read(p).run(clients))));
    }
}
