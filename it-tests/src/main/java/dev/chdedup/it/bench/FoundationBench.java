package dev.chdedup.it.bench;

import dev.chdedup.stub.server.StubServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;

/**
 * The foundation benchmark: how fast the stub (or any ClickHouse at {@code --url}) takes single-row INSERTs over
 * one keep-alive connection, through plain HTTP and through the official JDBC driver, how fast it takes one bulk
 * INSERT in TabSeparated and in RowBinary, and how fast it returns a full scan. It prints its figures; it asserts
 * nothing. Run it with
 * {@code java -cp "it-tests/target/classes:$(cat it-tests/target/classpath.txt)" dev.chdedup.it.bench.FoundationBench
 * [--url http://host:8123] [--single 2000] [--bulk 1000000]}.
 */
public final class FoundationBench {
    private static final long BASE_EPOCH = 1_700_000_000L;
    /** The single-row clients take turns in this many rounds, so that background load hits all of them alike. */
    private static final int ROUNDS = 10;
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private final String httpUrl;
    private final String jdbcUrl;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private FoundationBench(String httpUrl) {
        this.httpUrl = httpUrl;
        URI u = URI.create(httpUrl);
        this.jdbcUrl = "jdbc:clickhouse://" + u.getHost() + ":" + u.getPort() + "/default";
    }

