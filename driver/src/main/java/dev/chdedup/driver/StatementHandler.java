package dev.chdedup.driver;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The driver's Statement: an INSERT passed to {@code execute}, {@code executeUpdate}, {@code executeLargeUpdate}
 * or a batch ({@code addBatch} + {@code executeBatch}) runs through the {@link InsertExecutor}, one token per
 * execution; anything else goes to the official driver's statement untouched.
 */
final class StatementHandler implements InvocationHandler {
    private final Statement delegate;
    private final Connection connection;
    private final InsertExecutor executor;
    private final List<String> batch = new ArrayList<>();
    /** The update count of the last INSERT this handler ran, or -1 when the last execution was the delegate's. */
    private long lastInsertCount = -1;
    /** {@link #lastInsertCount} after getMoreResults moved past an INSERT's count: no result is left. */
    private static final long RESULTS_CONSUMED = -2;
    private final StatementTokens tokens = new StatementTokens();

    private StatementHandler(Statement delegate, Connection connection, InsertExecutor executor) {
        this.delegate = delegate;
        this.connection = connection;
        this.executor = executor;
    }

    static Statement wrap(Statement delegate, Connection connection, InsertExecutor executor) {
        return Proxies.create(Statement.class, new Class<?>[] {DedupStatement.class}, new StatementHandler(delegate, connection, executor));
    }

    @Override
    public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
        if (Proxies.isCommon(m)) {
            return Proxies.common(proxy, delegate, m, args, "DedupStatement");
        }
        String name = m.getName();
        if (tokens.handles(name)) {
            return tokens.answer(name, args);
        }
        switch (name) {
            case "getConnection":
                return connection;
            case "execute":
            case "executeUpdate":
            case "executeLargeUpdate": {
                String sql = (String) args[0];
                SqlText.Kind kind = executor.config().enabled() ? SqlText.classify(sql) : SqlText.Kind.OTHER;
                if (kind == SqlText.Kind.OTHER) {
                    lastInsertCount = -1;
                    return Proxies.invoke(delegate, m, args);
                }
                long n = insert(sql, kind);
                if (name.equals("execute")) {
                    return false;
                }
                return name.equals("executeUpdate") ? (Object) (int) Math.min(Integer.MAX_VALUE, n) : (Object) n;
            }
            case "addBatch":
                batch.add((String) args[0]);
                return null;
            case "clearBatch":
                batch.clear();
                return Proxies.invoke(delegate, m, args);
            case "executeBatch":
            case "executeLargeBatch": {
                long[] counts = executeBatch();
                return name.equals("executeLargeBatch") ? counts : Proxies.narrow(counts);
            }
            case "getUpdateCount":
                return lastInsertCount == RESULTS_CONSUMED ? (Object) (-1)
                    : lastInsertCount >= 0 ? (Object) (int) Math.min(Integer.MAX_VALUE, lastInsertCount) : Proxies.invoke(delegate, m, args);
            case "getLargeUpdateCount":
                return lastInsertCount == RESULTS_CONSUMED ? (Object) (-1L)
                    : lastInsertCount >= 0 ? (Object) lastInsertCount : Proxies.invoke(delegate, m, args);
            case "getResultSet":
                return lastInsertCount >= 0 || lastInsertCount == RESULTS_CONSUMED ? null : Proxies.invoke(delegate, m, args);
            case "getMoreResults":
                // an INSERT this driver ran has one result, its count: after it there are no more (getUpdateCount -1),
                // which is how JDBC callers (Liquibase's executor, Spring's JdbcTemplate) know they are done
                if (lastInsertCount >= 0 || lastInsertCount == RESULTS_CONSUMED) {
                    lastInsertCount = RESULTS_CONSUMED;
                    return false;
                }
                return Proxies.invoke(delegate, m, args);
            default:
                return Proxies.invoke(delegate, m, args);
        }
    }

    private long insert(String sql, SqlText.Kind kind) throws SQLException {
        InsertExecutor.Outcome o;
        long rows = kind == SqlText.Kind.INSERT_VALUES ? SqlText.valuesRowCount(sql) : -1;
        try {
            o = tokens.execute(executor, delegate, sql, kind, rows);
        } catch (SQLException e) {
            lastInsertCount = -1;
            throw e;
        }
        // a retry the server dropped as a duplicate reports 0 written: its rows landed with the attempt before
        lastInsertCount = Math.max(0, o.landedRows(rows));
        return lastInsertCount;
    }

    private long[] executeBatch() throws SQLException {
        List<String> entries = new ArrayList<>(batch);
        batch.clear();
        long[] counts = new long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            String sql = entries.get(i);
            try {
                SqlText.Kind kind = executor.config().enabled() ? SqlText.classify(sql) : SqlText.Kind.OTHER;
                counts[i] = kind == SqlText.Kind.OTHER ? delegate.executeLargeUpdate(sql) : insert(sql, kind);
            } catch (SQLException e) {
                long[] done = Arrays.copyOf(counts, i);
                throw new BatchUpdateException(e.getMessage(), e.getSQLState(), e.getErrorCode(), done, e);
            }
        }
        lastInsertCount = -1;
        return counts;
    }
}
