package dev.chdedup.driver;

import com.clickhouse.client.api.ClientConfigProperties;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.jdbc.StatementImpl;
import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.driver.journal.InsertJournal;
import dev.chdedup.driver.journal.JournalEntry;
import dev.chdedup.retry.ErrorClass;
import dev.chdedup.retry.ErrorClassifier;
import dev.chdedup.retry.RetryExecutor;
import dev.chdedup.retry.RetryListener;
import dev.chdedup.retry.RetryPolicy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one seam of the driver: executes one INSERT so that a retry is harmless. It stamps the execution with a
 * fresh token, pins the block-splitting settings, switches deduplication on, and re-sends the identical
 * statement on retryable failures under the retry policy; an error of unknown outcome is retried only when the
 * table keeps a deduplication log (or the user chose to retry anyway), within the table's window. A server that
 * does not know one of these settings (older ClickHouse answers Code 115) is detected once per connection and the
 * setting is left out from then on: without the token, content hashing with pinned block settings remains.
 */
final class InsertExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(InsertExecutor.class);
    private static final Pattern UNKNOWN_SETTING = Pattern.compile("(?:Setting|setting) '?([A-Za-z0-9_]+)'? is neither|Unknown setting '?([A-Za-z0-9_]+)'?");
    static final String TOKEN = "insert_deduplication_token";
    private static final Method EXECUTE_UPDATE_IMPL = executeUpdateImpl();

    private final Connection delegate;
    private final DedupConfig config;
    private final String endpoint;
    /** The settings every insert of this connection carries besides its token: block sizes and deduplication switches. */
    private final Map<String, String> pinned;
    /** Settings this connection's server refused with Code 115; never sent again. */
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    /** The insert journal of this connection's configuration, or null. */
    private final DedupJournal journal;
    /** Where retries go when this connection's endpoint stops answering (a URL with several hosts), or null. */
    private final Failover failover;

    InsertExecutor(Connection delegate, DedupConfig config, String endpoint, Map<String, String> pinned) {
        this(delegate, config, endpoint, pinned, null, null);
    }

    InsertExecutor(Connection delegate, DedupConfig config, String endpoint, Map<String, String> pinned, DedupJournal journal,
                   Failover failover) {
        this.delegate = delegate;
        this.config = config;
        this.endpoint = endpoint;
        this.pinned = pinned;
        this.journal = journal;
        this.failover = failover;
    }

    /** Closes the connections retries opened to other endpoints. */
    void close() {
        if (failover != null) {
            failover.close();
        }
    }

    DedupConfig config() {
        return config;
    }

    Connection delegate() {
        return delegate;
    }

    /** The outcome of one execution: rows the server reported written, the token, the attempts. */
    record Outcome(long writtenRows, String token, int attempts) {
        /**
         * Rows this execution landed, for {@code expectedRows} rows sent: a retry the server dropped entirely as a
         * duplicate reports 0 written, yet its rows landed with an earlier attempt.
         */
        long landedRows(long expectedRows) {
            return attempts > 1 && writtenRows == 0 && expectedRows > 0 ? expectedRows : writtenRows;
        }
    }

    /**
     * Executes {@code sql} (an INSERT of {@code kind}) on {@code stmt}, a statement of the official driver.
     * {@code rows} is the number of rows when known (for the window warning), else -1.
     */
    Outcome execute(Statement stmt, String sql, SqlText.Kind kind, long rows) throws SQLException {
        return execute(stmt, sql, kind, rows, null);
    }

    /** As {@link #execute(Statement, String, SqlText.Kind, long)}, with the caller's token instead of a fresh one. */
    Outcome execute(Statement stmt, String sql, SqlText.Kind kind, long rows, String callerToken) throws SQLException {
        return execute(stmt, sql, kind, rows, settings(kind, callerToken), true, null);
    }

    /**
     * Executes one RowBinary batch: {@code statement} ({@code INSERT INTO t (cols) FORMAT RowBinary}) with the recorded
     * {@code batch} as the request body, under the same token, pinned settings, framing, journal and
     * retries as a text INSERT; every attempt writes the same bytes.
     */
    Outcome executeRowBinary(String statement, RowBinaryBatch batch, String callerToken) throws SQLException {
        return execute(null, statement, SqlText.Kind.INSERT_FORMAT, batch.rows(), settings(SqlText.Kind.INSERT_FORMAT, callerToken), true,
            new RowBinaryBody(batch, null));
    }

    /** A RowBinary request body: a recorded batch, or the bytes a journal entry kept. */
    record RowBinaryBody(RowBinaryBatch batch, byte[] bytes) {
        long length() {
            return batch != null ? batch.size() : bytes.length;
        }

        void writeTo(java.io.OutputStream out) throws java.io.IOException {
            if (batch != null) {
                batch.writeTo(out);
            } else {
                out.write(bytes);
            }
        }

        byte[] toByteArray() {
            return batch != null ? batch.toByteArray() : bytes;
        }
    }

    /** The settings of one execution: its token (the caller's, else a fresh one) and the pinned settings. */
    private Map<String, String> settings(SqlText.Kind kind, String callerToken) {
        DedupConfig.Mode mode = config.mode();
        String token = mode == DedupConfig.Mode.CONTENT ? null : callerToken != null ? callerToken : config.tokenPrefix() + UUID.randomUUID();
        Map<String, String> settings = new LinkedHashMap<>();
        if (token != null) {
            settings.put(TOKEN, token);
        }
        settings.putAll(pinned);
        if (kind == SqlText.Kind.INSERT_SELECT) {
            settings.put("deduplicate_insert_select", "force_enable");
        } else {
            settings.remove("max_block_size");
        }
        return settings;
    }

    /** Re-sends a journal entry with its own token and settings, escapes off (its text is as sent), not journaled again. */
    long resend(JournalEntry e) throws SQLException {
        if (e.rowBinary()) {
            return execute(null, e.sql(), SqlText.Kind.valueOf(e.kind()), e.rows(), e.settings(), false,
                new RowBinaryBody(null, e.data())).landedRows(e.rows());
        }
        try (Statement st = delegate.createStatement()) {
            st.setEscapeProcessing(false);
            return execute(st, e.sql(), SqlText.Kind.valueOf(e.kind()), e.rows(), e.settings(), false, null).landedRows(e.rows());
        }
    }

    TableInfo tableInfo(JournalEntry e) {
        return TableInfo.Cache.get(endpoint, delegate, e.database(), e.table(), config.tableInfoTtlMillis());
    }

    private Outcome execute(Statement stmt, String sql, SqlText.Kind kind, long rows, Map<String, String> settings, boolean journaled,
                            RowBinaryBody body) throws SQLException {
        DedupMetrics.INSTANCE.inserts.increment();
        String[] target = SqlText.insertTarget(sql);
        TableInfo info = tableInfo(sql);
        // what the table is, asked again when the first read failed (a fault may have cut it), for the decision
        // whether an insert of unknown outcome may be re-sent
        TableInfo[] known = {info};
        java.util.function.Supplier<TableInfo> current = () -> {
            if (known[0].engine().equals("unknown")) {
                known[0] = tableInfo(sql);
            }
            return known[0];
        };
        String token = settings.get(TOKEN);
        RetryPolicy policy = config.policy();
        if (info.replicated() && info.windowSeconds() > 0) {
            policy = policy.cappedAt(Duration.ofSeconds(info.windowSeconds()));
        }
        long blockSize = parseLong(settings.get("max_insert_block_size"), 1_048_576L);
        if (info.hasLog() && rows > 0 && (rows + blockSize - 1) / blockSize > info.window()) {
            LOG.warn("INSERT into {} has about {} blocks, more than the table's deduplication window of {}: a retry may duplicate"
                + " the oldest blocks", info.describe(), (rows + blockSize - 1) / blockSize, info.window());
        }
        boolean multiPart = mayWriteSeveralParts(kind, rows, blockSize, info);
        int[] attempts = new int[1];
        String table = target == null ? "?" : target[1];
        JournalEntry entry = !journaled ? null : body != null
            ? (journal == null ? null : InsertJournal.beforeRowBinary(journal, sql, body.toByteArray(), kind.name(), rows, info.database(), table,
                settings))
            : InsertJournal.before(journal, stmt, sql, kind.name(), rows, info.database(), table, settings);
        boolean settled = false;
        Failover.Session session = failover == null ? null : failover.session(stmt, info);
        try {
            long written = new RetryExecutor(policy).execute(n -> {
                attempts[0] = n;
                Statement on = session == null ? stmt : session.statement();
                try {
                    long w = body != null ? attemptRowBinary(session == null ? delegate : session.connection(delegate), sql, body, settings)
                        : attempt(on, sql, settings);
                    if (session != null) {
                        session.succeeded();
                    }
                    return w;
                } catch (SQLException | RuntimeException e) {
                    if (session != null) {
                        session.failed(e);
                    }
                    throw e;
                }
            }, () -> unknownRetryable(current.get(), sql), multiPart, new Listener(token, info));
            settled = true;
            InsertJournal.acknowledged(journal, entry);
            return new Outcome(written, sentToken(token), attempts[0]);
        } catch (RetryExecutor.GaveUpException e) {
            settled = true;
            throw InsertJournal.gaveUp(journal, entry,
                GiveUpMessage.exception(e, sentToken(token), current.get(), current.get().retryBlocker(sql), unknownRetryable(current.get(), sql),
                    multiPart, strictWithoutToken()));
        } finally {
            if (!settled) {
                InsertJournal.abandoned(journal, entry);
            }
            if (session != null) {
                session.close();
            }
        }
    }

    /** What the driver knows about the table {@code sql} (an INSERT) writes, from the cache shared by the server's connections. */
    TableInfo tableInfo(String sql) {
        String[] target = SqlText.insertTarget(sql);
        return target == null ? TableInfo.unknown(null, "?")
            : TableInfo.Cache.get(endpoint, delegate, target[0], target[1], config.tableInfoTtlMillis());
    }

    /**
     * Whether one execution may write several parts, so that a failure may follow a committed part: more rows than one
     * block (or an unknown count, or an INSERT SELECT), a partitioned table, a table feeding materialized views.
     */
    static boolean mayWriteSeveralParts(SqlText.Kind kind, long rows, long blockSize, TableInfo info) {
        return kind == SqlText.Kind.INSERT_SELECT || rows <= 0 || rows > blockSize || info.partitioned() || info.feedsViews();
    }

    /** The token as the server saw it: null where none was sent or the server refused tokens. */
    private String sentToken(String token) {
        return refused.contains(TOKEN) ? null : token;
    }

    /** Whether dedup.mode=strict met a server without tokens: this connection inserts without deduplication. */
    private boolean strictWithoutToken() {
        return config.mode() == DedupConfig.Mode.STRICT && refused.contains(TOKEN);
    }

    /**
     * Whether an insert of unknown outcome ({@code sql}) may be re-sent: only into a table that keeps a log and where a
     * retry reaches the same logs with the same blocks (a Distributed table's sharding key; or when the user accepts
     * duplicates), and in strict mode only with a token, since without one deduplication is off.
     */
    private boolean unknownRetryable(TableInfo info, String sql) {
        if (config.mode() == DedupConfig.Mode.STRICT && refused.contains(TOKEN)) {
            return config.retryWithoutLog();
        }
        return info.hasLog() && info.retryBlocker(sql) == null || config.retryWithoutLog();
    }

    /**
     * One attempt of a RowBinary batch, through the official client's insert API (statement in the URL, body as written):
     * the same settings and framing as {@link #attempt}; a setting the server does not know is dropped and the batch re-sent.
     */
    private long attemptRowBinary(Connection conn, String statement, RowBinaryBody body, Map<String, String> settings) throws SQLException {
        while (true) {
            Map<String, String> send = sendable(settings);
            InsertSettings request = new InsertSettings();
            for (Map.Entry<String, String> e : send.entrySet()) {
                request.serverSetting(e.getKey(), e.getValue());
            }
            if (config.framed()) {
                for (Map.Entry<String, Object> o : framing(body.length()).entrySet()) {
                    request.setOption(o.getKey(), o.getValue());
                }
            }
            String schema = conn.getSchema();
            if (schema != null && !schema.isEmpty()) {
                request.setDatabase(schema);
            }
            try {
                return RowBinarySender.send(conn, statement, body, request);
            } catch (SQLException e) {
                if (!refuse(e, send.keySet())) {
                    throw e;
                }
            }
        }
    }

    /** The settings to send now: without those the server refused; in strict mode without a token, deduplication off. */
    private Map<String, String> sendable(Map<String, String> settings) {
        Map<String, String> send = new LinkedHashMap<>(settings);
        send.keySet().removeAll(refused);
        if (config.mode() == DedupConfig.Mode.STRICT && refused.contains(TOKEN)) {
            // a token or nothing: content hashing would drop a legitimate second insert of identical rows
            send.put("insert_deduplicate", "0");
        }
        return send;
    }

    /** One attempt; a setting the server does not know is dropped and the statement re-sent at once. */
    private long attempt(Statement stmt, String sql, Map<String, String> settings) throws SQLException {
        while (true) {
            Map<String, String> send = sendable(settings);
            QuerySettings local = stmt.unwrap(StatementImpl.class).getLocalSettings();
            Map<String, Object> previous = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : send.entrySet()) {
                String key = ClientConfigProperties.serverSetting(e.getKey());
                previous.put(key, local.getOption(key));
                local.serverSetting(e.getKey(), e.getValue());
            }
            Map<String, Object> options = config.framed() ? framing(sql) : Map.of();
            for (Map.Entry<String, Object> o : options.entrySet()) {
                previous.putIfAbsent(o.getKey(), local.getOption(o.getKey()));
                local.setOption(o.getKey(), o.getValue());
            }
            try {
                return send(stmt, sql, local);
            } catch (SQLException e) {
                if (!refuse(e, send.keySet())) {
                    throw e;
                }
            } finally {
                for (Map.Entry<String, Object> p : previous.entrySet()) {
                    if (p.getValue() == null) {
                        local.resetOption(p.getKey());
                    } else if (options.containsKey(p.getKey())) {
                        local.setOption(p.getKey(), p.getValue());
                    } else {
                        local.serverSetting(p.getKey().substring(ClientConfigProperties.serverSetting("").length()), String.valueOf(p.getValue()));
                    }
                }
            }
        }
    }

    /**
     * Whether {@code e} is the server refusing one of the settings {@code sent} (Code 115): it is left out from now on
     * (logged and counted once) and the caller sends again; false for any other error.
     */
    private boolean refuse(SQLException e, Set<String> sent) {
        String name = refusedSetting(e, sent);
        if (name == null) {
            return false;
        }
        if (refused.add(name)) {
            if (name.equals(TOKEN)) {
                DedupMetrics.INSTANCE.tokenFallbacks.increment();
                if (config.mode() == DedupConfig.Mode.STRICT) {
                    LOG.warn("The server does not support insert_deduplication_token (Code 115) and dedup.mode=strict: this connection"
                        + " inserts without deduplication from now on, and an INSERT of unknown outcome is not retried");
                } else {
                    LOG.warn("The server does not support insert_deduplication_token (Code 115): this connection relies on content"
                        + " hashing with pinned block settings from now on. A retry is still recognized by its data, but a second"
                        + " INSERT of identical rows into a table with a deduplication log is dropped as a duplicate too. Set"
                        + " dedup.mode=strict to insert such rows without deduplication, or dedup.mode=content to accept this");
                }
            } else {
                LOG.info("The server does not know setting {}; it is left out from now on", name);
            }
        }
        return true;
    }

    /**
     * The official client's options that send {@code sql} as one ClickHouse compressed frame ({@code decompress=1}, LZ4,
     * checksummed): its buffer holds the whole statement, so the frame is the body and a body cut anywhere fails to
     * decompress on the server instead of committing the complete rows before the cut ({@code dedup.framing}).
     */
    static Map<String, Object> framing(String sql) {
        return framing(utf8Length(sql));
    }

    /** {@link #framing(String)} for a body of {@code length} bytes. */
    static Map<String, Object> framing(long length) {
        int buffer = (int) Math.min(Integer.MAX_VALUE - 64, Math.max(65_536, length + 16));
        Map<String, Object> o = new LinkedHashMap<>();
        o.put(ClientConfigProperties.COMPRESS_CLIENT_REQUEST.getKey(), Boolean.TRUE);
        o.put(ClientConfigProperties.USE_HTTP_COMPRESSION.getKey(), Boolean.FALSE);
        o.put(ClientConfigProperties.COMPRESSION_LZ4_UNCOMPRESSED_BUF_SIZE.getKey(), buffer);
        return o;
    }

    /** The UTF-8 length of {@code s}, without encoding it. */
    static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /**
     * Sends an INSERT the way the official PreparedStatement sends its batch: {@code StatementImpl.executeUpdateImpl}
     * (protected) takes the text as it is. The public {@code executeLargeUpdate} would first run the official SQL parser
     * over the whole text, a cost that grows with every row of a batch (about 5x the send time of a 10,000-row batch)
     * and that an INSERT does not need (it only tracks {@code USE} and {@code SET ROLE}).
     */
    private static long send(Statement stmt, String sql, QuerySettings local) throws SQLException {
        if (EXECUTE_UPDATE_IMPL == null) {
            return stmt.executeLargeUpdate(sql);
        }
        try {
            return (Long) EXECUTE_UPDATE_IMPL.invoke(stmt.unwrap(StatementImpl.class), sql, local);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException) {
                throw (SQLException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new SQLException(String.valueOf(cause), "HY000", cause);
        } catch (IllegalAccessException e) {
            return stmt.executeLargeUpdate(sql);
        }
    }

    /** {@code StatementImpl.executeUpdateImpl(String, QuerySettings)}, or null where it is missing or closed to us. */
    private static Method executeUpdateImpl() {
        try {
            Method m = StatementImpl.class.getDeclaredMethod("executeUpdateImpl", String.class, QuerySettings.class);
            m.setAccessible(true);
            return m.getReturnType() == long.class ? m : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debug("StatementImpl.executeUpdateImpl is not available ({}); INSERTs go through executeLargeUpdate", e.toString());
            return null;
        }
    }

    /** The name of one of {@code ours} that {@code e} says is unknown (Code 115), or null. */
    static String refusedSetting(SQLException e, Set<String> ours) {
        if (ErrorClassifier.codeOf(e) != 115) {
            return null;
        }
        String m = String.valueOf(e.getMessage());
        Matcher matcher = UNKNOWN_SETTING.matcher(m);
        boolean named = false;
        while (matcher.find()) {
            String n = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
            if (ours.contains(n)) {
                return n;
            }
            named = true;
        }
        if (named) {
            // the message names the refused setting and it is not ours (a "Maybe you meant [..]" may still mention ours)
            return null;
        }
        for (String n : ours) {
            if (m.contains(n)) {
                return n;
            }
        }
        return null;
    }

    private static long parseLong(String s, long dflt) {
        try {
            return s == null ? dflt : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    private static final class Listener implements RetryListener {
        private final String token;
        private final TableInfo info;

        Listener(String token, TableInfo info) {
            this.token = token;
            this.info = info;
        }

        @Override
        public void onRetry(int attempt, Throwable error, ErrorClass c, long waitMillis) {
            DedupMetrics.INSTANCE.retries.increment();
            if (c == ErrorClass.UNKNOWN_OUTCOME) {
                DedupMetrics.INSTANCE.ambiguousRetries.increment();
            }
            LOG.warn("INSERT into {} attempt {} failed ({}, code {}): {}; retrying in {} ms with token {}", info.describe(), attempt, c,
                ErrorClassifier.codeOf(error), error.getMessage(), waitMillis, token);
        }

        @Override
        public void onGiveUp(int attempts, Throwable last, ErrorClass c) {
            LOG.warn("INSERT into {} gave up after {} attempt(s) ({}, code {}), token {}", info.describe(), attempts, c,
                ErrorClassifier.codeOf(last), token);
        }
    }
}
