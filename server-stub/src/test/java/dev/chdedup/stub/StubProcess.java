package dev.chdedup.stub;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The stub's command line in a child JVM on the test's class path, for tests that kill it for real (no shutdown
 * hook, no flush) or give it a small heap: started on a free port, ready once it printed its {@code Ready:} line.
 */
public record StubProcess(Process process, String url) {
    public static StubProcess start(Path data, String... jvmOptions) throws Exception {
        return start(data, jvmOptions.length == 0 ? List.of("-Xmx256m") : List.of(jvmOptions), List.of());
    }

    /** A child with JVM options {@code jvm} and command-line options {@code args} besides the port and data directory. */
    public static StubProcess start(Path data, List<String> jvm, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.chdedup.stub.cli.StubMain", "--http-port", "0",
            "--data-dir", data.toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            if (line.startsWith("Ready: ")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }));
                drain.setDaemon(true);
                drain.start();
                return new StubProcess(p, line.substring(7).trim());
            }
        }
        p.destroyForcibly();
        throw new AssertionError("the stub did not start");
    }

    /** SIGKILL, and wait for the process to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
