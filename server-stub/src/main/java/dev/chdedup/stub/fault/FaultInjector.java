package dev.chdedup.stub.fault;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.http.HttpResponse;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects faults into INSERT requests as the active {@link FaultRule}s say, and keeps a journal of what fired
 * that tests can assert against. Rules are added from Java ({@link #add}) or SQL
 * ({@code SYSTEM ENABLE FAILPOINT name [FOR n INSERTS] [ON TABLE t] [CODE n] [DELAY ms]}); a rule limited to
 * {@code n} inserts removes itself after firing {@code n} times. Thread-safe.
 */
public final class FaultInjector implements QueryHooks {
    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);

    /** One fault that fired. */
    public record Event(FaultKind kind, String database, String table, String queryId, long timeMillis) {
    }

    private static final class Active {
        final FaultRule rule;
        int fired;

        Active(FaultRule rule) {
            this.rule = rule;
        }
    }

    private final List<Active> rules = new ArrayList<>();
    private final List<Event> journal = new ArrayList<>();

    public synchronized FaultInjector add(FaultRule rule) {
        rules.add(new Active(rule));
        return this;
    }

    /** Removes every rule of {@code kind}. */
    public synchronized void remove(FaultKind kind) {
        rules.removeIf(a -> a.rule.kind() == kind);
    }

    public synchronized void clear() {
        rules.clear();
    }

    public synchronized List<Event> journal() {
        return List.copyOf(journal);
    }

    public synchronized int fired(FaultKind kind) {
        int n = 0;
        for (Event e : journal) {
            if (e.kind() == kind) {
                n++;
            }
        }
        return n;
    }

    /** Takes the first rule that matches this insert at this stage, counting it as fired. */
    private synchronized FaultRule take(boolean afterCommit, String db, String table, String queryId) {
        return take(k -> k.afterCommit() == afterCommit && !k.cutsBody(), db, table, queryId);
    }

    private synchronized FaultRule take(java.util.function.Predicate<FaultKind> stage, String db, String table, String queryId) {
        for (Iterator<Active> it = rules.iterator(); it.hasNext(); ) {
            Active a = it.next();
            if (stage.test(a.rule.kind()) && a.rule.matches(db, table)) {
                a.fired++;
                if (a.rule.times() > 0 && a.fired >= a.rule.times()) {
                    it.remove();
                }
                journal.add(new Event(a.rule.kind(), db, table, queryId, System.currentTimeMillis()));
                LOG.info("Injecting fault {} into insert into {}.{} (query {})", a.rule.kind(), db, table, queryId);
                return a.rule;
            }
        }
        return null;
    }

    @Override
    public void beforeExecute(Statement st, QueryContext ctx, HttpResponse resp) throws IOException {
        if (!(st instanceof Statement.Insert)) {
            return;
        }
        Statement.Insert ins = (Statement.Insert) st;
        FaultRule r = take(false, ins.database() != null ? ins.database() : ctx.database(), ins.table(), ctx.queryId());
        if (r == null) {
            return;
        }
        switch (r.kind()) {
            case DROP_BEFORE_BODY:
                resp.abort();
                throw new FaultFired();
            case HTTP_503: {
                byte[] b = "Service Unavailable: injected fault\n".getBytes(StandardCharsets.UTF_8);
                resp.status(503);
                resp.contentType("text/plain; charset=UTF-8");
                resp.contentLength(b.length);
                resp.body().write(b);
                throw new FaultFired();
            }
            case ERROR_CODE:
                throw new ChException(codeOf(r.errorCode()), "Injected fault: error " + r.errorCode() + " before the insert");
            default:
                break;
        }
    }

    @Override
    public void afterCommit(Statement st, QueryContext ctx, HttpResponse resp) throws IOException {
        if (!(st instanceof Statement.Insert)) {
            return;
        }
        Statement.Insert ins = (Statement.Insert) st;
        FaultRule r = take(true, ins.database() != null ? ins.database() : ctx.database(), ins.table(), ctx.queryId());
        if (r == null) {
            return;
        }
        switch (r.kind()) {
            case DROP_AFTER_COMMIT:
                resp.abort();
                break;
            case CLOSE_AFTER_COMMIT:
                resp.closeWithoutResponse();
                break;
            case ERROR_AFTER_COMMIT:
                throw new ChException(codeOf(r.errorCode()), "Injected fault: the insert was committed, then error " + r.errorCode());
            case DELAY_RESPONSE:
                try {
                    Thread.sleep(r.delayMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                break;
            default:
                break;
        }
    }

    /** The queries whose body a failpoint cut, and how each is to be answered once it committed or failed. */
    private final java.util.Map<String, FaultKind> cutQueries = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.regex.Pattern INSERT_INTO = java.util.regex.Pattern.compile(
        "(?is)^\\s*INSERT\\s+INTO\\s+(?:TABLE\\s+)?(?:`?(\\w+)`?\\.)?`?(\\w+)`?");

    private synchronized boolean anyCutRule() {
        return rules.stream().anyMatch(a -> a.rule.kind().cutsBody());
    }

    /**
     * {@link FaultKind#COMMIT_CUT_BODY}: an INSERT's raw body (still compressed under {@code decompress=1}) is cut at
     * half its bytes. The whole body is read first, so the statement (in the URL or at the body's start) names the table.
     */
    @Override
    public java.io.InputStream requestBody(java.io.InputStream body, String urlQuery, boolean decompress, QueryContext ctx) throws IOException {
        if (!anyCutRule()) {
            return body;
        }
        byte[] all = body.readAllBytes();
        String head = urlQuery;
        if (head == null) {
            byte[] text = all;
            if (decompress) {
                try (java.io.InputStream in = new dev.chdedup.stub.compress.CompressedBlockInputStream(new java.io.ByteArrayInputStream(all))) {
                    text = in.readNBytes(4096);
                } catch (IOException notCompressed) {
                    text = new byte[0];
                }
            }
            head = new String(text, 0, Math.min(text.length, 4096), StandardCharsets.UTF_8);
        }
        java.util.regex.Matcher m = INSERT_INTO.matcher(head);
        FaultRule r = m.find() ? take(FaultKind::cutsBody, m.group(1) != null ? m.group(1) : ctx.database(), m.group(2), ctx.queryId()) : null;
        if (r == null) {
            return new java.io.ByteArrayInputStream(all);
        }
        ctx.markBodyCut();
        cutQueries.put(ctx.queryId(), r.kind());
        return new java.io.ByteArrayInputStream(all, 0, all.length / 2);
    }

    /** After the cut insert committed what it held (or failed): the connection is reset, or answered 200 with Code 209. */
    @Override
    public boolean answeredCutRequest(QueryContext ctx, HttpResponse resp) throws IOException {
        FaultKind k = cutQueries.remove(ctx.queryId());
        if (k == null) {
            return false;
        }
        if (k == FaultKind.COMMIT_CUT_BODY) {
            resp.abort();
        } else {
            resp.status(200);
            resp.header("X-ClickHouse-Exception-Code", "209");
            resp.contentLength(0);
            resp.body().flush();
        }
        return true;
    }

    static ErrorCode codeOf(int code) {
        return ErrorCode.of(code);
    }

    /** Thrown after a fault already wrote (or abandoned) the response: the handler must not answer again. */
    public static final class FaultFired extends IOException {
        private static final long serialVersionUID = 1L;

        FaultFired() {
            super("injected fault", null);
        }
    }
}
