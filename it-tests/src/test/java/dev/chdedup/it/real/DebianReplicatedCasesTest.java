package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.cluster.StubCluster;
import dev.chdedup.stub.conformance.CaseFile;
import dev.chdedup.stub.conformance.CaseRunner;
import dev.chdedup.stub.conformance.ConformanceClient;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared replicated cases (conformance/cases/replicated: the log, a retry on another replica, a quorum of all
 * replicas, DROP PARTITION and merges) on a real ClickHouse 18.16 of three replicas (Debian's packages) and on three stub
 * replicas playing 18.16, each as 18.16 takes them: settings of {@code INSERT ... SETTINGS} go as URL parameters. Skips
 * where the packages are not installed.
 */
class DebianReplicatedCasesTest {
    private static DebianClickHouse clickhouse;
    private static StubCluster stub;

    @BeforeAll
    static void start() throws Exception {
        clickhouse = DebianClickHouse.startOrSkip(3);
        stub = StubCluster.builder().replicas(3).emulate("18.16").build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(clickhouse, stub);
    }

    @TestFactory
    Stream<DynamicTest> theReplicatedCasesPassOnARealPairAndOnTheStubPlayingIt() throws Exception {
        List<ConformanceClient> real = IntStream.range(0, 3).mapToObj(r -> new ConformanceClient(clickhouse.httpUrl(r))).toList();
        List<ConformanceClient> emulated = stub.httpUrls().stream().map(ConformanceClient::new).toList();
        Map<String, CaseFile> cases = CaseRunner.replicatedCases();
        return cases.entrySet().stream().flatMap(c -> Stream.of(
            DynamicTest.dynamicTest(c.getKey() + " on ClickHouse 18.16", () -> assertEquals(List.of(), c.getValue().run(real, true))),
            DynamicTest.dynamicTest(c.getKey() + " on the stub playing 18.16", () -> assertEquals(List.of(), c.getValue().run(emulated, true)))));
    }
}
