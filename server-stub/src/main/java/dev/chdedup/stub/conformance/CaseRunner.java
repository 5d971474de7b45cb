package dev.chdedup.stub.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Replays conformance cases against any ClickHouse-compatible HTTP endpoint, the stub or a real server, as the
 * shared {@code run.py} does, and prints {@code N passed, N failed}. Without case files it replays the seed
 * documentation's examples bundled in the jar. {@code java -cp server-stub.jar
 * dev.chdedup.stub.conformance.CaseRunner --url http://127.0.0.1:8123 [CASE_FILE...]}
 */
@Command(name = "case-runner", mixinStandardHelpOptions = true, description = "Replays conformance cases against a ClickHouse HTTP endpoint.")
public final class CaseRunner implements Callable<Integer> {
    /** Where the bundled seed cases are, with an INDEX of their file names. */
    static final String SEED = "/conformance/seed/";
    static final String REPLICATED = "/conformance/replicated/";

    @Option(names = "--url", description = "The server (default: http://127.0.0.1:8123); repeat it for the replicas of a cluster, r1 first.")
    List<String> urls = new ArrayList<>();

    @Parameters(description = "Case files; none replays the bundled seed cases.")
    List<Path> files = new ArrayList<>();

    /** The bundled seed cases, by file name, in order. */
    public static Map<String, CaseFile> seedCases() throws IOException {
        return cases(SEED);
    }

    /** The shared multi-replica cases ({@code @rN} statements), copied from conformance/cases/replicated. */
    public static Map<String, CaseFile> replicatedCases() throws IOException {
        return cases(REPLICATED);
    }

    private static Map<String, CaseFile> cases(String dir) throws IOException {
        Map<String, CaseFile> cases = new LinkedHashMap<>();
        for (String name : read(dir + "INDEX").trim().split("\\s+")) {
            cases.put(name, CaseFile.parse(read(dir + name)));
        }
        return cases;
    }

    private static String read(String resource) throws IOException {
        try (InputStream in = CaseRunner.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Override
    public Integer call() throws IOException {
        Map<String, CaseFile> cases = new LinkedHashMap<>();
        if (files.isEmpty()) {
            cases.putAll(seedCases());
        } else {
            for (Path p : files) {
                cases.put(p.getFileName().toString(), CaseFile.read(p));
            }
        }
        List<ConformanceClient> clients = new ArrayList<>();
        for (String u : urls.isEmpty() ? List.of("http://127.0.0.1:8123") : urls) {
            clients.add(new ConformanceClient(u.endsWith("/") ? u.substring(0, u.length() - 1) : u));
        }
        int passed = 0;
        int failed = 0;
        for (Map.Entry<String, CaseFile> c : cases.entrySet()) {
            List<String> problems = c.getValue().run(clients);
            if (problems.isEmpty()) {
                passed++;
                System.out.println("ok   " + c.getKey());
            } else {
                failed++;
                System.out.println("FAIL " + c.getKey() + "\n    " + String.join("\n    ", problems));
            }
        }
        System.out.println(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CaseRunner()).execute(args));
    }
}
