package dev.chdedup.stub.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An application's migrations and queries as its services send them (a resource under {@code application/}, one
 * statement per line, {@code --} lines are comments) and the engine's answers to them ({@code <name>.answers}, one
 * line per statement: the answer as {@link dev.chdedup.stub.exec.EngineAnswers#asRecorded} writes it, escaped to one
 * line), recorded by {@link RecordApplicationAnswers}.
 */
final class ApplicationScript {
    private ApplicationScript() {
    }

    static List<String> statements(String name) throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : resource("/application/" + name + ".sql").split("\n")) {
            if (!l.isBlank() && !l.startsWith("--")) {
                out.add(l);
            }
        }
        return out;
    }

    static List<String> answers(String name) throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : resource("/application/" + name + ".answers").split("\n", -1)) {
            out.add(unescape(l));
        }
        if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    private static String resource(String path) throws IOException {
        try (InputStream in = ApplicationScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("no resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** An engine answer in the recorded form: its output without the last newline, or {@code Code: N NAME}. */
    static String recorded(EngineOracle.Answer a) {
        if (!a.ok()) {
            return "Code: " + a.errorName();
        }
        String out = a.output();
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t");
    }

    static String unescape(String s) {
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
