package dev.chdedup.stub.replicated;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.dedup.BlockIds;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

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
    private dev.chdedup.stub.http.HttpServer server;

    DataPartsExchange(String host, ReplicationContext context) {
        this.host = host;
        this.context = context;
    }

    DataPartsExchange start() throws IOException {
        server = dev.chdedup.stub.http.HttpServer.builder().host(host).port(0).handler(this::handle).build().start();
        return this;
    }

    public int port() {
        return server.port();
    }

    /** The checksum text of a part file, as stored in {@code replicas/<r>/parts/<name>/checksums}. */
    public static String checksum(byte[] file) {
        return "checksums format version: 5\n" + "data.bin\t" + file.length + "\t" + BlockIds.hex(CityHash128.hash128(file)) + "\n";
    }

    private void handle(dev.chdedup.stub.http.HttpRequest req, dev.chdedup.stub.http.HttpResponse resp) throws IOException {
        String endpoint = req.param("endpoint") == null ? "" : req.param("endpoint");
        String part = req.param("part") == null ? "" : req.param("part");
        StorageReplicatedMergeTree t = endpoint.startsWith(ENDPOINT_PREFIX)
            ? context.tableByReplicaPath(endpoint.substring(ENDPOINT_PREFIX.length())) : null;
        byte[] body = t == null ? null : t.partFileForFetch(part);
        if (body == null) {
            body = ("Code: 232. DB::Exception: No part " + part + " in table (NO_SUCH_DATA_PART)\n").getBytes(StandardCharsets.UTF_8);
            resp.status(404);
        }
        resp.contentType("application/octet-stream").contentLength(body.length);
        resp.body().write(body);
    }

    /** Downloads {@code part} from the replica at {@code host:port}; null when it answers that it has no such part. */
    static byte[] fetch(String host, int port, String replicaPath, String part) throws IOException {
        URI uri = URI.create("http://" + host + ":" + port + "/?endpoint=" + URLEncoder.encode(ENDPOINT_PREFIX + replicaPath, StandardCharsets.UTF_8)
            + "&part=" + URLEncoder.encode(part, StandardCharsets.UTF_8));
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setConnectTimeout(TIMEOUT_MS);
        c.setReadTimeout(TIMEOUT_MS);
        boolean reusable = false;
        try {
            if (c.getResponseCode() == 404) {
                return null;
            }
            if (c.getResponseCode() != 200) {
                throw new IOException("Fetching " + part + " from " + host + ":" + port + " answered HTTP " + c.getResponseCode());
            }
            byte[] body;
            try (InputStream in = c.getInputStream()) {
                body = in.readAllBytes();
            }
            reusable = true;
            return body;
        } finally {
            // a whole answer read leaves the connection to the JDK's keep-alive cache for the next fetch from there
            if (!reusable) {
                c.disconnect();
            }
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
