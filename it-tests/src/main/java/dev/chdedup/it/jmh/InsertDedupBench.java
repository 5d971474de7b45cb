package dev.chdedup.it.jmh;

import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Insert throughput of the stub with deduplication on (a table with a window of 1,000 blocks: every block is
 * hashed, looked up and recorded) against off (window 0), in one run: each invocation inserts {@link #BLOCKS}
 * distinct blocks of {@link #ROWS} TabSeparated rows over HTTP. The ratio of the two is what matters; absolute figures depend on
 * the machine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InsertDedupBench {
    static final int BLOCKS = 20;
    static final int ROWS = 1_000;

    @Param({"off", "on"})
    public String dedup;

    private StubServer server;
    private HttpClient http;
    private long sequence;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        server = StubServer.builder().port(0).build().start();
        http = HttpClient.newHttpClient();
        String window = dedup.equals("on") ? "1000" : "0";
        post("CREATE TABLE bench (id UInt64, s String, t DateTime) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = "
            + window, null);
    }

    /** A block of distinct rows, so that deduplication keeps every block and both runs write the same data. */
    private byte[] nextBlock() {
        long base = sequence++ * ROWS;
        StringBuilder sb = new StringBuilder(ROWS * 40);
        for (long i = base; i < base + ROWS; i++) {
            sb.append(i).append("\trow-").append(i).append("\t2024-01-01 00:00:00\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void post(String query, byte[] data) throws IOException, InterruptedException {
        String url = server.httpUrl() + "/?query=" + java.net.URLEncoder.encode(query, StandardCharsets.UTF_8);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url))
            .POST(data == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(data)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(r.body());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        server.close();
    }

    @Benchmark
    public void insertBlocks() throws Exception {
        for (int b = 0; b < BLOCKS; b++) {
            post("INSERT INTO bench FORMAT TabSeparated", nextBlock());
        }
    }
}
