package dev.chdedup.driver;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a wrapped statement remembers about its INSERT executions, behind {@link DedupStatement}: the token and
 * attempts of the last one (set as well when it gave up, since that token is what a safe re-send needs), and the
 * token the caller chose for the next one. Shared by the Statement and PreparedStatement wrappers.
 */
final class StatementTokens {
    private String lastToken;
    private int lastAttempts;
    /** The token the next INSERT execution uses instead of a fresh one (DedupStatement.setNextToken), then cleared. */
    private String nextToken;

    /** Whether {@code method} is one of {@link DedupStatement}'s, answered by {@link #answer}. */
    boolean handles(String method) {
        return method.equals("lastToken") || method.equals("lastAttempts") || method.equals("setNextToken");
    }

    Object answer(String method, Object[] args) {
        switch (method) {
            case "lastToken":
                return lastToken;
            case "lastAttempts":
                return lastAttempts;
            default:
                nextToken = (String) args[0];
                return null;
        }
    }

    /** Runs one INSERT execution through {@code executor}, recording its token and attempts. */
    InsertExecutor.Outcome execute(InsertExecutor executor, Statement stmt, String sql, SqlText.Kind kind, long rows)
        throws SQLException {
        return run(token -> executor.execute(stmt, sql, kind, rows, token));
    }

    /** Runs one RowBinary batch through {@code executor}, recording its token and attempts. */
    InsertExecutor.Outcome executeRowBinary(InsertExecutor executor, String statement, RowBinaryBatch batch) throws SQLException {
        return run(token -> executor.executeRowBinary(statement, batch, token));
    }

    private interface Execution {
        InsertExecutor.Outcome run(String token) throws SQLException;
    }

    private InsertExecutor.Outcome run(Execution execution) throws SQLException {
        String token = nextToken;
        nextToken = null;
        try {
            InsertExecutor.Outcome o = execution.run(token);
            lastToken = o.token();
            lastAttempts = o.attempts();
            return o;
        } catch (DedupInsertException e) {
            lastToken = e.token();
            lastAttempts = e.attempts();
            throw e;
        }
    }
}
