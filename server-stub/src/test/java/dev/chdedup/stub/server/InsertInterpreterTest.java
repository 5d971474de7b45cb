package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * INSERTs, synchronous and async, racing DROP TABLE / CREATE TABLE of their table: every insert either succeeds or
 * answers UNKNOWN_TABLE (60), never LOGICAL_ERROR, and no error text shows a server path or a Java class name.
 */
class InsertInterpreterTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> post(StubServer s, String sql) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anInsertRacingDropTableAnswersUnknownTable(@TempDir Path dataDir) throws Exception {
        String create = "CREATE TABLE r (k Int32, s String) ENGINE = MergeTree ORDER BY k";
        StringBuilder values = new StringBuilder(" VALUES ");
        for (int i = 0; i < 2000; i++) {
            values.append(i == 0 ? "" : ",").append("(").append(i).append(", 'row").append(i).append("')");
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertEquals(200, post(s, create).statusCode());
            ExecutorService pool = Executors.newFixedThreadPool(4);
            Map<String, AtomicInteger> codes = new ConcurrentHashMap<>();
            List<String> badBodies = new CopyOnWriteArrayList<>();
            try {
                List<Future<?>> writers = new java.util.ArrayList<>();
                for (int w = 0; w < 3; w++) {
                    String insert = (w == 2 ? "INSERT INTO r SETTINGS async_insert = 1, wait_for_async_insert = 1" : "INSERT INTO r") + values;
                    writers.add(pool.submit(() -> {
                        for (int i = 0; i < 60; i++) {
                            HttpResponse<String> r = post(s, insert);
                            String code = r.statusCode() == 200 ? "ok" : r.headers().firstValue("X-ClickHouse-Exception-Code").orElse("?");
                            codes.computeIfAbsent(code, k -> new AtomicInteger()).incrementAndGet();
                            if (r.statusCode() != 200 && (r.body().contains(dataDir.toString()) || r.body().contains("java.")
                                || r.body().replace("DB::Exception", "").contains("Exception") || !code.equals("60"))) {
                                badBodies.add(r.body());
                            }
                        }
                        return null;
                    }));
                }
                Future<?> dropper = pool.submit(() -> {
                    for (int i = 0; i < 80; i++) {
                        post(s, "DROP TABLE IF EXISTS r");
                        post(s, create);
                    }
                    return null;
                });
                for (Future<?> f : writers) {
                    f.get();
                }
                dropper.get();
            } finally {
                pool.shutdownNow();
            }
            assertTrue(badBodies.isEmpty(), "answers other than 200 or a clean UNKNOWN_TABLE: " + codes + " " + badBodies);
            assertTrue(codes.containsKey("ok"), String.valueOf(codes));
            assertFalse(codes.keySet().stream().anyMatch(c -> !c.equals("ok") && !c.equals("60")), String.valueOf(codes));
        }
    }

    @Test
    void unexpectedErrorsShowNeitherPathsNorClassNames() {
        String m = HttpInterface.withoutPathsAndClasses("java.nio.file.NoSuchFileException: /tmp/x/data/default/t/tmp_insert_all_1_1_0.bin");
        assertFalse(m.contains("/tmp") || m.contains("java.") || m.contains("Exception"), m);
        assertTrue(HttpInterface.toChException(new java.io.IOException("cannot write /var/lib/x")).displayText().contains("<path>"));
        String npe = HttpInterface.toChException(new IllegalStateException("state of dev.chdedup.stub.Foo broken")).displayText();
        assertFalse(npe.contains("dev.chdedup") || npe.contains("IllegalStateException"), npe);
        String cast = HttpInterface.toChException(new ClassCastException("class java.lang.Long cannot be cast to class "
            + "dev.chdedup.stub.types.Foo (java.lang.Long is in module java.base of loader 'bootstrap')")).displayText();
        assertTrue(cast.contains("Long cannot be cast to Foo") && !cast.contains("dev.chdedup") && !cast.contains("java."), cast);
    }
}
