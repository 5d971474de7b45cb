package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ClickHouse's own documented examples of its functions, held to the engine's answers. The corpus
 * (functions/examples.tsv) holds every {@code sql title=Query} block of system.functions' examples of 26.7 with what
 * the engine answered to each statement, recorded by tools/record_function_examples.py; this test runs each block on
 * the stub in a fresh database named {@code examples}, as the recording did. A function answers as the engine when every statement of every block does.
 *
 * <p>functions/answered.txt lists the functions the stub answers as the engine; each of them must still do so (a
 * regression fails the test, naming the statement and both answers). The table by category is printed and written to
 * target/function-examples.md with the statements of every function that does not answer yet;
 * {@code -Dfunctions.only=name,name} runs only those functions and {@code -Dfunctions.write=true} rewrites
 * answered.txt with what answers now.
 */
class FunctionExamplesTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Pattern SET = Pattern.compile("(?is)^\\s*SET\\s+(\\w+)\\s*=\\s*(.+?)\\s*$");

    /** One statement of an example, with the engine's answer. */
    record Statement(String sql, String answer) {
    }

    /** A function's examples: its category and its blocks; no blocks when its examples are not deterministic. */
    record Function(String name, String category, List<List<Statement>> blocks) {
        boolean compared() {
            return !blocks.isEmpty();
        }
    }

    @Test
    void documentedExamplesAnswerAsTheEngineDoes() throws Exception {
        Map<String, Function> corpus = corpus();
        String only = System.getProperty("functions.only", "");
        Set<String> chosen = only.isEmpty() ? corpus.keySet() : new TreeSet<>(List.of(only.split(",")));
        Set<String> claimed = answeredList();
        Map<String, String> failures = new TreeMap<>();
        Set<String> answering = new TreeSet<>();
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            for (String name : chosen) {
                Function f = corpus.get(name);
                if (f == null || !f.compared()) {
                    continue;
                }
                StringBuilder diff = new StringBuilder();
                for (List<Statement> block : f.blocks()) {
                    diff.append(runBlock(s, "examples", block));
                }
                if (diff.length() == 0) {
                    answering.add(name);
                } else {
                    failures.put(name, diff.toString());
                }
            }
        }
        String table = table(corpus, chosen, answering);
        System.out.println(table);
        writeReport(table, corpus, failures);
        if (Boolean.getBoolean("functions.write") && only.isEmpty()) {
            Files.writeString(Path.of("src/test/resources/functions/answered.txt"), String.join("\n", answering) + "\n");
        }
        StringBuilder regressions = new StringBuilder();
        for (String name : claimed) {
            if (chosen.contains(name) && failures.containsKey(name)) {
                regressions.append(name).append(":\n").append(failures.get(name));
            }
        }
        Set<String> unlisted = new TreeSet<>(answering);
        unlisted.removeAll(claimed);
        if (!unlisted.isEmpty()) {
            System.out.println("answering as the engine but not in functions/answered.txt: " + unlisted);
        }
        assertEquals("", regressions.toString(), "functions of answered.txt that no longer answer as the engine");
    }

    /** The statements of one block run in a fresh database; the differences from the engine's answers, or "". */
    private static String runBlock(StubServer s, String db, List<Statement> block) throws Exception {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("database", db);
        // the engine recorded them as clickhouse-local runs, where a bare expression (factorial(10)) is a SELECT
        params.put("implicit_select", "1");
        post(s, Map.of(), "CREATE DATABASE " + db);
        StringBuilder diff = new StringBuilder();
        try {
            for (Statement st : block) {
                Matcher set = SET.matcher(st.sql());
                String got;
                if (set.matches() && !set.group(2).contains(",")) {
                    params.put(set.group(1), set.group(2).replaceAll("^'|'$", ""));
                    got = "SET";
                } else {
                    got = post(s, params, st.sql());
                }
                if (!got.equals(st.answer())) {
                    diff.append("  > ").append(st.sql().replace("\n", "\n    ")).append("\n    engine: ")
                        .append(st.answer().replace("\n", "\n            ")).append("\n    stub:   ")
                        .append(got.replace("\n", "\n            ")).append('\n');
                }
            }
        } finally {
            post(s, Map.of(), "DROP DATABASE IF EXISTS " + db + " SYNC");
        }
        return diff.toString();
    }

    private static String post(StubServer s, Map<String, String> params, String sql) throws Exception {
        StringBuilder q = new StringBuilder();
        for (Map.Entry<String, String> p : params.entrySet()) {
            q.append(q.length() == 0 ? "" : "&").append(p.getKey()).append('=')
                .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
        }
        try {
            HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?" + q))
                .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
            return EngineAnswers.asRecorded(r.body());
        } catch (java.net.http.HttpTimeoutException e) {
            return "(no answer in 120 s)";
        }
    }

    /** The answered share by category, as a Markdown table. */
    private static String table(Map<String, Function> corpus, Set<String> chosen, Set<String> answering) {
        Map<String, int[]> byCategory = new TreeMap<>();
        int[] total = new int[2];
        for (String name : chosen) {
            Function f = corpus.get(name);
            if (f == null || !f.compared()) {
                continue;
            }
            int[] c = byCategory.computeIfAbsent(f.category(), k -> new int[2]);
            int ok = answering.contains(name) ? 1 : 0;
            c[0] += ok;
            c[1]++;
            total[0] += ok;
            total[1]++;
        }
        StringBuilder t = new StringBuilder("| category | as the engine | of | share |\n| --- | --- | --- | --- |\n");
        for (Map.Entry<String, int[]> e : byCategory.entrySet()) {
            t.append(row(e.getKey(), e.getValue()));
        }
        return t.append(row("**all**", total)).toString();
    }

    private static String row(String category, int[] c) {
        return String.format("| %s | %d | %d | %.1f%% |%n", category, c[0], c[1], c[1] == 0 ? 0.0 : 100.0 * c[0] / c[1]);
    }

    private static void writeReport(String table, Map<String, Function> corpus, Map<String, String> failures)
            throws IOException {
        StringBuilder r = new StringBuilder("# The documented examples of ClickHouse's functions on the stub\n\n")
            .append(table).append("\n## Not yet as the engine\n");
        Map<String, List<String>> byCategory = new TreeMap<>();
        failures.forEach((name, diff) -> byCategory.computeIfAbsent(corpus.get(name).category(), k -> new ArrayList<>())
            .add("### " + name + "\n```\n" + diff + "```\n"));
        byCategory.forEach((category, list) -> r.append("\n## ").append(category).append("\n").append(String.join("", list)));
        Path out = Path.of("target", "function-examples.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, r.toString());
    }

    /** The corpus, by function name. */
    static Map<String, Function> corpus() throws IOException {
        Map<String, Function> out = new TreeMap<>();
        try (BufferedReader in = reader("functions/examples.tsv")) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isEmpty()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                Function fn = out.computeIfAbsent(f[0], n -> new Function(n, f[1], new ArrayList<>()));
                if (f[2].equals("-")) {
                    continue;
                }
                int block = Integer.parseInt(f[2]);
                while (fn.blocks().size() < block) {
                    fn.blocks().add(new ArrayList<>());
                }
                fn.blocks().get(block - 1).add(new Statement(unescape(f[3]), unescape(f[4])));
            }
        }
        return out;
    }

    private static Set<String> answeredList() throws IOException {
        Set<String> out = new TreeSet<>();
        try (BufferedReader in = reader("functions/answered.txt")) {
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.isBlank()) {
                    out.add(line.trim());
                }
            }
        }
        return out;
    }

    private static BufferedReader reader(String resource) throws IOException {
        InputStream in = FunctionExamplesTest.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IOException("no resource " + resource);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
