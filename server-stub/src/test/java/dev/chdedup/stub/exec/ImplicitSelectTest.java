package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import org.junit.jupiter.api.Test;

/**
 * The setting implicit_select, held to the engine's answers: off (a server's default) a bare expression is a syntax
 * error; on (clickhouse-local's) it is the SELECT of those expressions, and what reads as neither keeps its syntax error.
 */
class ImplicitSelectTest {
    @Test
    void aBareExpressionIsASelectOnlyWhenAsked() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            // {URL parameters, query, the engine's answer}
            String[][] cases = {
                {"", "1 + 2", "Code: 62 SYNTAX_ERROR"},
                {"implicit_select=0", "factorial(10)", "Code: 62 SYNTAX_ERROR"},
                {"implicit_select=1", "1 + 2", "3"},
                {"implicit_select=1", "factorial(10)", "3628800"},
                {"implicit_select=1", "1 +", "Code: 62 SYNTAX_ERROR"},
                {"implicit_select=1", "SELECT 1 + 2", "3"},
            };
            StringBuilder wrong = new StringBuilder();
            for (String[] c : cases) {
                String got = EngineAnswers.answer(s, c[0], c[1]);
                if (!got.equals(c[2])) {
                    wrong.append(c[0]).append(' ').append(c[1]).append(": engine ").append(c[2]).append(", stub ").append(got).append('\n');
                }
            }
            assertEquals("", wrong.toString());
        }
    }
}
