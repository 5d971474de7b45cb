package dev.chdedup.stub.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line in a child JVM with a small heap, and OutOfMemoryError: a query that runs out of memory fails
 * alone and the server keeps serving; an OutOfMemoryError that kills any other thread halts the process with a
 * message (exit code 3) instead of leaving a zombie that accepts connections and never answers.
 */
class StubMainTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The command line, plus: a line on stdin kills a background thread with an OutOfMemoryError. */
    public static final class ChildWithDyingThread {
        public static void main(String[] args) throws Exception {
            Thread cli = new Thread(() -> StubMain.main(args), "cli");
            cli.start();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            new Thread(() -> {
                throw new OutOfMemoryError("injected");
            }, "background").start();
            cli.join();
        }
    }

    private static Process start(Path dir, Class<?> main) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
            "-cp", System.getProperty("java.class.path"), main.getName(), "--http-port", "0", "--data-dir", dir.resolve("data").toString());
        pb.redirectError(dir.resolve("stderr.txt").toFile());
        return pb.start();
    }

    private static String ready(Process p, Path dir) throws Exception {
        String ready = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertNotNull(ready, "no Ready line: " + Files.readString(dir.resolve("stderr.txt")));
        assertTrue(ready.startsWith("Ready: "), ready);
        return ready.substring("Ready: ".length());
    }

    private static HttpResponse<String> post(String url, String sql) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url + "/")).timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aQueryThatRunsOutOfMemoryFailsAloneAndTheServerKeepsServing(@TempDir Path dir) throws Exception {
        Process p = start(dir, StubMain.class);
        try {
            String url = ready(p, dir);
            HttpResponse<String> oom = post(url, "SELECT length(groupArray(number)) FROM (SELECT number FROM system.numbers LIMIT 100000000)");
            assertEquals(500, oom.statusCode(), oom.body());
            assertTrue(oom.body().contains("(MEMORY_LIMIT_EXCEEDED)"), oom.body());
            assertEquals(200, post(url, "CREATE TABLE t (k Int32) ENGINE = MergeTree ORDER BY k").statusCode());
            assertEquals(200, post(url, "INSERT INTO t VALUES (1), (2)").statusCode());
            assertEquals("2\n", post(url, "SELECT count() FROM t").body(), "fully serving after the failed query");
            assertTrue(p.isAlive());
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void anOutOfMemoryErrorThatKillsAThreadHaltsTheProcessWithAMessage(@TempDir Path dir) throws Exception {
        Process p = start(dir, ChildWithDyingThread.class);
        try {
            String url = ready(p, dir);
            assertEquals("1\n", post(url, "SELECT 1").body());
            p.getOutputStream().write('\n');
            p.getOutputStream().flush();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the process still runs after a thread died of OutOfMemoryError");
            assertEquals(3, p.exitValue());
            List<String> lines = Files.readAllLines(dir.resolve("stderr.txt"));
            assertTrue(lines.stream().anyMatch(l -> l.equals("Fatal error, the stub server exits: java.lang.OutOfMemoryError: injected")),
                String.join("\n", lines));
        } finally {
            p.destroyForcibly();
        }
    }
}
