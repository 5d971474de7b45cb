package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * One statement per query: any number of trailing {@code ;} (and comments after them) are allowed, as the engine
 * answers; a second statement is refused with the text of ClickHouse's parseQuery (tryParseQuery with
 * allow_multi_statements off). The engine as a library runs every statement of a text, as clickhouse-local does, so
 * the refusal is the server's: its text as servers answer it ({@code failed at position 9 (end of query): ; SELECT 2.
 * . (SYNTAX_ERROR)}), byte positions, the line and column of a multi-line query, and the rest of the text cut at 160
 * characters.
 */
class MultiStatementsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT 1;", "1"},
            {"SELECT 1;;", "1"},
            {"SELECT 1 ; ; ", "1"},
            {"SELECT 1; -- a comment", "1"},
            {"CREATE TABLE tms (a UInt8) ENGINE = Memory;", ""},
            {"INSERT INTO tms VALUES (1);", ""},
            {"SELECT count() FROM tms;", "1"},
            {"SELECT 1; SELECT 2", "Code: 62 SYNTAX_ERROR"},
            {"INSERT INTO tms SELECT 2; SELECT 3", "Code: 62 SYNTAX_ERROR"},
            {"SELECT count() FROM tms", "1"},
        };
    }

    @Test
    void aSecondStatementFailsWithTheServersText() throws Exception {
        String more = "x".repeat(170);
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertEquals("Code: 62. DB::Exception: Syntax error (Multi-statements are not allowed): failed at position 9 (end of query):"
                + " ; SELECT 2. . (SYNTAX_ERROR)", error(s, "SELECT 1; SELECT 2"));
            assertEquals("Code: 62. DB::Exception: Syntax error (Multi-statements are not allowed): failed at position 12 (end of query)"
                + " (line 2, col 5): ;\nSELECT 2 -- c\n. . (SYNTAX_ERROR)", error(s, "SELECT\n'ü';\nSELECT 2 -- c\n"));
            assertEquals("Code: 62. DB::Exception: Syntax error (Multi-statements are not allowed): failed at position 10 (end of query):"
                + " ;; SELECT " + "x".repeat(150) + "... . (SYNTAX_ERROR)", error(s, "SELECT 1 ;; SELECT " + more));
        }
    }

    private static String error(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode());
        return r.body().replaceAll(" \\(version [^)]*\\)\n$", "");
    }
}
