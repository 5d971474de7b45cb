package dev.chdedup.stub.fault;

import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.http.HttpResponse;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.io.InputStream;

/** Per-query hooks (fault injection attaches here). */
public interface QueryHooks {
    QueryHooks NONE = new QueryHooks() {
    };

    default void beforeExecute(Statement st, QueryContext ctx, HttpResponse resp) throws IOException {
    }

    default void afterCommit(Statement st, QueryContext ctx, HttpResponse resp) throws IOException {
    }

    /**
     * The raw request body (before {@code decompress=1} is undone) of a query whose text is {@code urlQuery} or
     * the body's start; a failpoint may cut it, and marks {@code ctx} so.
     */
    default InputStream requestBody(InputStream body, String urlQuery, boolean decompress, QueryContext ctx) throws IOException {
        return body;
    }

    /**
     * Called once the query whose body a failpoint cut has committed or failed: true when the hook has answered (or
     * reset the connection) in the server's place.
     */
    default boolean answeredCutRequest(QueryContext ctx, HttpResponse resp) throws IOException {
        return false;
    }
}
