package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * The queries this server ran, as {@code system.query_log} shows them: a {@code QueryStart} row when a query
 * starts and a {@code QueryFinish} or {@code ExceptionWhileProcessing} row (with the error's code and text) when
 * it ends, newest last, the oldest dropped beyond {@link #MAX_ENTRIES}. Rows are visible at once (ClickHouse
 * flushes every 7.5 seconds or on {@code SYSTEM FLUSH LOGS}; tests that flush first see the same). Mirrors
 * ClickHouse's QueryLog / QueryLogElement.
 */
public final class QueryLog {
    /** The rows kept: the log is for tests and tools, bounded so a long-running stub does not grow without end. */
    public static final int MAX_ENTRIES = 10_000;

    /** ClickHouse's QueryLogElementType values. */
    public enum Type {
        QueryStart(1), QueryFinish(2), ExceptionBeforeStart(3), ExceptionWhileProcessing(4);

        public final long code;

        Type(long code) {
            this.code = code;
        }
    }

    /** One row. */
    public record Element(Type type, Instant eventTime, Instant queryStartTime, long durationMs, String queryId,
                          String user, String query, String queryKind, int exceptionCode, String exception, long readRows,
                          long readBytes, long writtenRows, long writtenBytes, long resultRows, ClientInfo client) {
    }

    private final Deque<Element> elements = new ArrayDeque<>();

    synchronized void add(Element e) {
        elements.addLast(e);
        while (elements.size() > MAX_ENTRIES) {
            elements.removeFirst();
        }
    }

    public synchronized List<Element> snapshot() {
        return new ArrayList<>(elements);
    }

    void started(ProcessList.Entry p) {
        add(new Element(Type.QueryStart, p.startTime, p.startTime, 0, p.queryId, p.user, p.query, kind(p.query), 0, "", 0, 0, 0, 0, 0, p.client));
    }

    void finished(ProcessList.Entry p) {
        Throwable f = p.failure();
        long ms = (long) (p.elapsedSeconds() * 1000);
        Instant now = Instant.now();
        if (f == null) {
            add(new Element(Type.QueryFinish, now, p.startTime, ms, p.queryId, p.user, p.query, kind(p.query), 0, "",
                p.readRows(), p.readBytes(), p.writtenRows(), p.writtenBytes(), p.resultRows(), p.client));
        } else {
            int code = f instanceof ChException ? ((ChException) f).code().code : 1001;
            String text = f instanceof ChException ? ((ChException) f).displayText() : String.valueOf(f.getMessage());
            add(new Element(Type.ExceptionWhileProcessing, now, p.startTime, ms, p.queryId, p.user, p.query, kind(p.query),
                code, text, p.readRows(), p.readBytes(), p.writtenRows(), p.writtenBytes(), p.resultRows(), p.client));
        }
    }

    /** ClickHouse's query_kind: Select, Insert, Create, Drop, Alter, ... from the first keyword. */
    public static String kind(String query) {
        String q = query.stripLeading();
        int i = 0;
        while (i < q.length() && Character.isLetter(q.charAt(i))) {
            i++;
        }
        String w = q.substring(0, i).toUpperCase(Locale.ROOT);
        switch (w) {
            case "SELECT": case "WITH": return "Select";
            case "INSERT": return "Insert";
            case "CREATE": return "Create";
            case "DROP": return "Drop";
            case "ALTER": case "DELETE": return "Alter";
            case "SHOW": return "Show";
            case "DESCRIBE": case "DESC": return "Describe";
            case "EXISTS": return "Exists";
            case "SYSTEM": return "System";
            case "SET": return "Set";
            case "USE": return "Use";
            case "OPTIMIZE": return "Optimize";
            case "KILL": return "KillQuery";
            case "TRUNCATE": return "Drop";
            default: return "";
        }
    }
}
