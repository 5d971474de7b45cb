package dev.chdedup.stub.replicated;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.dedup.BlockIds;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The interserver HTTP endpoint that replicas fetch parts through, after ClickHouse's {@code DataPartsExchange}:
 * {@code GET /?endpoint=DataPartsExchange:<replica path>&part=<name>} answers the part's file, or 404 when the
 * replica has no such active part. {@link #fetch} downloads a part from another replica's endpoint and checks it
 * against the checksum that replica stored in ZooKeeper ({@link #checksum}); a mismatch is CHECKSUM_DOESNT_MATCH.
 * Binds to the server's host on a free port.
 */
public final class DataPartsExchange implements AutoCloseable {
    public static final String ENDPOINT_PREFIX = "DataPartsExchange:";
    private static final int TIMEOUT_MS = 10_000;

    private final String host;
    private final ReplicationContext context;
    private HttpServer server;
    private ExecutorService pool;

    DataPartsExchange(String host, ReplicationContext context) {
        this.host = host;
        this.context = context;
    }

    DataPartsExchange start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(host, 0), 16);
        pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "interserver-" + context.replicaName());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
        return this;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The checksum text of a part file, as stored in {@code replicas/<r>/parts/<name>/checksums}. */
    public static String checksum(byte[] file) {
        return "checksums format version: 5\n" + "data.bin\t" + file.length + "\t" + BlockIds.hex(CityHash128.hash128(file)) + "\n";
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            String endpoint = q.getOrDefault("endpoint", "");
            StorageReplicatedMergeTree t = endpoint.startsWith(ENDPOINT_PREFIX)
                ? context.tableByReplicaPath(endpoint.substring(ENDPOINT_PREFIX.length())) : null;
            byte[] body = t == null ? null : t.partFileForFetch(q.getOrDefault("part", ""));
            if (body == null) {
                byte[] msg = ("Code: 232. DB::Exception: No part " + q.get("part") + " in table (NO_SUCH_DATA_PART)\n").getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(404, msg.length);
                ex.getResponseBody().write(msg);
                return;
            }
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw == null) {
            return m;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                m.put(URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return m;
    }

    /** Downloads {@code part} from the replica at {@code host:port}; null when it answers that it has no such part. */
    static byte[] fetch(String host, int port, String replicaPath, String part) throws IOException {
        URI uri = URI.create("http://" + host + ":" + port + "/?endpoint=" + URLEncoder.encode(ENDPOINT_PREFIX + replicaPath, StandardCharsets.UTF_8)
            + "&part=" + URLEncoder.encode(part, StandardCharsets.UTF_8));
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setConnectTimeout(TIMEOUT_MS);
        c.setReadTimeout(TIMEOUT_MS);
        try {
            if (c.getResponseCode() == 404) {
                return null;
            }
            if (c.getResponseCode() != 200) {
                throw new IOException("Fetching " + part + " from " + host + ":" + port + " answered HTTP " + c.getResponseCode());
            }
            try (InputStream in = c.getInputStream()) {
                return in.readAllBytes();
            }
        } finally {
            c.disconnect();
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
            pool.shutdownNow();
        }
    }
}
