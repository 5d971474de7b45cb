package dev.chdedup.it.real;

import dev.chdedup.it.bench.FoundationBench;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stub against a real ClickHouse in one run: the same HTTP requests, alternating between the two servers round by
 * round (the order flips each round, so the machine's swings hit both alike). Per round and server: sequential
 * single-row INSERTs over one keep-alive connection, a bulk INSERT of (k UInt64, s String, t DateTime) in RowBinary
 * and in TabSeparated, each into a fresh MergeTree table, and a full scan {@code SELECT * FORMAT RowBinary} of the
 * RowBinary table, then the queries tests run most over that table: a range of the sorting key, count(), a GROUP BY of
 * a few keys, ORDER BY with LIMIT, and the full scan in TabSeparated. Both servers must answer each query with the same
 * bytes. Prints the median of each and the ratio stub speed / real speed (above 1: the stub is faster); asserts nothing. The real server is Debian's {@code clickhouse-server} (18.16) where installed, or {@code --url}.
 * Run it (after {@code mvn -o package -DskipTests}) with {@code java -cp
 * "it-tests/target/test-classes:it-tests/target/classes:$(cat it-tests/target/classpath.txt)"
 * dev.chdedup.it.real.ServerSpeedBench [--rounds 5] [--bulk 1000000] [--single 2000] [--url http://127.0.0.1:8123]}.
 */
public final class ServerSpeedBench {
    private static final String[] WORK = {"single-row INSERT", "bulk INSERT RowBinary", "bulk INSERT TabSeparated", "full scan RowBinary",
        "key range RowBinary", "count()", "GROUP BY k % 10", "ORDER BY s DESC LIMIT 1000", "full scan TabSeparated"};
    private final Map<String, String> answers = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final byte[] rowBinary;
    private final byte[] tsv;
    private final int bulk;
    private final int single;

    private ServerSpeedBench(int bulk, int single) {
        this.bulk = bulk;
        this.single = single;
        this.rowBinary = FoundationBench.rowBinary(bulk);
        this.tsv = FoundationBench.tabSeparated(bulk);
    }

    public static void main(String[] args) throws Exception {
        int rounds = 5;
        int bulk = 1_000_000;
        int single = 2_000;
        String url = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--bulk" -> bulk = Integer.parseInt(args[++i]);
                case "--single" -> single = Integer.parseInt(args[++i]);
                case "--url" -> url = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                    + "; use [--rounds N] [--bulk N] [--single N] [--url U]");
            }
        }
        if (url == null && DebianClickHouse.missing() != null) {
            System.out.println("no real ClickHouse here (" + DebianClickHouse.missing() + "); give one with --url");
            return;
        }
        ServerSpeedBench bench = new ServerSpeedBench(bulk, single);
        try (StubServer stub = StubServer.builder().port(0).build().start();
             DebianClickHouse real = url == null ? new DebianClickHouse(1) : null) {
            String realUrl = url != null ? url : real.httpUrl(0);
            bench.run(stub.httpUrl(), realUrl, rounds);
        }
    }

    private void run(String stubUrl, String realUrl, int rounds) throws Exception {
        System.out.printf(Locale.ROOT, "ServerSpeedBench: stub %s vs ClickHouse %s, %,d-row bulk inserts, %,d single-row inserts, "
            + "%d rounds after one warm-up, java %s, %d cores%n", scalar(stubUrl, "SELECT version()"), scalar(realUrl, "SELECT version()"),
            bulk, single, rounds, System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        Map<String, List<Double>> stub = new LinkedHashMap<>();
        Map<String, List<Double>> real = new LinkedHashMap<>();
        for (int r = -1; r < rounds; r++) {
            boolean stubFirst = (r & 1) == 0;
            for (int k = 0; k < 2; k++) {
                boolean isStub = (k == 0) == stubFirst;
                Map<String, Double> got = round(isStub ? stubUrl : realUrl);
                if (r >= 0) {
                    got.forEach((w, s) -> (isStub ? stub : real).computeIfAbsent(w, x -> new ArrayList<>()).add(s));
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-26s %16s %16s %12s%n", "work (median seconds)", "stub", "real", "stub/real");
        for (String w : WORK) {
            double s = median(stub.get(w));
            double c = median(real.get(w));
            System.out.printf(Locale.ROOT, "%-26s %16.3f %16.3f %11.2fx%n", w, s, c, c / s);
        }
    }

    /** One round on one server: the seconds each piece of work took. */
    private Map<String, Double> round(String url) throws Exception {
        Map<String, Double> seconds = new LinkedHashMap<>();
        exec(url, "DROP TABLE IF EXISTS speed_single");
        exec(url, "CREATE TABLE speed_single (id UInt64, s String, t DateTime) ENGINE = MergeTree ORDER BY id");
        long t0 = System.nanoTime();
        for (int i = 0; i < single; i++) {
            exec(url, "INSERT INTO speed_single VALUES (" + i + ", 'row-" + i + "', " + (1_700_000_000L + i) + ")");
        }
        seconds.put(WORK[0], (System.nanoTime() - t0) / 1e9);
        check(url, "speed_single", single);
        seconds.put(WORK[1], bulkInsert(url, "speed_rowbinary", "RowBinary", rowBinary));
        seconds.put(WORK[2], bulkInsert(url, "speed_tsv", "TabSeparated", tsv));
        seconds.put(WORK[3], scan(url, "speed_rowbinary", rowBinary.length));
        String t = "speed_rowbinary";
        seconds.put(WORK[4], query(url, WORK[4], false, "SELECT * FROM " + t + " WHERE k >= " + bulk / 4 + " AND k < " + bulk / 4 * 3 + " FORMAT RowBinary"));
        seconds.put(WORK[5], query(url, WORK[5], true, "SELECT count() FROM " + t));
        seconds.put(WORK[6], query(url, WORK[6], true, "SELECT k % 10 AS g, count(), sum(k), max(s) FROM " + t + " GROUP BY g ORDER BY g"));
        seconds.put(WORK[7], query(url, WORK[7], true, "SELECT * FROM " + t + " ORDER BY s DESC LIMIT 1000 FORMAT RowBinary"));
        seconds.put(WORK[8], query(url, WORK[8], false, "SELECT * FROM " + t + " FORMAT TabSeparated"));
        return seconds;
    }

    private double bulkInsert(String url, String table, String format, byte[] body) throws Exception {
        exec(url, "DROP TABLE IF EXISTS " + table);
        exec(url, "CREATE TABLE " + table + " (k UInt64, s String, t DateTime) ENGINE = MergeTree ORDER BY k");
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/?query=" + enc("INSERT INTO " + table + " FORMAT " + format)))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        double s = (System.nanoTime() - t0) / 1e9;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(format + " insert failed on " + url + ": " + r.statusCode() + " " + r.body());
        }
        check(url, table, bulk);
        return s;
    }

    private double scan(String url, String table, long expectedBytes) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(url + "/"))
            .POST(HttpRequest.BodyPublishers.ofString("SELECT * FROM " + table + " FORMAT RowBinary")).build(),
            HttpResponse.BodyHandlers.ofInputStream());
        long bytes = 0;
        try (InputStream in = r.body()) {
            byte[] buf = new byte[1 << 16];
            for (int k; (k = in.read(buf)) > 0; ) {
                bytes += k;
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        if (r.statusCode() != 200 || bytes != expectedBytes) {
            throw new IllegalStateException("scan failed on " + url + ": status " + r.statusCode() + ", " + bytes + " bytes, expected "
                + expectedBytes);
        }
        return s;
    }

    /**
     * Seconds to run {@code sql} and read its answer, which must be the bytes the other server answered; without ORDER BY
     * ({@code ordered} false) the order of the rows is the server's (a real one reads parts in parallel), and only the
     * size must agree.
     */
    private double query(String url, String work, boolean ordered, String sql) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(url + "/")).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofInputStream());
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        long bytes = 0;
        try (InputStream in = r.body()) {
            byte[] buf = new byte[1 << 16];
            for (int k; (k = in.read(buf)) > 0; ) {
                md.update(buf, 0, k);
                bytes += k;
            }
        }
        double s = (System.nanoTime() - t0) / 1e9;
        String digest = bytes + " bytes" + (ordered ? ", sha-256 " + HexFormat.of().formatHex(md.digest()) : "");
        String other = answers.putIfAbsent(work, digest);
        if (r.statusCode() != 200 || other != null && !other.equals(digest)) {
            throw new IllegalStateException(sql + " on " + url + ": status " + r.statusCode() + ", " + digest + ", the other server: " + other);
        }
        return s;
    }

    private void check(String url, String table, long rows) throws Exception {
        String got = scalar(url, "SELECT count() FROM " + table);
        if (!got.equals(Long.toString(rows))) {
            throw new IllegalStateException(table + " on " + url + " holds " + got + " rows, expected " + rows);
        }
    }

    private String scalar(String url, String sql) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/")).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(sql + " failed on " + url + ": " + r.statusCode() + " " + r.body());
        }
        return r.body().strip();
    }

    private void exec(String url, String sql) throws IOException, InterruptedException {
        scalar(url, sql);
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
