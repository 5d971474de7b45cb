package dev.chdedup.it.journal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM started with the test's own classpath running one main class, whose stdout and stderr lines are
 * collected as they come so that a test can wait (with a deadline) for a line and then kill the process with
 * SIGKILL ({@link Process#destroyForcibly()}), as a crash would.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final Thread[] drains = new Thread[2];

    private ChildJvm(Process process) {
        this.process = process;
        drains[0] = drain(process.getInputStream(), out);
        drains[1] = drain(process.getErrorStream(), err);
    }

    static ChildJvm start(Class<?> main, List<String> jvmArgs, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xshare:auto");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(cmd).start());
    }

    private Thread drain(InputStream in, List<String> into) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (this) {
                        into.add(line);
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process died: what was read stays
            }
        }, "child-drain");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits until stdout (or stderr) holds {@code n} lines matching {@code p}; fails at the deadline or if the child exits first. */
    synchronized void await(boolean stderr, Predicate<String> p, int n, long timeoutMillis, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (count(stderr ? err : out, p) < n) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0 || !process.isAlive() && drainsDone()) {
                throw new AssertionError("child never showed " + what + " (alive " + process.isAlive() + ")\nstdout: " + out
                    + "\nstderr: " + String.join("\n", err));
            }
            wait(Math.min(left, 50));
        }
    }

    /** How many lines of stdout (or stderr) so far match {@code p}. */
    synchronized int count(boolean stderr, Predicate<String> p) {
        return count(stderr ? err : out, p);
    }

    private boolean drainsDone() {
        return !drains[0].isAlive() && !drains[1].isAlive();
    }

    private static int count(List<String> lines, Predicate<String> p) {
        int n = 0;
        for (String l : lines) {
            if (p.test(l)) {
                n++;
            }
        }
        return n;
    }

    /** SIGKILL, then waits for the process to be gone and its output read. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("child did not die");
        }
        for (Thread t : drains) {
            t.join(10_000);
        }
    }

    synchronized List<String> stdout() {
        return List.copyOf(out);
    }

    synchronized List<String> stderr() {
        return List.copyOf(err);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
