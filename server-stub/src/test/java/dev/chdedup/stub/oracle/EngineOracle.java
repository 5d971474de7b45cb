package dev.chdedup.stub.oracle;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real ClickHouse engine as a test oracle: chDB (ClickHouse 26.7 as a library, the npm package {@code chdb} 3.4.0)
 * driven through {@code oracle/chdb_lines.js} in a Node child process, one statement per line. Where it lives:
 * the system property {@code chdb.modules} or the environment variable {@code CHDB_NODE_MODULES} (a node_modules
 * directory holding chdb), else {@code /tmp/chdb-oracle/node_modules} (what {@code .ci/run} installs:
 * {@code npm install --prefix /tmp/chdb-oracle chdb@3.4.0}). {@link #start} says why when it cannot run, so a test
 * skips itself saying so.
 */
public final class EngineOracle implements AutoCloseable {
    /** The outcome of one statement: its TabSeparated output, or the engine's error text. */
    public record Answer(String output, String error) {
        public boolean ok() {
            return error == null;
        }

        /** The error's code and name ({@code Code: N} and the last {@code (NAME)} of ClickHouse's text), or null. */
        public String errorName() {
            if (error == null) {
                return null;
            }
            java.util.regex.Matcher code = java.util.regex.Pattern.compile("Code: (\\d+)").matcher(error);
            java.util.regex.Matcher name = java.util.regex.Pattern.compile("\\(([A-Z][A-Z_0-9]+)\\)").matcher(error);
            String last = null;
            while (name.find()) {
                last = name.group(1);
            }
            return (code.find() ? code.group(1) + " " : "") + (last != null ? last : error.strip());
        }
    }

    private final Process process;
    private final BufferedWriter in;
    private final BufferedReader out;
    private final String version;

    private EngineOracle(Process process, BufferedWriter in, BufferedReader out, String version) {
        this.process = process;
        this.in = in;
        this.out = out;
        this.version = version;
    }

    /** Where chDB's node_modules are, or null. */
    static Path modules() {
        String p = System.getProperty("chdb.modules", System.getenv("CHDB_NODE_MODULES"));
        Path dir = p != null && !p.isBlank() ? Path.of(p) : Path.of("/tmp/chdb-oracle/node_modules");
        return Files.isDirectory(dir.resolve("chdb")) ? dir : null;
    }

    /** Starts the engine; throws {@link Unavailable} saying why it cannot run here. */
    public static EngineOracle start() throws Unavailable {
        Path modules = modules();
        if (modules == null) {
            throw new Unavailable("chdb is not installed (npm install --prefix /tmp/chdb-oracle chdb@3.4.0, or set CHDB_NODE_MODULES)");
        }
        try {
            Path script = Files.createTempFile("chdb_lines", ".js");
            script.toFile().deleteOnExit();
            try (InputStream s = EngineOracle.class.getResourceAsStream("/oracle/chdb_lines.js")) {
                Files.write(script, s.readAllBytes());
            }
            ProcessBuilder pb = new ProcessBuilder("node", script.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("NODE_PATH", modules.toString());
            Process p = pb.start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            BufferedWriter in = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8));
            String first = out.readLine();
            if (first == null || !first.startsWith("READY ")) {
                p.destroyForcibly();
                throw new Unavailable("the engine did not start: " + (first == null ? "no answer" : decode(first.substring(first.indexOf(' ') + 1))));
            }
            return new EngineOracle(p, in, out, decode(first.substring(6)));
        } catch (IOException e) {
            throw new Unavailable("cannot run node: " + e.getMessage());
        }
    }

    /** Why the engine cannot run here. */
    public static final class Unavailable extends Exception {
        Unavailable(String why) {
            super(why);
        }
    }

    public String version() {
        return version;
    }

    /** Runs {@code sql} with {@code settings} (for this statement only) in {@code database}. */
    public synchronized Answer query(String sql, Map<String, String> settings, String database) throws IOException {
        StringBuilder req = new StringBuilder("{\"sql\":").append(json(sql)).append(",\"settings\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            req.append(first ? "" : ",").append(json(e.getKey())).append(':').append(json(e.getValue()));
            first = false;
        }
        req.append('}');
        if (database != null) {
            req.append(",\"database\":").append(json(database));
        }
        in.write(req.append("}\n").toString());
        in.flush();
        String line = out.readLine();
        if (line == null) {
            throw new IOException("the engine process ended");
        }
        String body = decode(line.substring(line.indexOf(' ') + 1));
        return line.startsWith("OK ") ? new Answer(body, null) : new Answer(null, body);
    }

    private static String decode(String b64) {
        return new String(Base64.getDecoder().decode(b64.trim()), StandardCharsets.UTF_8);
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    @Override
    public void close() {
        try {
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