    public static void main(String[] args) throws Exception {
        String url = null;
        int single = 2_000;
        int bulk = 1_000_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> url = args[++i];
                case "--single" -> single = Integer.parseInt(args[++i]);
                case "--bulk" -> bulk = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; use [--url U] [--single N] [--bulk N]");
            }
        }
        StubServer stub = url == null ? StubServer.builder().port(0).build().start() : null;
        try {
            FoundationBench bench = new FoundationBench(url != null ? url : stub.httpUrl());
            bench.run(single, bulk, stub != null);
        } finally {
            if (stub != null) {
                stub.close();
            }
        }
    }

    private void run(int single, int bulk, boolean embedded) throws Exception {
        System.out.printf("FoundationBench: %s %s (server version %s), java %s, %d cores%n", embedded ? "embedded stub" : "server",
            httpUrl, scalar("SELECT version()"), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        for (String t : new String[] {"bench_urlconnection", "bench_httpclient", "bench_jdbc", "bench_bulk_tsv", "bench_bulk_rowbinary"}) {
            exec("DROP TABLE IF EXISTS " + t);
        }
        singleRowInserts(single);

        System.out.printf("%nbulk INSERT of %,d rows (k UInt64, s String, t DateTime) in one POST%n", bulk);
        for (String t : new String[] {"bench_bulk_tsv", "bench_bulk_rowbinary"}) {
            exec("CREATE TABLE " + t + " (k UInt64, s String, t DateTime) ENGINE = MergeTree ORDER BY k");
        }
        byte[] tsv = tabSeparated(bulk);
        byte[] rowBinary = rowBinary(bulk);
        bulkInsert("TabSeparated", "bench_bulk_tsv", tsv, bulk);
        bulkInsert("RowBinary", "bench_bulk_rowbinary", rowBinary, bulk);

        System.out.printf("%nfull scan of the RowBinary table%n");
        scanHttp("bench_bulk_rowbinary", bulk, rowBinary.length);
        scanJdbc("bench_bulk_rowbinary", bulk);
    }

    /**
     * Single-row INSERTs from three clients, each over its own keep-alive connection into its own table: warmed up,
     * then taking turns so that whatever else the machine does slows all three alike.
     */
    private void singleRowInserts(int single) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement st = c.createStatement()) {
            Inserter[] clients = {
                new Inserter("raw HTTP (HttpURLConnection) ", "bench_urlconnection", this::insertUrlConnection),
                new Inserter("raw HTTP (java.net.http)     ", "bench_httpclient", this::insertHttpClient),
                new Inserter("JDBC (clickhouse-jdbc 0.10.0)", "bench_jdbc", sql -> {
                    if (st.executeUpdate(sql) != 1) {
                        throw new IllegalStateException("the driver reported another row count for " + sql);
                    }
                })};
            int warmup = Math.max(2_000, single);
            for (Inserter client : clients) {
                exec("CREATE TABLE " + client.table + " (id UInt64, s String, t DateTime) ENGINE = MergeTree ORDER BY id");
                client.run(0, warmup, null);
                exec("TRUNCATE TABLE " + client.table);
            }
            System.out.printf("%nsingle-row INSERT x%,d into MergeTree, sequential, one keep-alive connection per client "
                + "(%,d warm-up inserts each; the clients take turns in %d rounds)%n", single, warmup, ROUNDS);
            long[][] lat = new long[clients.length][single];
            long[] wall = new long[clients.length];
            int perRound = (single + ROUNDS - 1) / ROUNDS;
            for (int round = 0, done = 0; done < single; round++, done += perRound) {
                int n = Math.min(perRound, single - done);
                for (int k = 0; k < clients.length; k++) {
                    int which = (round + k) % clients.length;
                    wall[which] += clients[which].run(done, n, lat[which]);
                }
            }
            Latencies[] results = new Latencies[clients.length];
            for (int k = 0; k < clients.length; k++) {
                results[k] = new Latencies(lat[k], wall[k]);
                System.out.println("  " + clients[k].name + " " + results[k]);
                check("SELECT count() FROM " + clients[k].table, single);
            }
            Latencies raw = results[0];
            Latencies jdbc = results[2];
            System.out.printf(Locale.ROOT, "  ratio JDBC / raw HTTP (HttpURLConnection): throughput %.2fx, p50 latency %.2fx, p99 latency %.2fx%n",
                jdbc.perSecond() / raw.perSecond(), jdbc.p50() / raw.p50(), jdbc.p99() / raw.p99());
        }
    }

    /** Latencies in nanoseconds of n operations, and the wall time they took together. */
    record Latencies(long[] nanos, long totalNanos) {
        double perSecond() {
            return nanos.length / (totalNanos / 1e9);
        }

        double p50() {
            return percentile(0.50);
        }

        double p99() {
            return percentile(0.99);
        }

        /** Nearest-rank percentile, in milliseconds. */
        double percentile(double p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(p * sorted.length);
            return sorted[Math.max(0, rank - 1)] / 1e6;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, ": %,d inserts in %.2f s = %,.0f inserts/s   p50 %.3f ms  p99 %.3f ms  max %.3f ms",
                nanos.length, totalNanos / 1e9, perSecond(), p50(), p99(), percentile(1.0));
        }
    }

    /** A client that sends one single-row INSERT at a time, with its own table. */
    private static final class Inserter {
        final String name;
        final String table;
        final SqlSender sender;

        Inserter(String name, String table, SqlSender sender) {
            this.name = name;
            this.table = table;
            this.sender = sender;
        }

        /** Inserts rows first..first+n-1, recording each latency into {@code lat} (if given); returns the wall time. */
        long run(int first, int n, long[] lat) throws Exception {
            long start = System.nanoTime();
            for (int i = first; i < first + n; i++) {
                String sql = insertSql(table, i);
                long t0 = System.nanoTime();
                sender.send(sql);
                if (lat != null) {
                    lat[i] = System.nanoTime() - t0;
                }
            }
            return System.nanoTime() - start;
        }
    }

    private interface SqlSender {
        void send(String sql) throws Exception;
    }

    /**
     * One POST through HttpURLConnection: blocking, and its keep-alive cache reuses one socket. The body is buffered
     * (no streaming mode), so headers and body leave in one write; in streaming mode they are two writes and Nagle's
     * algorithm holds the body back until the server acknowledges the headers (about 1.5 ms per request here).
     */
    private void insertUrlConnection(String sql) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(httpUrl + "/").toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        try (var out = c.getOutputStream()) {
            out.write(sql.getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        try (InputStream in = status == 200 ? c.getInputStream() : c.getErrorStream()) {
            byte[] body = in.readAllBytes();
            if (status != 200) {
                throw new IllegalStateException("insert failed: " + status + " " + new String(body, StandardCharsets.UTF_8));
            }
        }
    }

    /** One POST through java.net.http's HttpClient (HTTP/1.1; its pool keeps the connection). */
    private void insertHttpClient(String sql) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(httpUrl + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("insert failed: " + r.statusCode() + " " + r.body());
        }
    }

    private static String insertSql(String table, int i) {
        return "INSERT INTO " + table + " VALUES (" + i + ", 'row-" + i + "', " + (BASE_EPOCH + i) + ")";
    }

    private void bulkInsert(String format, String table, byte[] body, int rows) throws IOException, InterruptedException {
        String q = enc("INSERT INTO " + table + " FORMAT " + format);
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(httpUrl + "/?query=" + q))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        long nanos = System.nanoTime() - t0;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(format + " insert failed: " + r.statusCode() + " " + r.body());
        }
        System.out.printf(Locale.ROOT, "  %-13s (%5.1f MB): %.2f s = %,.0f rows/s (%.1f MB/s)%n", format, body.length / 1e6, nanos / 1e9,
            rows / (nanos / 1e9), body.length / 1e6 / (nanos / 1e9));
        check("SELECT count() FROM " + table, rows);
    }

    private void scanHttp(String table, int rows, long expectedBytes) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(httpUrl + "/"))
            .POST(HttpRequest.BodyPublishers.ofString("SELECT * FROM " + table + " FORMAT RowBinary")).build(),
            HttpResponse.BodyHandlers.ofInputStream());
        long bytes = 0;
        try (InputStream in = r.body()) {
            byte[] buf = new byte[1 << 16];
            for (int k; (k = in.read(buf)) > 0; ) {
                bytes += k;
            }
        }
        long nanos = System.nanoTime() - t0;
        if (r.statusCode() != 200 || bytes != expectedBytes) {
            throw new IllegalStateException("scan failed: status " + r.statusCode() + ", " + bytes + " bytes, expected " + expectedBytes);
        }
        System.out.printf(Locale.ROOT, "  HTTP SELECT * FORMAT RowBinary: %,d rows, %.1f MB in %.2f s = %,.0f rows/s%n", rows, bytes / 1e6,
            nanos / 1e9, rows / (nanos / 1e9));
    }

    private void scanJdbc(String table, int rows) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement st = c.createStatement()) {
            long t0 = System.nanoTime();
            long n = 0;
            long sum = 0;
            try (ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
                while (rs.next()) {
                    sum += rs.getLong(1) + rs.getString(2).length();
                    n++;
                }
            }
            long nanos = System.nanoTime() - t0;
            if (n != rows || sum == 0) {
                throw new IllegalStateException("JDBC scan read " + n + " rows");
            }
            System.out.printf(Locale.ROOT, "  JDBC executeQuery (getLong, getString): %,d rows in %.2f s = %,.0f rows/s%n", n, nanos / 1e9,
                n / (nanos / 1e9));
        }
    }

    /** {@code rows} rows of (k UInt64, s String, t DateTime) in TabSeparated: k = i, s = 'row-i', t = a fixed epoch + i. */
    public static byte[] tabSeparated(int rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(rows * 36);
        StringBuilder line = new StringBuilder(64);
        for (int i = 0; i < rows; i++) {
            line.setLength(0);
            line.append(i).append("\trow-").append(i).append('\t')
                .append(DATE_TIME.format(LocalDateTime.ofEpochSecond(BASE_EPOCH + i, 0, ZoneOffset.UTC))).append('\n');
            byte[] b = line.toString().getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
        }
        return out.toByteArray();
    }

    /** The same rows as {@link #tabSeparated} in RowBinary. */
    public static byte[] rowBinary(int rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(rows * 24);
        for (int i = 0; i < rows; i++) {
            writeLe(out, i, 8);
            byte[] s = ("row-" + i).getBytes(StandardCharsets.UTF_8);
            out.write(s.length);
            out.write(s, 0, s.length);
            writeLe(out, BASE_EPOCH + i, 4);
        }
        return out.toByteArray();
    }

    private static void writeLe(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }

    private String scalar(String sql) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(httpUrl + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(sql + " failed: " + r.statusCode() + " " + r.body());
        }
        return r.body().strip();
    }

    private void exec(String sql) throws IOException, InterruptedException {
        scalar(sql);
    }

    private void check(String sql, long expected) throws IOException, InterruptedException {
        String got = scalar(sql);
        if (!got.equals(Long.toString(expected))) {
            throw new IllegalStateException(sql + " returned " + got + ", expected " + expected);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
