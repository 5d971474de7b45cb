package dev.chdedup.stub.server;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.compress.CompressedBlockInputStream;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.KnownSettings;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.ServerInfo;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.fault.QueryHooks;
import dev.chdedup.stub.http.HttpHandler;
import dev.chdedup.stub.http.HttpRequest;
import dev.chdedup.stub.http.HttpResponse;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.QueryParameters;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.StorageCatalog;
import dev.chdedup.stub.types.DataTypes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ClickHouse's HTTP interface on top of the transport: authentication, the query from the URL or the body,
 * reserved parameters and settings, sessions, decompression of the request, execution, and the response with
 * ClickHouse's headers ({@code X-ClickHouse-Summary}, {@code -Query-Id}, {@code -Format}, {@code -Timezone}),
 * native LZ4 framing for {@code compress=1}, gzip/deflate/zstd/lz4 for {@code enable_http_compression=1}, and errors as
 * {@code Code: N. DB::Exception: ... (NAME)} with the matching status and {@code X-ClickHouse-Exception-Code}.
 * Mirrors ClickHouse's {@code HTTPHandler}.
 */
public final class HttpInterface implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(HttpInterface.class);
    /** How much of a body is read to find the query before the INSERT data: ClickHouse's max_query_size. */
    static final int MAX_QUERY_SIZE = 256 * 1024;
    /** Result bytes buffered before the response is committed (errors before then get a proper status). */
    static final int RESPONSE_BUFFER = 1024 * 1024;

    /** The headers a 26.x HTTPHandler lets a browser's script read ({@code Access-Control-Expose-Headers}). */
    static final String EXPOSED_HEADERS = "X-ClickHouse-Query-Id,X-ClickHouse-Summary,X-ClickHouse-Server-Display-Name,"
        + "X-ClickHouse-Format,X-ClickHouse-Timezone,X-ClickHouse-Exception-Code,X-ClickHouse-Exception-Tag";

    private static final Set<String> RESERVED = Set.of("query", "database", "default_format", "query_id", "session_id",
        "session_timeout", "session_check", "compress", "decompress", "user", "password", "quota_key", "buffer_size",
        "wait_end_of_query", "role", "stacktrace", "client_protocol_version", "default_database", "query_kind",
        "http_native_compression_disable_checksumming_on_decompress", "close_session");

    private final Interpreter interpreter;
    private final Sessions sessions;
    private final Events events;
    private final QueryHooks hooks;
    /** Settings this server pretends not to know, to play an older ClickHouse (see StubServer.Builder). */
    private final Set<String> unknownSettings;
    private final dev.chdedup.stub.exec.ProcessList processes;
    /** The older ClickHouse this interface plays (errors, headers, settings, formats); CURRENT changes nothing. */
    private volatile CompatibilityProfile compat = CompatibilityProfile.CURRENT;
    /** The settings no one changed: {@code compat}'s defaults. */
    private volatile Settings defaults = Settings.DEFAULTS;

    public HttpInterface(Interpreter interpreter, Sessions sessions, Map<String, String> users, Events events, QueryHooks hooks,
                         Set<String> unknownSettings, dev.chdedup.stub.exec.ProcessList processes) {
        this.processes = processes;
        this.interpreter = interpreter;
        this.sessions = sessions;
        this.access = new dev.chdedup.stub.access.AccessControl(users);
        this.events = events;
        this.hooks = hooks;
        this.unknownSettings = Set.copyOf(unknownSettings);
    }

    /** The users, roles and settings profiles: the configured users, and those CREATE USER/ROLE/SETTINGS PROFILE made. */
    private final dev.chdedup.stub.access.AccessControl access;

    public dev.chdedup.stub.access.AccessControl access() {
        return access;
    }

    /** The port this interface is served on, which remote() names to read this server's own tables. */
    private volatile int port;

    /** Tells the interface the port it is served on, once the server has bound it. */
    void servesOn(int p) {
        this.port = p;
    }

    /** Plays {@code profile} from the next request on. */
    public HttpInterface emulate(CompatibilityProfile profile) {
        this.defaults = Settings.ofRelease(profile.settingDefaults());
        this.compat = profile;
        return this;
    }

    /** The largest multipart/form-data body read (its parts are held in memory while the query runs). */
    static final long MAX_FORM_BYTES = 256L << 20;

    /** Whether URL parameter {@code k} is an external table's {@code NAME_structure}, {@code NAME_types} or {@code NAME_format}. */
    private static boolean describesExternalTable(String k, List<HTMLForm.Part> tables) {
        for (HTMLForm.Part t : tables) {
            if (k.equals(t.name() + "_structure") || k.equals(t.name() + "_types") || k.equals(t.name() + "_format")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The query's context with the form's files as temporary tables of their field names, for this query only (a
     * session's tables stay as they were), as ClickHouse's ExternalTablesHandler loads them: the columns from
     * {@code NAME_structure} ({@code a UInt8, b String}) or {@code NAME_types} (named _1, _2, ...), the data in
     * {@code NAME_format} (TabSeparated unless given).
     */
    private QueryContext withExternalTables(QueryContext ctx, List<HTMLForm.Part> tables, HttpRequest req) throws IOException {
        QueryContext q = ctx.withTemporaryTables(new java.util.concurrent.ConcurrentHashMap<>(ctx.temporaryTables()));
        for (HTMLForm.Part t : tables) {
            String structure = req.param(t.name() + "_structure");
            if (structure == null) {
                String types = req.param(t.name() + "_types");
                if (types == null) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Neither structure nor types have not been provided for external table "
                        + t.name() + ". Use fields " + t.name() + "_structure or " + t.name() + "_types to do so.");
                }
                List<String> columns = new ArrayList<>();
                for (String type : topLevelItems(types)) {
                    columns.add("_" + (columns.size() + 1) + " " + type.trim());
                }
                structure = String.join(", ", columns);
            }
            String format = firstNonNull(req.param(t.name() + "_format"), "TabSeparated");
            String table = "`" + t.name().replace("\\", "\\\\").replace("`", "\\`") + "`";
            String create = "CREATE TEMPORARY TABLE " + table + " (" + structure + ") ENGINE = Memory";
            interpreter.execute(Parser.parse(create), create, InputStream.nullInputStream(), "Values", q);
            String insert = "INSERT INTO " + table + " FORMAT " + format;
            interpreter.execute(Parser.parse(insert), insert, new ByteArrayInputStream(t.data()), "Values", q);
        }
        return q;
    }

    /** The comma-separated items of {@code list} outside parentheses and quotes ({@code UInt8, Map(String, UInt8)}). */
    private static List<String> topLevelItems(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char ch = list.charAt(i);
            if (quote != 0) {
                if (ch == '\\') {
                    i++;
                } else if (ch == quote) {
                    quote = 0;
                }
            } else if (ch == '\'' || ch == '"' || ch == '`') {
                quote = ch;
            } else if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                out.add(list.substring(start, i));
                start = i + 1;
            }
        }
        out.add(list.substring(start));
        return out;
    }

    /** Refuses a setting this server plays not to know, in ClickHouse's words. */
    private void checkKnown(Iterable<String> names) {
        for (String n : names) {
            if (unknownSettings.contains(n)) {
                throw new ChException(ErrorCode.UNKNOWN_SETTING, "Setting " + n + " is neither a builtin setting nor started with the"
                    + " prefix 'custom_' registered for user-defined settings");
            }
            if (!compat.knowsSetting(n)) {
                throw compat.unknownSetting(n);
            }
            KnownSettings.check(n);
        }
    }

    @Override
    public void handle(HttpRequest req, HttpResponse resp) throws IOException {
        String path = req.path();
        if (path.equals("/ping") || path.equals("/replicas_status") || (path.equals("/") && req.method().equals("GET")
            && req.param("query") == null && req.rawQuery() == null)) {
            text(resp, 200, "Ok.\n");
            return;
        }
        if (!path.equals("/") && !path.equals("/query")) {
            text(resp, 404, "There is no handle " + req.target() + "\n\nUse / or /ping for health checks.\n"); // the URI, as NotFoundHandler
            return;
        }
        String queryId = firstNonNull(req.param("query_id"), req.header("X-ClickHouse-Query-Id"), UUID.randomUUID().toString());
        if (compat.exceptionTag()) { // a 26.x HTTPHandler's CORS list, sent with every answer
            resp.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
        }
        resp.header("X-ClickHouse-Server-Display-Name", ServerInfo.displayName());
        if (compat.queryHeaders()) {
            resp.header("X-ClickHouse-Query-Id", queryId);
            resp.header("X-ClickHouse-Timezone", ServerInfo.TIMEZONE);
        }
        String exceptionTag = compat.exceptionTag() ? ExceptionTags.next() : null;
        if (exceptionTag != null) {
            resp.header("X-ClickHouse-Exception-Tag", exceptionTag);
        }
        Sessions.Session session = null;
        Output out = null;
        QueryContext cutCtx = null; // the query's context once its body may have been cut by a failpoint
        try {
            // a multipart/form-data body is a form: its fields are parameters beside the URL's, its files external tables
            boolean form = HTMLForm.isMultipart(req.header("Content-Type"));
            List<HTMLForm.Part> externalTables = new ArrayList<>();
            if (form) {
                // the form is read from the body as sent (DynamicQueryHandler::getQuery reads request.getStream()):
                // a Content-Encoding is checked but not applied, so client-v2's uncompressed form with "lz4" is read
                req.body();
                for (HTMLForm.Part p : HTMLForm.parse(req.header("Content-Type"), req.rawBody(), MAX_FORM_BYTES)) {
                    if (p.filename() == null) {
                        req.addParam(p.name(), p.text());
                    } else {
                        externalTables.add(p);
                    }
                }
            }
            String user = authenticate(req);
            Map<String, String> urlSettings = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : req.params().entrySet()) {
                String k = e.getKey();
                if (RESERVED.contains(k) || k.startsWith("param_") || describesExternalTable(k, externalTables)) {
                    continue;
                }
                checkKnown(Set.of(k));
                urlSettings.put(k, e.getValue());
            }
            String database = firstNonNull(req.param("database"), req.header("X-ClickHouse-Database"), DatabaseCatalog.DEFAULT);
            // the user's settings (its profiles', its roles', its own) are where the session's and the URL's start
            dev.chdedup.stub.access.SettingsProfileElements profile = access.settingsOf(user);
            Settings settings = defaults.with(profile.values());
            String sessionId = req.param("session_id");
            if (sessionId != null) {
                int timeout = req.param("session_timeout") == null ? Sessions.DEFAULT_TIMEOUT_SECONDS : Integer.parseInt(req.param("session_timeout"));
                session = sessions.acquire(sessionId, user, database, timeout, "1".equals(req.param("session_check")));
                settings = settings.with(session.settings.changed());
                if (req.param("database") == null && req.header("X-ClickHouse-Database") == null) {
                    database = session.database;
                }
            }
            if (compat.version() != null && !settings.isChanged("compatibility")) {
                // an older server has that release's defaults (deduplicate_insert did not exist: insert_deduplicate decides)
                settings = settings.with(Map.of("compatibility", compat.version()));
            }
            dev.chdedup.stub.access.SettingsConstraints.check(settings, urlSettings, profile.constraints());
            if (urlSettings.containsKey("profile")) {
                settings = settings.with(access.profile(urlSettings.get("profile")).values());
            }
            settings = settings.with(urlSettings);
            if (settings.isChanged("http_receive_timeout") || settings.isChanged("http_send_timeout")) {
                resp.timeouts(seconds(settings, "http_receive_timeout"), seconds(settings, "http_send_timeout"));
            }
            QueryContext ctx = new QueryContext(database, user, queryId, settings).withCompat(compat).withRoles(access.rolesOf(user, currentRoles(req, user, session)))
                .withLocalPort(port).withParameters(QueryParameters.fromUrl(req.params()));
            if (session != null) {
                ctx = ctx.withTemporaryTables(session.temporaryTables);
            }
            if (!externalTables.isEmpty()) {
                ctx = withExternalTables(ctx, externalTables, req);
            }
            boolean compress = "1".equals(req.param("compress")) || "true".equals(req.param("compress"));
            out = new Output(resp, compress, settings.getBool("enable_http_compression") ? req.header("Accept-Encoding") : null,
                (int) settings.getLong("http_zlib_compression_level"), compat);
            boolean decompress = "1".equals(req.param("decompress")) || "true".equals(req.param("decompress"));
            InputStream body = hooks.requestBody(form ? InputStream.nullInputStream() : req.body(), req.param("query"), decompress, ctx);
            cutCtx = ctx;
            if (compat.commitsCutBody() || settings.getBool("input_format_connection_handling")) {
                // 18.16, and 26.x with input_format_connection_handling: a body the client stopped sending ends there
                body = new CutBodyInputStream(body);
            }
            if (decompress) {
                body = new CompressedBlockInputStream(body);
            }
            String defaultFormat = firstNonNull(req.param("default_format"), compat.honorsFormatHeader() ? req.header("X-ClickHouse-Format")
                : null, "TabSeparated");
            run(req, body, ctx, session, defaultFormat, out);
        } catch (dev.chdedup.stub.fault.FaultInjector.FaultFired fired) {
            LOG.debug("Query {}: injected fault answered", queryId);
        } catch (Throwable t) {
            if (resp.aborted() || cutCtx != null && cutCtx.bodyCut() && hooks.answeredCutRequest(cutCtx, resp)) {
                return;
            }
            ChException ch = toChException(t);
            events.increment("FailedQuery");
            LOG.debug("Query {} failed: {}", queryId, ch.displayText());
            if (out != null && out.committed()) {
                out.appendError(compat.errorBody(ch, ServerInfo.VERSION), exceptionTag);
            } else if (!resp.committed() && !resp.aborted()) {
                resp.status(ch.code().httpStatus());
                if (compat.queryHeaders()) {
                    resp.header("X-ClickHouse-Exception-Code", Integer.toString(ch.code().code));
                }
                if (ch.code().httpStatus() == 401) {
                    resp.header("WWW-Authenticate", "Basic realm=\"ClickHouse server HTTP API\"");
                }
                byte[] b = compat.errorBody(ch, ServerInfo.VERSION).getBytes(StandardCharsets.UTF_8);
                resp.contentType("text/plain; charset=UTF-8");
                if (!compat.legacyFraming()) {
                    resp.contentLength(b.length);
                }
                if (out != null) {
                    out.writeErrorBody(b);
                } else {
                    resp.body().write(b);
                }
            }
        } finally {
            if (session != null) {
                sessions.release(session);
            }
        }
    }

    private void run(HttpRequest req, InputStream body, QueryContext ctx, Sessions.Session session, String defaultFormat, Output out)
        throws IOException {
        String urlQuery = req.param("query");
        String sql;
        InputStream data;
        Parser.Parsed parsed;
        if (urlQuery != null) {
            parsed = Parser.parseWithFormat(urlQuery, QueryParameters.fromUrl(req.params()), ctx.settings().getBool("implicit_select"));
            sql = urlQuery;
            data = body;
            if (parsed.statement() instanceof Statement.Insert && ((Statement.Insert) parsed.statement()).dataOffset() >= 0) {
                int off = ((Statement.Insert) parsed.statement()).dataOffset();
                byte[] inline = urlQuery.substring(off).getBytes(StandardCharsets.UTF_8);
                if (inline.length > 0) {
                    data = new SequenceInputStream(new ByteArrayInputStream(inline), new ByteArrayInputStream("\n".getBytes(StandardCharsets.UTF_8)));
                    data = new SequenceInputStream(data, body);
                }
            }
        } else {
            byte[] head = body.readNBytes(MAX_QUERY_SIZE);
            String text = new String(head, StandardCharsets.UTF_8);
            if (text.isBlank()) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Empty query");
            }
            parsed = parseHead(text, head.length == MAX_QUERY_SIZE, QueryParameters.fromUrl(req.params()),
                ctx.settings().getBool("implicit_select"));
            sql = text;
            data = body;
            if (parsed.statement() instanceof Statement.Insert && ((Statement.Insert) parsed.statement()).dataOffset() >= 0) {
                int off = ((Statement.Insert) parsed.statement()).dataOffset();
                int byteOff = text.substring(0, off).getBytes(StandardCharsets.UTF_8).length;
                data = new SequenceInputStream(new ByteArrayInputStream(head, byteOff, head.length - byteOff), body);
                sql = text.substring(0, off);
            } else if (head.length == MAX_QUERY_SIZE && body.read() >= 0) {
                throw new ChException(ErrorCode.QUERY_IS_TOO_LARGE, "Max query size exceeded (can be increased with the max_query_size setting)");
            }
        }
        String shown = sql.length() > 10_000 ? sql.substring(0, 10_000) : sql;
        dev.chdedup.stub.exec.ProcessList.Entry process = processes.register(ctx.queryId(), ctx.user(), shown.strip(),
            clientInfo(req, ctx, parsed.statement()));
        try {
            out.attach(process);
            java.time.ZoneId zone = sessionZone(parsed.statement(), ctx);
            if (compat.queryHeaders()) {
                out.response().setHeader("X-ClickHouse-Timezone", zone == dev.chdedup.stub.types.SessionTimeZone.server()
                    ? dev.chdedup.stub.types.SessionTimeZone.serverName() : zone.getId());
            }
            try (dev.chdedup.stub.types.SessionTimeZone.Scope tz = dev.chdedup.stub.types.SessionTimeZone.use(zone)) {
                executeParsed(req, parsed, sql, data, ctx.withProcess(process), session, defaultFormat, out);
            }
        } catch (RuntimeException | IOException | Error e) {
            process.fail(e);
            throw e;
        } finally {
            processes.unregister(process);
        }
    }

    /**
     * The query's client as query_log records it: the HTTP request's method, peer and headers, and the settings the
     * query runs with (its SETTINGS clause too), whose log_comment it carries.
     */
    private static dev.chdedup.stub.exec.ClientInfo clientInfo(HttpRequest req, QueryContext ctx, Statement st) {
        Settings settings = ctx.settings();
        Map<String, String> clause = st instanceof Statement.SelectStmt ? ((Statement.SelectStmt) st).query().settings()
            : st instanceof Statement.Insert ? ((Statement.Insert) st).settings() : Map.of();
        try {
            settings = settings.with(clause);
        } catch (ChException invalid) {
            // the query fails on it when it runs; the log shows the settings it came with
        }
        return new dev.chdedup.stub.exec.ClientInfo(dev.chdedup.stub.exec.ClientInfo.HTTP,
            dev.chdedup.stub.exec.ClientInfo.httpMethodCode(req.method()), req.remoteAddress(),
            firstNonNull(req.header("User-Agent"), ""), firstNonNull(req.header("Referer"), ""),
            firstNonNull(req.header("X-Forwarded-For"), ""), firstNonNull(req.param("quota_key"), req.header("X-ClickHouse-Quota"), ""),
            ctx.database(), settings.get("log_comment"), settings.changed());
    }

    private void executeParsed(HttpRequest req, Parser.Parsed parsed, String sql, InputStream data, QueryContext ctx,
                               Sessions.Session session, String defaultFormat, Output out) throws IOException {
        Statement st = parsed.statement();
        if (st instanceof Statement.Insert) {
            compat.checkInsertSettingsClause(sql, !((Statement.Insert) st).settings().isEmpty());
            compat.checkFormat(((Statement.Insert) st).format());
            checkKnown(((Statement.Insert) st).settings().keySet());
            if (((Statement.Insert) st).select() != null) {
                checkKnown(((Statement.Insert) st).select().settings().keySet());
            }
        } else if (st instanceof Statement.SelectStmt) {
            checkKnown(((Statement.SelectStmt) st).query().settings().keySet());
        } else if (st instanceof Statement.SetStmt) {
            checkKnown(((Statement.SetStmt) st).settings().keySet());
        }
        if (req.method().equals("GET") && !isReadOnly(st)) {
            throw new ChException(ErrorCode.READONLY, "Cannot execute query in readonly mode. For queries over HTTP, method GET implies readonly. You should use method POST for modifying queries");
        }
        // readonly = 1: reads only; readonly = 2: reads and setting changes
        long readonly = ctx.settings().getLong("readonly");
        if (readonly == 1 && st instanceof Statement.SetStmt) {
            throw new ChException(ErrorCode.READONLY, "Cannot modify '" + ((Statement.SetStmt) st).settings().keySet().iterator().next()
                + "' setting in readonly mode");
        }
        if (readonly > 0 && !isReadOnly(st)) {
            throw new ChException(ErrorCode.READONLY, "Cannot execute query in readonly mode");
        }
        events.increment("Query");
        if (st instanceof Statement.SetStmt) {
            Map<String, String> changes = ((Statement.SetStmt) st).settings();
            dev.chdedup.stub.access.SettingsConstraints.check(ctx.settings(), changes, access.settingsOf(ctx.user()).constraints());
            if (changes.containsKey("profile")) { // SET profile = 'p' applies the profile's settings, then the others
                Map<String, String> expanded = new LinkedHashMap<>(access.profile(changes.get("profile")).values());
                expanded.putAll(changes);
                changes = expanded;
            }
            Settings changed = ctx.settings().with(changes);
            if (session != null) {
                session.settings = session.settings.with(changes);
            }
            ctx.withSettings(changed);
            out.finishEmpty(summary(0, 0, 0));
            return;
        }
        if (st instanceof Statement.Use) {
            String db = ((Statement.Use) st).database();
            if (!interpreter.catalogHas(db)) {
                throw StorageCatalog.unknownDatabase(db);
            }
            if (session != null) {
                session.database = db;
            }
            out.finishEmpty(summary(0, 0, 0));
            return;
        }
        if (st instanceof Statement.SetRole && ((Statement.SetRole) st).toUsers() == null) {
            // as in ClickHouse, the roles hold for the session; without one, for this query only
            List<String> roles = access.setRole(ctx.user(), (Statement.SetRole) st);
            if (session != null) {
                session.currentRoles = roles;
            }
            out.finishEmpty(summary(0, 0, 0));
            return;
        }
        if (st instanceof Statement.SetRole) {
            access.setDefaultRole((Statement.SetRole) st, ctx.user());
            access.logged(ctx.user(), sql);
            out.finishEmpty(summary(0, 0, 0));
            return;
        }
        if (st instanceof Statement.AccessEntity || st instanceof Statement.Grant) {
            if (st instanceof Statement.AccessEntity) {
                access.execute((Statement.AccessEntity) st);
            } else {
                access.execute((Statement.Grant) st, ctx.user());
            }
            access.logged(ctx.user(), sql);
            out.finishEmpty(summary(0, 0, 0));
            return;
        }
        hooks.beforeExecute(st, ctx, out.response());
        if (st instanceof Statement.Insert) {
            events.increment("InsertQuery");
        } else if (st instanceof Statement.SelectStmt) {
            events.increment("SelectQuery");
        }
        if ((readonly > 0 || req.method().equals("GET")) && ctx.process() != null
            && ctx.settings().getBool("cancel_http_readonly_queries_on_client_close")) {
            // as ClickHouse's HTTPHandler: a read-only query ends once its client has closed the connection
            ctx.process().watchPeer(req::checkPeerConnected);
        }
        long start = System.nanoTime();
        // an INSERT without FORMAT reads its data as Values, whatever the default output format is
        QueryResult r = st instanceof Statement.ShowGrants ? showGrants((Statement.ShowGrants) st, ctx)
            : interpreter.execute(st, sql, data, "Values", ctx);
        if (r instanceof QueryResult.Done) {
            QueryResult.Done d = (QueryResult.Done) r;
            if (ctx.process() != null) {
                ctx.process().wrote(d.writtenRows(), d.writtenBytes());
            }
            // the query has finished: a client that retries as soon as a fault cuts the answer must not find it running
            if (ctx.process() != null) {
                processes.unregister(ctx.process());
            }
            hooks.afterCommit(st, ctx, out.response());
            if (out.response().aborted() || ctx.bodyCut() && hooks.answeredCutRequest(ctx, out.response())) {
                return;
            }
            out.finishEmpty(out.summary(d.writtenRows(), d.writtenBytes(), d.writtenRows(), d.writtenBytes(), System.nanoTime() - start));
            return;
        }
        QueryResult.Rows rows = (QueryResult.Rows) r;
        String format = firstNonNull(rows.format(), parsed.format(), defaultFormat);
        compat.checkFormat(format);
        if (compat.emptyCompressedResult() && ("1".equals(req.param("compress")) || "true".equals(req.param("compress")))) {
            // ClickHouse 18.16 answers a successful SELECT with compress=1 with status 200 and an empty body
            out.finishEmpty("");
            return;
        }
        // the output format reads the query's own SETTINGS too (SELECT ... FORMAT CSV SETTINGS format_csv_delimiter = ';')
        QueryContext outCtx = st instanceof Statement.SelectStmt && !((Statement.SelectStmt) st).query().settings().isEmpty()
            ? ctx.withSettings(ctx.settings().with(((Statement.SelectStmt) st).query().settings())) : ctx;
        out.writeRows(rows.stream(), format, outCtx, start);
    }

    /**
     * The current roles a query runs with: those of its {@code role} parameters (as a SET ROLE of them for this query,
     * ClickHouse's HTTPHandler since 24.4; the JDBC driver sends them after a SET ROLE), else its session's SET ROLE,
     * else null for the user's default roles.
     */
    private List<String> currentRoles(HttpRequest req, String user, Sessions.Session session) {
        List<String> roles = req.params("role");
        if (roles != null && !roles.isEmpty()) {
            return access.setRole(user, new Statement.SetRole("LIST", List.copyOf(roles), List.of(), null));
        }
        return session == null ? null : session.currentRoles;
    }

    /** SHOW GRANTS [FOR ...]: one String column named as the statement (without SHOW), one GRANT statement a row. */
    private QueryResult showGrants(Statement.ShowGrants st, QueryContext ctx) {
        List<Object[]> rows = new ArrayList<>();
        for (String u : st.users() == null ? List.of(ctx.user()) : st.users()) {
            for (String grant : access.showGrants(u.equals("CURRENT_USER") ? ctx.user() : u)) {
                rows.add(new Object[] {dev.chdedup.stub.types.ByteStrings.fromText(grant)});
            }
        }
        return Interpreter.rows(List.of(new dev.chdedup.stub.data.Column(st.header(), DataTypes.STRING)), rows);
    }

    private static Parser.Parsed parseHead(String text, boolean truncated, QueryParameters params, boolean implicitSelect) {
        try {
            return Parser.parseWithFormat(text, params, implicitSelect);
        } catch (ChException e) {
            if (truncated) {
                // the head may end inside the statement; an INSERT only needs its prefix
                Parser p = new Parser(text, params);
                Statement st = p.parseStatement();
                if (st instanceof Statement.Insert && ((Statement.Insert) st).dataOffset() >= 0) {
                    return new Parser.Parsed(st, null);
                }
                throw new ChException(ErrorCode.QUERY_IS_TOO_LARGE, "Max query size exceeded (can be increased with the max_query_size setting)");
            }
            throw e;
        }
    }

    private static boolean isReadOnly(Statement st) {
        return st instanceof Statement.SelectStmt || st instanceof Statement.ShowTables || st instanceof Statement.ShowCreate
            || st instanceof Statement.Describe || st instanceof Statement.DescribeQuery || st instanceof Statement.Exists || st instanceof Statement.SetStmt
            || st instanceof Statement.Use || st instanceof Statement.ShowGrants || st instanceof Statement.Explain
            || st instanceof Statement.SetRole && ((Statement.SetRole) st).toUsers() == null;
    }

    private String authenticate(HttpRequest req) {
        String user = null;
        String password = null;
        String auth = req.header("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Basic ", 0, 6)) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(auth.substring(6).trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new ChException(ErrorCode.AUTHENTICATION_FAILED, "Malformed Basic authorization header");
            }
            int colon = decoded.indexOf(':');
            user = colon < 0 ? decoded : decoded.substring(0, colon);
            password = colon < 0 ? "" : decoded.substring(colon + 1);
        }
        if (req.header("X-ClickHouse-User") != null) {
            user = req.header("X-ClickHouse-User");
            password = firstNonNull(req.header("X-ClickHouse-Key"), "");
        }
        if (req.param("user") != null) {
            user = req.param("user");
            password = firstNonNull(req.param("password"), "");
        }
        if (user == null || user.isEmpty()) {
            user = "default";
            password = firstNonNull(password, "");
        }
        if (!access.authenticate(user, password)) {
            // a request without any credentials that the default user refuses is asked for them (401 with
            // WWW-Authenticate, REQUIRED_PASSWORD), as ClickHouse does since 24.12; any other failure is 516 / 403
            boolean noCredentials = auth == null && req.header("X-ClickHouse-User") == null && req.param("user") == null
                && req.param("password") == null;
            ErrorCode code = noCredentials && compat.version() == null ? ErrorCode.REQUIRED_PASSWORD : ErrorCode.AUTHENTICATION_FAILED;
            throw new ChException(code, user + ": Authentication failed: password is incorrect, or there is no user with such name");
        }
        return user;
    }

    /** The zone of session_timezone (the statement's SETTINGS first), the server's when it is empty. */
    private static java.time.ZoneId sessionZone(Statement st, QueryContext ctx) {
        Map<String, String> own = st instanceof Statement.SelectStmt ? ((Statement.SelectStmt) st).query().settings()
            : st instanceof Statement.Insert ? ((Statement.Insert) st).settings() : Map.of();
        String name = own.getOrDefault("session_timezone", ctx.settings().get("session_timezone"));
        return dev.chdedup.stub.types.SessionTimeZone.parse(name);
    }

    static String summary(long writtenRows, long writtenBytes, long elapsedNs) {
        return "{\"read_rows\":\"0\",\"read_bytes\":\"0\",\"written_rows\":\"" + writtenRows + "\",\"written_bytes\":\"" + writtenBytes
            + "\",\"total_rows_to_read\":\"0\",\"result_rows\":\"" + writtenRows + "\",\"result_bytes\":\"" + writtenBytes
            + "\",\"elapsed_ns\":\"" + elapsedNs + "\"}";
    }

    static ChException toChException(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof dev.chdedup.stub.http.HttpException && ((dev.chdedup.stub.http.HttpException) c).status() == 400) {
                // broken request framing (e.g. a malformed chunk), however a reader wrapped it: the client's fault,
                // answered 400 as ClickHouse's HTTPChunkedReadBuffer does
                return new ChException(ErrorCode.BAD_REQUEST_PARAMETER, String.valueOf(c.getMessage()));
            }
        }
        if (t instanceof ChException) {
            return (ChException) t;
        }
        if (t.getCause() instanceof ChException) {
            return (ChException) t.getCause();
        }
        if (t instanceof dev.chdedup.stub.compress.CorruptedDataException) {
            return new ChException(ErrorCode.CHECKSUM_DOESNT_MATCH, t.getMessage());
        }
        if (t instanceof dev.chdedup.stub.http.CorruptedContentException) {
            String enc = ((dev.chdedup.stub.http.CorruptedContentException) t).encoding();
            ErrorCode code = enc.equals("zstd") ? ErrorCode.ZSTD_DECODER_FAILED : enc.equals("lz4") ? ErrorCode.LZ4_DECODER_FAILED
                : ErrorCode.ZLIB_INFLATE_FAILED;
            return new ChException(code, t.getMessage());
        }
        if (t instanceof java.io.EOFException) {
            return new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data: unexpected end of the request body");
        }
        if (t instanceof dev.chdedup.stub.http.HttpException) {
            return new ChException(ErrorCode.UNKNOWN_EXCEPTION, withoutPathsAndClasses(t.getMessage()));
        }
        if (t instanceof ArithmeticException) {
            return new ChException(ErrorCode.ILLEGAL_DIVISION, withoutPathsAndClasses(t.getMessage()));
        }
        if (t instanceof ClassCastException) {
            // a value of a type the function did not check for: the user's query, not the server, is at fault
            return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type of argument for the operation: "
                + withoutPathsAndClasses(String.valueOf(t.getMessage()).replaceAll(" \\(.*", "").replace("class ", "")));
        }
        if (t instanceof NumberFormatException) {
            return new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Cannot parse number: " + t.getMessage());
        }
        if (t instanceof StackOverflowError) {
            return new ChException(ErrorCode.TOO_DEEP_RECURSION, "Maximum recursion depth exceeded");
        }
        if (t instanceof OutOfMemoryError) {
            // the query's allocations die with it and the server keeps serving; an OutOfMemoryError on a server
            // thread outside a query (acceptor, head waiter, a worker writing this answer) is fatal (HttpServer)
            return new ChException(ErrorCode.MEMORY_LIMIT_EXCEEDED, "Memory limit exceeded");
        }
        LOG.warn("Unexpected error", t);
        if (t instanceof RuntimeException && t.getCause() instanceof IOException) {
            t = t.getCause();
        }
        if (t instanceof java.nio.file.NoSuchFileException || t instanceof java.io.FileNotFoundException) {
            return new ChException(ErrorCode.FILE_DOESNT_EXIST, "A file of the table does not exist (was it dropped meanwhile?)");
        }
        if (t instanceof IOException) {
            return new ChException(ErrorCode.SYSTEM_ERROR, "I/O error in the data directory: " + withoutPathsAndClasses(t.getMessage()));
        }
        // the server log has the stack trace; the client gets neither paths nor Java class names
        return new ChException(ErrorCode.LOGICAL_ERROR, "Unexpected error in the server: " + withoutPathsAndClasses(t.getMessage()));
    }

    /** A message fit for a client: absolute paths and qualified Java class names replaced by placeholders. */
    static String withoutPathsAndClasses(String message) {
        if (message == null) {
            return "(no details)";
        }
        return message.replaceAll("(?<![\\w.])/[^\\s'\"`,;:()]+", "<path>")
            .replaceAll("\\b(?:[a-z_][\\w$]*\\.)+([A-Z][\\w$]*)", "$1")
            .replaceAll("\\b[A-Z]\\w*(?:Exception|Error)\\b:? ?", "");
    }

    private static java.time.Duration seconds(Settings s, String name) {
        return s.isChanged(name) ? java.time.Duration.ofMillis(dev.chdedup.stub.exec.SettingFields.parseSeconds(s.get(name)))
            : java.time.Duration.ZERO;
    }

    static String firstNonNull(String... v) {
        for (String s : v) {
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    private static void text(HttpResponse resp, int status, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        resp.status(status);
        resp.contentType("text/plain; charset=UTF-8");
        resp.contentLength(b.length);
        OutputStream os = resp.body();
        os.write(b);
    }
}
