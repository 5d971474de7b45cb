package dev.chdedup.it.real;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement's outcome over ClickHouse's HTTP interface, in the form the differential tests compare: {@code Ok.} for a
 * statement, a SELECT's body, or {@code Code N} and the error text ({@link #comparable} keeps only the code, since the
 * texts of two implementations differ in details such as the server's address). A failure to get any answer is an
 * IOException, which the caller tells apart (a crashed reference, a stub that hung).
 */
final class StatementOutcomes {
    private static final Pattern CODE = Pattern.compile("Code: (\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private StatementOutcomes() {
    }

    /** Runs {@code sql} at {@code url} with {@code settings} as URL parameters: Ok., the SELECT's body, or "Code N text". */
    static String outcome(String url, String sql, Map<String, String> settings) throws IOException, InterruptedException {
        StringBuilder q = new StringBuilder("/?");
        for (Map.Entry<String, String> e : settings.entrySet()) {
            q.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).append('&');
        }
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + q)).timeout(Duration.ofSeconds(90))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
            return sql.startsWith("SELECT") ? r.body() : "Ok.";
        }
        Matcher m = CODE.matcher(r.body());
        return m.find() ? "Code " + m.group(1) + " " + r.body().strip() : "HTTP " + r.statusCode() + " " + r.body().strip();
    }

    /** An outcome as compared: an error's code without its text. */
    static String comparable(String outcome) {
        return outcome.replaceAll("(?s)^(Code \\d+) .*", "$1");
    }
}
