package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The stub's answers to SQL over HTTP, held against answers recorded from the real engine (ClickHouse 26.7 as chDB,
 * the oracle of shared/oracle/chdb_http.js): a result is its TabSeparated text without the last newline, an error its
 * code and name ({@code Code: 43 ILLEGAL_TYPE_OF_ARGUMENT}), since the two servers word their messages differently.
 * A subclass gives the cases; the test runs them on a fresh server.
 */
public abstract class EngineAnswers {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern CODE = Pattern.compile("^Code: (\\d+)");
    private static final Pattern NAME = Pattern.compile("\\(([A-Z][A-Z_0-9]+)\\)");

    /** {query, answer} pairs, the answers ClickHouse 26.7's, taken from the engine through the oracle. */
    abstract String[][] cases();

    @Test
    void answersAsTheEngineDoes() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            assertAnswers(s, cases());
        }
    }

    /** The answer to {@code sql}, with {@code params} (a URL query string, or empty) as the request's parameters. */
    static String answer(StubServer s, String params, String sql) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?" + params))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofByteArray());
        return asRecorded(r.body());
    }

    /** A response body as the recorded answers are: the text without its last newline, or an error's code and name. */
    public static String asRecorded(byte[] response) {
        String body = new String(response, StandardCharsets.UTF_8);
        Matcher code = CODE.matcher(body);
        if (code.find()) {
            Matcher name = NAME.matcher(body);
            String last = null;
            while (name.find()) {
                last = name.group(1);
            }
            return "Code: " + code.group(1) + " " + last;
        }
        return body.endsWith("\n") ? body.substring(0, body.length() - 1) : body;
    }

    static String answer(StubServer s, String sql) throws Exception {
        return answer(s, "", sql);
    }

    /** Each {sql, the engine's answer} pair answered alike by the stub; names every one that is not. */
    static void assertAnswers(StubServer s, String[][] cases) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String[] c : cases) {
            String got = answer(s, c[0]);
            if (!got.equals(c[1])) {
                wrong.add(c[0] + "\n    engine: " + c[1] + "\n    stub:   " + got);
            }
        }
        assertEquals("", String.join("\n", wrong));
    }
}
