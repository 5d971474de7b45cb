package dev.chdedup.driver;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.data.ClickHouseFormat;
import com.clickhouse.jdbc.ConnectionImpl;
import com.clickhouse.jdbc.internal.ExceptionUtils;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Sends one attempt of a RowBinary batch through the official client of the connection ({@code Client.insert}): the
 * statement goes in the URL's {@code query}, the recorded bytes are written as the body straight from the batch's buffer
 * (into the client's LZ4 frame when the body is framed), and an error becomes the SQLException the official JDBC driver
 * throws for a text INSERT ({@code ExceptionUtils.toSqlState}), so the retry policy classifies both paths alike.
 */
final class RowBinarySender {
    static final String PREFIX = "INSERT INTO ";
    static final String SUFFIX = " FORMAT RowBinary";

    private RowBinarySender() {
    }

    /** The statement a RowBinary batch into {@code target} ({@code `db`.`t` (`a`, `b`)}) is sent with. */
    static String statement(String target) {
        return PREFIX + target + SUFFIX;
    }

    /** Sends {@code statement} (as {@link #statement} builds it) with {@code body}; returns the rows the server wrote. */
    static long send(Connection delegate, String statement, InsertExecutor.RowBinaryBody body, InsertSettings settings) throws SQLException {
        if (!statement.startsWith(PREFIX) || !statement.endsWith(SUFFIX)) {
            throw new SQLException("Not a RowBinary insert statement: " + statement, "HY000");
        }
        // Client.insert writes "INSERT INTO " + table + " FORMAT RowBinary": the target carries the column list
        String target = statement.substring(PREFIX.length(), statement.length() - SUFFIX.length());
        Client client = delegate.unwrap(ConnectionImpl.class).getClient();
        try (InsertResponse r = client.insert(target, body::writeTo, ClickHouseFormat.RowBinary, settings)
            .get()) {
            return r.getWrittenRows();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while sending an INSERT", "HY008", e);
        } catch (Exception e) {
            Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() instanceof Exception ? e.getCause() : e;
            throw ExceptionUtils.toSqlState((Exception) cause);
        }
    }
}
