package dev.chdedup.driver;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ClientConfigProperties;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import com.clickhouse.jdbc.ConnectionImpl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the few facts the driver asks the server for (table engines, settings) in a form every ClickHouse answers:
 * the official client's own query API with {@code FORMAT TabSeparated} and an uncompressed response. The official
 * JDBC {@code executeQuery} cannot serve here: it asks for RowBinaryWithNamesAndTypes through a header that
 * ClickHouse 18.16 ignores, and with {@code compress=1} that server answers a successful SELECT with an empty body.
 */
final class ServerQuery {
    /** How long one metadata query may take before the driver gives up on it (the insert then goes on without it). */
    static final long TIMEOUT_SECONDS = 30;
    /** The most a metadata answer may hold; more means the query was not ours to parse. */
    static final int MAX_BYTES = 16 * 1024 * 1024;

    private ServerQuery() {
    }

    /** Attempts of one metadata query whose answer was lost on the way (a SELECT, so asking again is harmless). */
    static final int ATTEMPTS = 3;

    /**
     * The rows of {@code sql} (a SELECT without FORMAT), each split into its unescaped TabSeparated fields. A failure
     * without a server's answer (a timeout, a reset) is asked again, up to {@link #ATTEMPTS} times; a server error is not.
     */
    static List<String[]> rows(Connection conn, String sql) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return rowsOnce(conn, sql);
            } catch (SQLException e) {
                if (attempt >= ATTEMPTS || e.getCause() instanceof ServerException || "HY008".equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    private static List<String[]> rowsOnce(Connection conn, String sql) throws SQLException {
        Client client = conn.unwrap(ConnectionImpl.class).getClient();
        QuerySettings settings = new QuerySettings().setFormat(ClickHouseFormat.TabSeparated);
        settings.setOption(ClientConfigProperties.COMPRESS_SERVER_RESPONSE.getKey(), false);
        try (QueryResponse r = client.query(sql + " FORMAT TabSeparated", settings).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            return parse(readLimited(r.getInputStream()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while reading server metadata", "HY008", e);
        } catch (ExecutionException e) {
            throw new SQLException(String.valueOf(e.getCause().getMessage()), "HY000", e.getCause());
        } catch (TimeoutException | IOException e) {
            throw new SQLException("Could not read server metadata: " + e, "HY000", e);
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException(String.valueOf(e.getMessage()), "HY000", e);
        }
    }

    private static String readLimited(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, n);
            if (out.size() > MAX_BYTES) {
                throw new IOException("metadata answer larger than " + MAX_BYTES + " bytes");
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** TabSeparated text into rows of fields, undoing its escapes ({@code \t \n \\ \'} and the rest). */
    static List<String[]> parse(String text) {
        List<String[]> rows = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            String[] raw = line.split("\t", -1);
            String[] fields = new String[raw.length];
            for (int i = 0; i < raw.length; i++) {
                fields[i] = unescape(raw[i]);
            }
            rows.add(fields);
        }
        return rows;
    }

    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 't' -> sb.append('\t');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case '0' -> sb.append('\0');
                case 'N' -> sb.append("\\N");
                default -> sb.append(n);
            }
        }
        return sb.toString();
    }
}
