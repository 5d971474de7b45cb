package dev.chdedup.stub.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The stub's system tables have the engine's columns: for each table the stub serves, {@code DESCRIBE system.X} is
 * the engine's answer byte for byte (names, types, ALIAS kinds and expressions, comments), recorded from ClickHouse
 * 26.7 (chDB) into {@code src/test/resources/system-describe/X.tsv}; system.columns lists the same names and types;
 * and {@code SELECT *} shows all but the ALIAS columns. query_log, part_log and zookeeper, which the library engine
 * lacks, are held to ClickHouse's source by {@link QueryLogClientTest} and the schema's own file.
 */
class SystemTableColumnsTest {
    /** The tables a server has and the engine as a library does not: nothing of the engine's to compare with. */
    private static final Set<String> SERVER_ONLY = Set.of("query_log", "part_log", "zookeeper");

    private static StubServer server;
    private static ConformanceClient client;

    @BeforeAll
    static void start() throws IOException {
        server = StubServer.builder().port(0).build().start();
        client = new ConformanceClient(server.httpUrl());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    private static List<String> served() {
        List<String> names = new ArrayList<>(Arrays.asList(
            client.query("SELECT name FROM system.tables WHERE database = 'system' ORDER BY name").strip().split("\n")));
        names.removeAll(SERVER_ONLY);
        return names;
    }

    /** The engine's DESCRIBE of {@code table}, as recorded. */
    private static String recorded(String table) throws IOException {
        try (InputStream in = SystemTableColumnsTest.class.getResourceAsStream("/system-describe/" + table + ".tsv")) {
            if (in == null) {
                return "(no recording of system." + table + ")";
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.substring(text.indexOf('\n') + 1);
        }
    }

    @Test
    void everyServedTableWasRecorded() throws IOException {
        Set<String> missing = new TreeSet<>();
        for (String t : served()) {
            if (recorded(t).startsWith("(no recording")) {
                missing.add(t);
            }
        }
        assertEquals(Set.of(), missing);
    }

    @TestFactory
    List<DynamicTest> describeIsTheEngines() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String t : served()) {
            tests.add(DynamicTest.dynamicTest(t, () -> {
                String engine = recorded(t);
                assertEquals(engine, client.query("DESCRIBE system." + t), "DESCRIBE system." + t);
                List<String> names = new ArrayList<>();
                List<String> star = new ArrayList<>();
                StringBuilder nameTypes = new StringBuilder();
                for (String line : engine.split("\n")) {
                    String[] f = line.split("\t", -1);
                    names.add(f[0]);
                    if (!f[2].equals("ALIAS")) {
                        star.add(f[0]);
                    }
                    // system.columns writes a named tuple on one line where DESCRIBE pretty-prints it
                    nameTypes.append(f[0]).append('\t')
                        .append(f[1].replaceAll("\\(\\\\n\\s*", "(").replaceAll(",\\\\n\\s*", ", ")).append('\n');
                }
                assertEquals(nameTypes.toString(), client.query("SELECT name, type FROM system.columns WHERE database = 'system' AND table = '"
                    + t + "' ORDER BY position"), "system.columns of system." + t);
                String header = client.query("SELECT * FROM system." + t + " LIMIT 0 FORMAT TSVWithNames");
                assertEquals(String.join("\t", star), header.strip(), "SELECT * FROM system." + t);
            }));
        }
        return tests;
    }
}
