package dev.chdedup.stub.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.exec.EngineAnswers;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A typical application's migrations and queries (application/shop.sql: tables of the MergeTree family, every kind
 * of column ALTER, views and a materialized view, renames and an exchange, inserts, lightweight deletes, joins,
 * aggregates, date and map functions) replayed on the stub in order: each answer must be the engine's. Recorded
 * answers (shop.answers, from ClickHouse 26.7) hold it everywhere; where chDB installs, the same script runs on the
 * engine itself and the two are compared statement by statement.
 */
class ApplicationMigrationsTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theStubAnswersAsTheRecordedEngine() throws Exception {
        List<String> sql = ApplicationScript.statements("shop");
        List<String> recorded = ApplicationScript.answers("shop");
        assertEquals(sql.size(), recorded.size(), "shop.answers is not a recording of shop.sql: record it again");
        assertEquals("", differences(sql, recorded, stubAnswers(sql)));
    }

    @Test
    void theStubAnswersAsTheEngineItself() throws Exception {
        EngineOracle engine;
        try {
            engine = EngineOracle.start();
        } catch (EngineOracle.Unavailable e) {
            org.junit.jupiter.api.Assumptions.abort(e.getMessage()); // skipped, saying why, where chDB cannot run
            return;
        }
        List<String> sql = ApplicationScript.statements("shop");
        List<String> live = new ArrayList<>();
        try (engine) {
            for (String s : sql) {
                live.add(ApplicationScript.recorded(engine.query(s, Map.of(), null)));
            }
        }
        assertEquals("", differences(sql, live, stubAnswers(sql)));
    }

    private static List<String> stubAnswers(List<String> sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            for (String q : sql) {
                HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
                    .POST(HttpRequest.BodyPublishers.ofString(q)).build(), HttpResponse.BodyHandlers.ofByteArray());
                out.add(EngineAnswers.asRecorded(r.body()));
            }
        }
        return out;
    }

    private static String differences(List<String> sql, List<String> engine, List<String> stub) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sql.size(); i++) {
            if (!engine.get(i).equals(stub.get(i))) {
                b.append('\n').append(i + 1).append(": ").append(sql.get(i)).append("\n    engine: ").append(engine.get(i))
                    .append("\n    stub:   ").append(stub.get(i));
            }
        }
        return b.toString();
    }
}
