package dev.chdedup.stub.golden;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.CaseFile;
import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays every {@code *.case} under {@code src/test/resources/golden/} against an embedded stub over real HTTP,
 * one dynamic test per case, each in a fresh database, exactly as the shared conformance runner replays them
 * against any ClickHouse-compatible server (see {@link CaseFile}).
 */
class GoldenCasesTest {
    private static StubServer server;
    private static ConformanceClient client;

    @BeforeAll
    static void start() throws IOException {
        server = StubServer.builder().port(0).build().start();
        client = new ConformanceClient(server.httpUrl());
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    static Path goldenDir() throws URISyntaxException {
        return Path.of(GoldenCasesTest.class.getResource("/golden").toURI());
    }

    static List<Path> caseFiles() throws IOException, URISyntaxException {
        try (Stream<Path> files = Files.list(goldenDir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().collect(Collectors.toList());
        }
    }

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException, URISyntaxException {
        List<Path> cases = caseFiles();
        assertFalse(cases.isEmpty(), "no golden cases found under " + goldenDir());
        return cases.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), p.toUri(), () -> {
            CaseFile c = CaseFile.read(p);
            assertTrue(c.statements() > 0, "empty case");
            List<String> problems = c.run(client);
            assertTrue(problems.isEmpty(), () -> p.getFileName() + "\n    " + String.join("\n    ", problems));
        }));
    }

    /** The runner itself reports wrong output, a missing error and an unexpected error, so a case can fail. */
    @Test
    void runnerReportsMismatches() {
        CaseFile wrong = CaseFile.parse(String.join("\n",
            "# deliberately wrong",
            "> CREATE TABLE t (k UInt8) ENGINE = MergeTree ORDER BY k",
            "> INSERT INTO t VALUES (1)",
            "> SELECT k, _part FROM t",
            "2\tP1",
            "> SELECT 1",
            "!ERR SYNTAX_ERROR",
            "> SELECT * FROM missing",
            "> SELECT 'never reached'",
            "x"));
        List<String> problems = wrong.run(client);
        assertTrue(problems.size() == 3, () -> String.join("\n", problems));
        assertTrue(problems.get(0).contains("want: [2\tP1]") && problems.get(0).contains("got:  [1\tP1]"), problems.get(0));
        assertTrue(problems.get(1).contains("should fail with SYNTAX_ERROR"), problems.get(1));
        assertTrue(problems.get(2).contains("UNKNOWN_TABLE"), problems.get(2));
    }
}
