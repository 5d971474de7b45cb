package dev.chdedup.it.bench;

import dev.chdedup.stub.junit.GeneratedRows;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The storage benchmark: heap and time of one large INSERT and of a full scan, for the stub's jar and, with
 * {@code --reference JAR}, for another build of it (an older commit), each in a child JVM with the same
 * {@code -Xmx}, so the two are compared in one run. Heap is what the child retains after a full GC (read with
 * {@code jcmd GC.heap_info}), once the table is loaded and once it has been scanned. It prints its figures and
 * their ratios; it asserts nothing. Run it with
 * {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.bench.StorageBench
 * [--jar server-stub/target/server-stub.jar] [--reference OLD.jar] [--rows 5000000] [--xmx 512m]}.
 */
public final class StorageBench {
    private static final Pattern USED = Pattern.compile("used (\\d+)K");
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** One jar's figures; a failed step leaves -1 and the error. */
    private record Figures(String jar, double insertSeconds, long heapAfterInsertMb, double scanSeconds, long heapAfterScanMb,
                           String error) {
    }

    public static void main(String[] args) throws Exception {
        String jar = "server-stub/target/server-stub.jar";
        String reference = null;
        long rows = 5_000_000;
        String xmx = "512m";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jar" -> jar = args[++i];
                case "--reference" -> reference = args[++i];
                case "--rows" -> rows = Long.parseLong(args[++i]);
                case "--xmx" -> xmx = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                    + "; use [--jar J] [--reference J] [--rows N] [--xmx SIZE]");
            }
        }
        StorageBench bench = new StorageBench();
        System.out.printf(Locale.ROOT, "StorageBench: INSERT of %,d rows (UInt64, String, Float64) in TabSeparated, then a full scan; -Xmx%s%n",
            rows, xmx);
        Figures current = bench.run(jar, rows, xmx);
        print(current);
        if (reference != null) {
            Figures ref = bench.run(reference, rows, xmx);
            print(ref);
            if (current.error == null && ref.error == null) {
                System.out.printf(Locale.ROOT, "ratios (reference / current): insert time %.2fx, heap after insert %.1fx, scan time %.2fx,"
                        + " heap after scan %.1fx%n", ref.insertSeconds / current.insertSeconds,
                    (double) ref.heapAfterInsertMb / Math.max(1, current.heapAfterInsertMb), ref.scanSeconds / current.scanSeconds,
                    (double) ref.heapAfterScanMb / Math.max(1, current.heapAfterScanMb));
            }
        }
    }

    private static void print(Figures f) {
        System.out.printf(Locale.ROOT, "%-60s insert %6.2f s, heap after insert %5d MB, scan %6.2f s, heap after scan %5d MB%s%n", f.jar,
            f.insertSeconds, f.heapAfterInsertMb, f.scanSeconds, f.heapAfterScanMb, f.error == null ? "" : "  FAILED: " + f.error);
    }

    private Figures run(String jar, long rows, String xmx) throws Exception {
        Path data = Files.createTempDirectory("storage-bench");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx" + xmx, "-jar", jar, "--http-port", "0", "--data-dir", data.toString())
            .redirectErrorStream(true).start();
        try {
            String url = awaitReady(p);
            query(url, "CREATE TABLE big (id UInt64, s String, x Float64) ENGINE = MergeTree ORDER BY id", null);
            long t0 = System.nanoTime();
            String err = query(url, "INSERT INTO big FORMAT TabSeparated", tsv(rows));
            double insert = (System.nanoTime() - t0) / 1e9;
            if (err != null) {
                return new Figures(jar, insert, -1, -1, -1, err);
            }
            long heapInsert = retainedHeapMb(p.pid());
            t0 = System.nanoTime();
            err = query(url, "SELECT count(), sum(id), max(s), sum(x) FROM big", null);
            double scan = (System.nanoTime() - t0) / 1e9;
            return new Figures(jar, insert, heapInsert, scan, retainedHeapMb(p.pid()), err);
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            try (Stream<Path> files = Files.walk(data)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static String awaitReady(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("Ready: ")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }));
                drain.setDaemon(true);
                drain.start();
                return line.substring(7).trim();
            }
        }
        throw new IOException("the stub did not start");
    }

    /** Null on success, else the answer. */
    private String query(String url, String sql, InputStream body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)));
        b.POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofInputStream(() -> body));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? null : r.statusCode() + " " + r.body().trim();
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Rows (id, s, x) generated as they are sent, so the sender holds none. */
    private static InputStream tsv(long rows) {
        return GeneratedRows.lines(rows, i -> i + "\tstr" + i % 1000 + "\t" + i * 0.5);
    }

    /** Heap the child retains after a full GC, in MB, or -1 if jcmd is not available. */
    private static long retainedHeapMb(long pid) throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        if (!Files.isExecutable(Path.of(jcmd))) {
            return -1;
        }
        run(jcmd, Long.toString(pid), "GC.run");
        Matcher m = USED.matcher(run(jcmd, Long.toString(pid), "GC.heap_info"));
        return m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(cmd))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }
}
