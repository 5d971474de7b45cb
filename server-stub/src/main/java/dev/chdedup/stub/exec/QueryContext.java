package dev.chdedup.stub.exec;

import dev.chdedup.stub.compat.CompatibilityProfile;
import java.time.Instant;

/**
 * What a query runs with: the current database, the user, its id, the settings in force and the instant
 * {@code now()} returns for the whole query, and the ClickHouse release the server plays (its version and functions).
 * {@link #checkCancelled} (called between blocks) also enforces {@code max_execution_time}.
 */
public final class QueryContext {
    private final String database;
    private final String user;
    private final String queryId;
    private final Settings settings;
    private final Instant now;
    /** The query's entry in the process list (null outside the HTTP interface), polled for KILL QUERY. */
    private final ProcessList.Entry process;
    private final CompatibilityProfile compat;
    /** Temporary tables by name: the session's, or this query's own when there is no session. */
    private final java.util.Map<String, TableSource> temporaryTables;
    /** Set when a failpoint cut the request body (its complete rows are kept), shared by copies. */
    private final java.util.concurrent.atomic.AtomicBoolean bodyCut;
    /** The user's roles, as currentRoles, enabledRoles and defaultRoles answer. */
    private final Roles roles;
    /** The port the query came in on (0 when not over the network): remote() naming it reads this server's tables. */
    private final int localPort;
    /** The query's parameters ({@code param_x} of the URL), which {@code {x:Type}} in its VALUES data reads too. */
    private final dev.chdedup.stub.sql.QueryParameters parameters;
    /** State a query's functions keep for the whole query (one object a class), shared by this context's copies. */
    private final java.util.Map<Class<?>, Object> queryState;

    /**
     * A user's roles: {@code current} those SET ROLE chose in its session, else its default ones; {@code enabled} those
     * and the roles granted to them in turn; {@code defaults} the granted roles SET DEFAULT ROLE takes in (all unless
     * set); each sorted by name.
     */
    public record Roles(java.util.List<String> current, java.util.List<String> enabled, java.util.List<String> defaults) {
        public static final Roles NONE = new Roles(java.util.List.of(), java.util.List.of(), java.util.List.of());
    }

    public QueryContext(String database, String user, String queryId, Settings settings) {
        this(database, user, queryId, settings, Instant.now(), null, CompatibilityProfile.CURRENT,
            new java.util.concurrent.ConcurrentHashMap<>(), new java.util.concurrent.atomic.AtomicBoolean(), Roles.NONE, 0,
            dev.chdedup.stub.sql.QueryParameters.NONE, new java.util.concurrent.ConcurrentHashMap<>());
    }

    private QueryContext(String database, String user, String queryId, Settings settings, Instant now, ProcessList.Entry process,
                         CompatibilityProfile compat, java.util.Map<String, TableSource> temporaryTables,
                         java.util.concurrent.atomic.AtomicBoolean bodyCut, Roles roles, int localPort,
                         dev.chdedup.stub.sql.QueryParameters parameters, java.util.Map<Class<?>, Object> queryState) {
        this.parameters = parameters;
        this.queryState = queryState;
        this.bodyCut = bodyCut;
        this.localPort = localPort;
        this.roles = roles;
        this.database = database;
        this.user = user;
        this.queryId = queryId;
        this.settings = settings;
        this.now = now;
        this.process = process;
        this.compat = compat;
        this.temporaryTables = temporaryTables;
    }

    /**
     * The query's own object of class {@code key}, made by {@code make} on first use: state kept by functions across
     * the rows and expressions of one query (ClickHouse's query-context objects), shared by this context's copies.
     */
    public <T> T queryState(Class<T> key, java.util.function.Supplier<T> make) {
        return key.cast(queryState.computeIfAbsent(key, k -> make.get()));
    }

    /** This context for a user with {@code roles}. */
    public QueryContext withRoles(Roles r) {
        return new QueryContext(database, user, queryId, settings, now, process, compat, temporaryTables, bodyCut, r, localPort, parameters, queryState);
    }

    /** This context for a query that came in on {@code port}. */
    public QueryContext withLocalPort(int port) {
        return new QueryContext(database, user, queryId, settings, now, process, compat, temporaryTables, bodyCut, roles, port, parameters, queryState);
    }

    /** This context with the query's parameters. */
    public QueryContext withParameters(dev.chdedup.stub.sql.QueryParameters p) {
        return new QueryContext(database, user, queryId, settings, now, process, compat, temporaryTables, bodyCut, roles, localPort, p, queryState);
    }

    public dev.chdedup.stub.sql.QueryParameters parameters() {
        return parameters;
    }

    public int localPort() {
        return localPort;
    }

    public Roles roles() {
        return roles;
    }

