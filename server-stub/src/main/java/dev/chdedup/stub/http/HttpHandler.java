package dev.chdedup.stub.http;

import java.io.IOException;

/**
 * The application callback of {@link HttpServer}: invoked once per request, on the connection's worker thread,
 * in the order requests arrive on that connection. The handler reads {@link HttpRequest#body()} as far as it
 * wants and writes the answer through {@link HttpResponse}; the server finishes the response, drains any unread
 * request body and keeps the connection alive afterwards. If the handler throws before anything was committed
 * the client gets a plain-text error (500, or the status of an {@link HttpException}); after a commit the
 * connection is closed.
 */
@FunctionalInterface
public interface HttpHandler {

    void handle(HttpRequest req, HttpResponse resp) throws IOException;
}
