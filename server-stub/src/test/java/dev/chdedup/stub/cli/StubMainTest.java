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
 * The command line in a child JVM with a small heap: a query that runs out of memory ends the process with a
 * message (exit code 3) instead of leaving a zombie that accepts connections and never answers.
 */
class StubMainTest {

    @Test
    void outOfMemoryHaltsTheProcessWithAMessage(@TempDir Path dir) throws Exception {
        Path err = dir.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
            "-cp", System.getProperty("java.class.path"), StubMain.class.getName(), "--http-port", "0", "--data-dir", dir.resolve("data").toString());
        pb.redirectError(err.toFile());
        Process p = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertNotNull(ready, "no Ready line: " + Files.readString(err));
            assertTrue(ready.startsWith("Ready: "), ready);
            String url = ready.substring("Ready: ".length());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> one = http.send(HttpRequest.newBuilder(URI.create(url + "/?query=SELECT+1")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("1\n", one.body());
            try {
                http.send(HttpRequest.newBuilder(URI.create(url + "/")).timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(
                    "SELECT length(groupArray(number)) FROM (SELECT number FROM system.numbers LIMIT 100000000)")).build(),
                    HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException expected) {
                // the connection dies with the process
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the process still runs after running out of memory");
            assertEquals(3, p.exitValue());
            List<String> lines = Files.readAllLines(err);
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("Fatal error, the stub server exits: java.lang.OutOfMemoryError")), String.join("\n", lines));
        } finally {
            p.destroyForcibly();
        }
    }
}