    /** This context using a session's temporary tables. */
    public QueryContext withTemporaryTables(java.util.Map<String, TableSource> tables) {
        return new QueryContext(database, user, queryId, settings, now, process, compat, tables, bodyCut, roles, localPort, parameters, queryState);
    }

    /** Whether a failpoint cut the request body, the complete rows before the cut to be kept. */
    public boolean bodyCut() {
        return bodyCut.get();
    }

    /**
     * Records that a failpoint cut the request body and that the insert is to keep the complete rows before the cut
     * (a partial last row is dropped instead of failing the insert).
     */
    public void markBodyCut() {
        bodyCut.set(true);
    }

    /** The temporary tables the query sees (modifiable: CREATE/DROP TEMPORARY TABLE change it). */
    public java.util.Map<String, TableSource> temporaryTables() {
        return temporaryTables;
    }

    /** The query's entry in the process list, or null. */
    public ProcessList.Entry process() {
        return process;
    }

    public QueryContext withProcess(ProcessList.Entry p) {
        return new QueryContext(database, user, queryId, settings, now, p, compat, temporaryTables, bodyCut, roles, localPort, parameters, queryState);
    }

    /**
     * Throws QUERY_WAS_CANCELLED when KILL QUERY cancelled this query, and TIMEOUT_EXCEEDED once it has run longer
     * than {@code max_execution_time} seconds (0: no limit); called between blocks.
     */
    public void checkCancelled() {
        if (process != null) {
            process.checkCancelled();
        }
        double limit = maxExecutionSeconds();
        if (limit > 0) {
            double elapsed = process != null ? process.elapsedSeconds()
                : java.time.Duration.between(now, Instant.now()).toNanos() / 1e9;
            if (elapsed > limit) {
                throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.TIMEOUT_EXCEEDED,
                    "Timeout exceeded: elapsed " + elapsed + " seconds, maximum: " + formatSeconds(limit));
            }
        }
    }

    /** {@code max_execution_time} read once (it may be fractional, as ClickHouse's Seconds settings are). */
    private double maxExecutionSeconds() {
        if (maxExecutionSeconds < 0) {
            String v = settings.get("max_execution_time").trim();
            try {
                maxExecutionSeconds = v.isEmpty() ? 0 : Math.max(0, Double.parseDouble(v));
            } catch (NumberFormatException e) {
                maxExecutionSeconds = 0;
            }
        }
        return maxExecutionSeconds;
    }

    private double maxExecutionSeconds = -1;

    private static String formatSeconds(double s) {
        return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
    }

    public String database() {
        return database;
    }

    public String user() {
        return user;
    }

    public String queryId() {
        return queryId;
    }

    public Settings settings() {
        return settings;
    }

    public Instant now() {
        return now;
    }

    public QueryContext withSettings(Settings s) {
        return new QueryContext(database, user, queryId, s, now, process, compat, temporaryTables, bodyCut, roles, localPort, parameters, queryState);
    }

    public QueryContext withDatabase(String db) {
        return new QueryContext(db, user, queryId, settings, now, process, compat, temporaryTables, bodyCut, roles, localPort, parameters, queryState);
    }

    /** The release this query's server plays (CURRENT outside an emulation). */
    public CompatibilityProfile compat() {
        return compat;
    }

    public QueryContext withCompat(CompatibilityProfile p) {
        return new QueryContext(database, user, queryId, settings, now, process, p, temporaryTables, bodyCut, roles, localPort, parameters, queryState);
    }

    /**
     * Counts a block read from a table or a table function, for read_rows and read_bytes, and enforces
     * {@code max_rows_to_read} / {@code max_bytes_to_read} (TOO_MANY_ROWS, TOO_MANY_BYTES; read_overflow_mode throw)
     * over the whole query, subqueries included.
     */
    public void addRead(dev.chdedup.stub.data.Block b) {
        if (process == null) {
            return;
        }
        process.addRead(b.rowCount(), b.bytes());
        long maxRows = settings.getLong("max_rows_to_read");
        if (maxRows > 0 && process.readRows() > maxRows) {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.TOO_MANY_ROWS,
                "Limit for rows (controlled by 'max_rows_to_read' setting) exceeded, max rows: " + ResultLimits.readable(maxRows)
                    + ", current rows: " + ResultLimits.readable(process.readRows()));
        }
        long maxBytes = settings.getLong("max_bytes_to_read");
        if (maxBytes > 0 && process.readBytes() > maxBytes) {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.TOO_MANY_BYTES,
                "Limit for (uncompressed) bytes to read (controlled by 'max_bytes_to_read' setting) exceeded, max bytes: "
                    + ResultLimits.readable(maxBytes) + ", current bytes: " + ResultLimits.readable(process.readBytes()));
        }
    }

    /** Counts rows that reached a LIMIT, for rows_before_limit_at_least. */
    public void addRowsBeforeLimit(long rows) {
        if (process != null) {
            process.addRowsBeforeLimit(rows);
        }
    }
}
