package dev.chdedup.it.retry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP proxy in front of the stub that plays an older ClickHouse (21.8, before insert_deduplication_token existed):
 * a request naming one of the {@code unknown} settings in its URL is answered the way such a server answers
 * (404, {@code X-ClickHouse-Exception-Code: 115}, "Code: 115. DB::Exception: Unknown setting ..."), naming the first
 * one; everything else is forwarded unchanged. When the stub drops a connection, the proxy drops its client's too.
 * The stub's own fault {@code FaultRule.error(115)} cannot stand in: its message names no setting.
 */
final class OldServerProxy implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "content-length", "expect", "host", "upgrade", "transfer-encoding",
        "keep-alive", "date");
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String target;
    private final Set<String> unknown;
    /** The setting named by each refusal, in order. */
    private final List<String> refusals = new ArrayList<>();

    private OldServerProxy(String target, Set<String> unknown) throws IOException {
        this.target = target;
        this.unknown = unknown;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    static OldServerProxy start(String targetHttpUrl, Set<String> unknownSettings) throws IOException {
        return new OldServerProxy(targetHttpUrl, unknownSettings);
    }

    /** The official driver's URL of the proxy ({@code jdbc:clickhouse://127.0.0.1:port/default}). */
    String jdbcUrl() {
        return "jdbc:clickhouse://127.0.0.1:" + server.getAddress().getPort() + "/default";
    }

    synchronized List<String> refusals() {
        return List.copyOf(refusals);
    }

    private String firstUnknown(String rawQuery) {
        if (rawQuery == null) {
            return null;
        }
        for (String kv : rawQuery.split("&")) {
            int eq = kv.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
            if (unknown.contains(name)) {
                return name;
            }
        }
        return null;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            URI uri = ex.getRequestURI();
            byte[] body = ex.getRequestBody().readAllBytes();
            String refused = firstUnknown(uri.getRawQuery());
            if (refused != null) {
                synchronized (this) {
                    refusals.add(refused);
                }
                byte[] msg = ("Code: 115. DB::Exception: Unknown setting " + refused + ". (UNKNOWN_SETTING) (version 21.8.15.7 (official"
                    + " build))\n").getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("X-ClickHouse-Exception-Code", "115");
                ex.getResponseHeaders().set("Content-Type", "text/plain; charset=UTF-8");
                ex.sendResponseHeaders(404, msg.length);
                ex.getResponseBody().write(msg);
                return;
            }
            HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(target + uri.getRawPath()
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())))
                .method(ex.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
                if (!HOP_BY_HOP.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                    for (String v : h.getValue()) {
                        forward.header(h.getKey(), v);
                    }
                }
            }
            HttpResponse<byte[]> answer;
            try {
                answer = client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            // an IOException above (the stub dropped the connection) propagates: the HTTP server then drops ours
            for (Map.Entry<String, List<String>> h : answer.headers().map().entrySet()) {
                if (!HOP_BY_HOP.contains(h.getKey().toLowerCase(Locale.ROOT)) && !h.getKey().startsWith(":")) {
                    ex.getResponseHeaders().put(h.getKey(), h.getValue());
                }
            }
            byte[] b = answer.body();
            ex.sendResponseHeaders(answer.statusCode(), b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(b);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
