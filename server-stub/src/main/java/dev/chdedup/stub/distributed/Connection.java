package dev.chdedup.stub.distributed;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.format.Formats;
import dev.chdedup.stub.format.NativeBlockInputStream;
import dev.chdedup.stub.format.RowWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One server's connection to another of its cluster, as ClickHouse's {@code Connection} (which speaks the native
 * protocol; the stub speaks its HTTP interface): {@link #query} runs a SELECT there and reads the result in Native
 * with its header, {@link #insert} sends rows as one Native block, {@link #execute} runs a statement. Settings travel
 * as the request's parameters, credentials as ClickHouse's headers; every request waits for the end of its query
 * ({@code wait_end_of_query}), so an error comes whole with its code. Errors are ClickHouse's: the remote one keeps
 * its code with {@code Received from host:port. DB::Exception: ...}; a refused connection is NETWORK_ERROR, a
 * timeout SOCKET_TIMEOUT.
 */
public final class Connection {
    private static final Pattern REMOTE_ERROR = Pattern.compile("(?s)^Code: (\\d+)\\. DB::Exception: (.*?)(?: \\(([A-Z_0-9]+)\\))?(?: \\(version [^)]*\\))?\\s*$");
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();

    private final Cluster.Address address;
    private final Duration connectTimeout;
    private final Duration receiveTimeout;

    public Connection(Cluster.Address address, Duration connectTimeout, Duration receiveTimeout) {
        this.address = address;
        this.connectTimeout = connectTimeout;
        this.receiveTimeout = receiveTimeout;
    }

    public Cluster.Address address() {
        return address;
    }

    /** The result of a query: its columns and blocks. */
    public record Result(List<Column> columns, List<Block> blocks) {
    }

    /** Runs {@code sql} (without a FORMAT clause) there and reads its whole result. */
    public Result query(String sql, Map<String, String> settings) {
        Map<String, String> params = new LinkedHashMap<>(settings);
        params.put("default_format", "Native");
        HttpResponse<InputStream> r = send(params, HttpRequest.BodyPublishers.ofString(sql));
        try (InputStream in = r.body()) {
            List<Block> blocks = new NativeBlockInputStream(in).readAll();
            List<Column> columns = blocks.isEmpty() ? List.of() : blocks.get(0).columns();
            return new Result(columns, blocks);
        } catch (IOException e) {
            throw new ChException(ErrorCode.NETWORK_ERROR, "Cannot read the answer of " + address.hostPort() + ": " + e.getMessage(), e);
        }
    }

    /** Runs a statement that answers nothing needed (DDL, SYSTEM, INSERT SELECT). */
    public void execute(String sql, Map<String, String> settings) {
        drain(send(settings, HttpRequest.BodyPublishers.ofString(sql)));
    }

    /**
     * Sends {@code rows} of {@code columns} to {@code table} (a qualified, quoted name) as one Native block: {@code
     * INSERT INTO table (columns) FORMAT Native}, with {@code settings} (the insert's own, its token included).
     */
    public void insert(String table, List<Column> columns, List<Object[]> rows, Map<String, String> settings) {
        insertEncoded(table, columns, nativeBlock(columns, rows), settings);
    }

    /** {@code rows} of {@code columns} as one block in Native, with its header. */
    public static byte[] nativeBlock(List<Column> columns, List<Object[]> rows) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            RowWriter w = Formats.openOutput("Native", body, columns, null);
            w.writeRowBlock(rows);
            w.finish();
        } catch (IOException e) {
            throw new ChException(ErrorCode.LOGICAL_ERROR, "Cannot serialize a block in Native: " + e.getMessage(), e);
        }
        return body.toByteArray();
    }

    /** As {@link #insert}, with the rows already in Native (a queued file's block, sent byte for byte). */
    public void insertEncoded(String table, List<Column> columns, byte[] nativeBody, Map<String, String> settings) {
        StringBuilder q = new StringBuilder("INSERT INTO ").append(table).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            q.append(i == 0 ? "" : ", ").append(quote(columns.get(i).name()));
        }
        q.append(") FORMAT Native");
        Map<String, String> params = new LinkedHashMap<>(settings);
        params.put("query", q.toString());
        drain(send(params, HttpRequest.BodyPublishers.ofByteArray(nativeBody)));
    }

    /** A name in backquotes, as ClickHouse quotes an identifier it must. */
    public static String quote(String name) {
        return dev.chdedup.stub.sql.ExpressionFormatter.backQuote(name);
    }

    private HttpResponse<InputStream> send(Map<String, String> params, HttpRequest.BodyPublisher body) {
        StringBuilder url = new StringBuilder(address.secure() ? "https://" : "http://").append(address.hostPort()).append("/?wait_end_of_query=1");
        if (!address.defaultDatabase().isEmpty()) {
            params = new LinkedHashMap<>(params);
            params.putIfAbsent("database", address.defaultDatabase());
        }
        for (Map.Entry<String, String> e : params.entrySet()) {
            url.append('&').append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        HttpRequest req = HttpRequest.newBuilder(URI.create(url.toString())).timeout(receiveTimeout.plus(connectTimeout))
            .header("X-ClickHouse-User", address.user()).header("X-ClickHouse-Key", address.password()).POST(body).build();
        HttpResponse<InputStream> r;
        try {
            r = CLIENT.send(req, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException e) {
            throw new ChException(ErrorCode.SOCKET_TIMEOUT, "Timeout: connect timed out: " + address.hostPort(), e);
        } catch (HttpTimeoutException e) {
            throw new ChException(ErrorCode.SOCKET_TIMEOUT, "Timeout exceeded while reading from socket (" + address.hostPort() + ", "
                + receiveTimeout.toMillis() + " ms)");
        } catch (ConnectException e) {
            if (unresolved(e)) {
                throw new ChException(ErrorCode.DNS_ERROR, "Not found address of host: " + address.host() + ": (" + address.hostPort() + ")", e);
            }
            throw new ChException(ErrorCode.NETWORK_ERROR, "Connection refused (" + address.hostPort() + ")", e);
        } catch (IOException e) {
            throw new ChException(ErrorCode.NETWORK_ERROR, "Connection reset by peer, while reading from socket (" + address.hostPort() + "): "
                + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChException(ErrorCode.QUERY_WAS_CANCELLED, "Query was cancelled");
        }
        if (r.statusCode() != 200) {
            String text;
            try (InputStream in = r.body()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                text = "";
            }
            throw remoteError(text);
        }
        return r;
    }

    /**
     * Whether {@code e}, thrown by this class, says no connection was made (refused, timed out connecting, a host that
     * does not resolve): the failures after which ClickHouse's pools try the next replica, the query not having started.
     */
    public static boolean connectFailed(ChException e) {
        return e.getCause() instanceof ConnectException || e.getCause() instanceof HttpConnectTimeoutException;
    }

    private static boolean unresolved(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof java.nio.channels.UnresolvedAddressException || c instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    /** The error a remote server answered, with its code, as ClickHouse rethrows a remote exception. */
    ChException remoteError(String text) {
        Matcher m = REMOTE_ERROR.matcher(text.strip());
        if (!m.matches()) {
            return new ChException(ErrorCode.UNKNOWN_EXCEPTION, "Received from " + address.hostPort() + ". " + text.strip());
        }
        return new ChException(ErrorCode.of(Integer.parseInt(m.group(1))), "Received from " + address.hostPort() + ". DB::Exception: "
            + m.group(2));
    }

    private void drain(HttpResponse<InputStream> r) {
        try (InputStream in = r.body()) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new ChException(ErrorCode.NETWORK_ERROR, "Cannot read the answer of " + address.hostPort() + ": " + e.getMessage(), e);
        }
    }
}
